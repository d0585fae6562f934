/**
 * The parts each language file is served in. The shell part (every top-level group no area lists)
 * comes with the first screen; each area's groups come with the screens that show them, so the
 * strings of screens a user has not opened do not weigh on the first load. The translation files
 * stay one per language (see plugins/locale-parts.ts).
 */
export const LOCALE_AREAS = {
  settings: ['settings'],
  panels: ['panels'],
  tickets: ['tickets'],
  /** The staff screens of a server, and the plan and ticket notes the settings, panels and ticket lists share with them. */
  staff: ['staff'],
  /** The white-label bot of an Enterprise server. */
  whitelabel: ['whitelabel'],
  /** The API key of an Enterprise server. */
  apiKey: ['apiKey'],
  /** The outgoing webhooks of an Enterprise server. */
  webhooks: ['webhooks'],
  /** Plans, buying, subscriptions and the payment result pages. */
  premium: ['premium'],
  /** Signing in, the bot's invite, the user's profile and their profile on a server. */
  account: ['login', 'invite', 'profile', 'serverProfile'],
  /** A server's public statistics page (its charts' strings are the staff area's). */
  publicStats: ['publicStats'],
  /** The welcome tour's dialog. */
  tour: ['tour'],
} as const satisfies Record<string, readonly string[]>;

export type LocaleArea = keyof typeof LOCALE_AREAS;
export type LocalePart = 'shell' | LocaleArea;

export const LOCALE_AREA_NAMES = Object.keys(LOCALE_AREAS) as LocaleArea[];
