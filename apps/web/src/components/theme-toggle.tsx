import { Button, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MoonIcon, SunIcon } from './icons';

/** Light or dark; Mantine remembers the choice (app/theme.ts), the system decides until then. */
export function ThemeToggle() {
  const { t } = useTranslation();
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light', { getInitialValueInEffect: true });
  const next = scheme === 'dark' ? 'light' : 'dark';
  return (
    <Button
      variant="default"
      px={8}
      onClick={() => setColorScheme(next)}
      aria-label={next === 'dark' ? t('theme.switchToDark') : t('theme.switchToLight')}
      data-color-scheme={scheme}
    >
      {scheme === 'dark' ? <SunIcon /> : <MoonIcon />}
    </Button>
  );
}
