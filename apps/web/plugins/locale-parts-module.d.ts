declare module 'virtual:locale-parts' {
  import type { LocaleArea } from '@/locales/areas';

  type Messages = Record<string, unknown>;
  /** Each language's shell part, by code; each loads as its own chunk (plugins/locale-parts.ts). */
  export const LOCALE_SHELLS: Record<string, () => Promise<{ default: Messages }>>;
  /** The table of the areas' parts, a chunk of its own that the first screen does without. */
  export const loadLocaleAreas: () => Promise<{
    LOCALE_AREA_PARTS: Record<string, Record<LocaleArea, () => Promise<{ default: Messages }>>>;
  }>;
}
