declare module 'virtual:locale-parts' {
  import type { LocalePart } from '@/locales/areas';

  type Messages = Record<string, unknown>;
  /** Each language's parts, by code; each loads as its own chunk (plugins/locale-parts.ts). */
  export const LOCALE_PARTS: Record<string, Record<LocalePart, () => Promise<{ default: Messages }>>>;
}
