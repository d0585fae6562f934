import { NativeSelect, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '@/lib/i18n';
import { useLanguageSwitch } from '@/lib/use-language-switch';
import { ProfileSection } from './profile-section';

/**
 * The UI language, by its own name (SPEC §9), kept in this browser. The header's picker does the
 * same; here it is a plain labelled select, easy to find and to use with a keyboard or on a phone.
 */
export function LanguageSection() {
  const { t } = useTranslation();
  const { current, busy, choose } = useLanguageSwitch();

  return (
    <ProfileSection title={t('profile.language.title')}>
      {current && (
        <Text>
          {t('profile.language.current')}{' '}
          <Text span fw={600} lang={current.code}>
            {current.name}
          </Text>
        </Text>
      )}
      <NativeSelect
        label={t('profile.language.label')}
        value={current?.code}
        disabled={busy}
        onChange={(event) => void choose(event.currentTarget.value)}
        data={LANGUAGES.map((language) => ({ value: language.code, label: language.name }))}
        maw={320}
      />
    </ProfileSection>
  );
}
