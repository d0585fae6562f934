/**
 * The parts each language file is served in. The shell part (every top-level group not listed
 * here) comes with the first screen; each area's group comes with the screens that show it, so the
 * strings of screens a user has not opened do not weigh on the first load. The translation files
 * stay one per language (see plugins/locale-parts.ts).
 */
export const LOCALE_AREAS = ['settings', 'panels', 'tickets'] as const;

export type LocaleArea = (typeof LOCALE_AREAS)[number];
export type LocalePart = 'shell' | LocaleArea;
