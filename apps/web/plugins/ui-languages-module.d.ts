declare module 'virtual:ui-languages' {
  // Only the type crosses over: the value is the contracts' own, serialised at build time (plugins/ui-languages.ts).
  import type { UI_LANGUAGES as Languages } from '@ticket/contracts';

  export const UI_LANGUAGES: typeof Languages;
}
