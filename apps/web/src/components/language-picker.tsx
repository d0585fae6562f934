import { Button, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '@/lib/i18n';
import { useLanguageSwitch } from '@/lib/use-language-switch';
import { CheckIcon, LanguageIcon } from './icons';
import { LazyMenu } from './lazy-menu';

/** Every UI language by its own name (SPEC §9); choosing one switches the whole UI and is remembered. */
export function LanguagePicker() {
  const { t } = useTranslation();
  const { current, busy, choose } = useLanguageSwitch();

  return (
    <LazyMenu
      position="bottom-end"
      shadow="md"
      width={220}
      // 39 languages scroll; with the items in the tab order the list scrolls by keyboard too.
      styles={{ dropdown: { maxHeight: 'min(360px, 70dvh)', overflowY: 'auto' } }}
      menuItemTabIndex={0}
      target={(props) => (
        <Button
          variant="default"
          px="xs"
          loading={busy}
          leftSection={<LanguageIcon />}
          aria-label={`${t('language.label')}: ${current?.name ?? ''}`}
          {...props}
        >
          <Text span inherit visibleFrom="lg" lang={current?.code}>
            {current?.name}
          </Text>
        </Button>
      )}
    >
      {(Menu) => (
        <>
          <Menu.Label>{t('language.label')}</Menu.Label>
          {LANGUAGES.map((language) => {
            const selected = language.code === current?.code;
            return (
              <Menu.Item
                key={language.code}
                lang={language.code}
                dir={language.rtl ? 'rtl' : 'ltr'}
                aria-current={selected ? 'true' : undefined}
                rightSection={selected ? <CheckIcon size={16} /> : null}
                onClick={() => void choose(language.code)}
              >
                {language.name}
              </Menu.Item>
            );
          })}
        </>
      )}
    </LazyMenu>
  );
}
