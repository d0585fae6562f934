import { type CSSVariablesResolver, createTheme, localStorageColorSchemeManager } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 7 in light mode and 8 in dark mode keep white text on filled buttons above 4.5:1.
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  focusRing: 'auto',
  // Black or white text on filled colours, whichever reads: white on yellow or lime does not.
  autoContrast: true,
  cursorType: 'pointer',
});

/**
 * Text at 4.5:1 or better (WCAG AA) in the light scheme, where Mantine's palettes fall short:
 * secondary text (`c="dimmed"`, menu labels) one shade darker, and coloured text (`c="red"`, the
 * light and subtle variants of badges and buttons) the colour's darkest shade darkened further, so
 * that even yellow and green read on their own tinted backgrounds. The dark scheme passes as is
 * but for the dimmed text and field errors.
 */
export const cssVariablesResolver: CSSVariablesResolver = (theme) => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // Field errors (the message and the field's text) in a red that reads on white and on gray-0.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  };
  for (const color of Object.keys(theme.colors)) {
    const readable = `color-mix(in srgb, var(--mantine-color-${color}-9) 70%, black)`;
    light[`--mantine-color-${color}-light-color`] = readable;
    light[`--mantine-color-${color}-text`] = readable;
  }
  return {
    variables: {},
    light,
    dark: { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)', '--mantine-color-error': 'var(--mantine-color-red-5)' },
  };
};

/** Light or dark as chosen in the header, remembered per browser; the system's choice until then. */
export const COLOR_SCHEME_STORAGE_KEY = 'color-scheme';
export const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_STORAGE_KEY });
