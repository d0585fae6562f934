import { NativeSelect, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, LocaleLoadError, setLocale } from '@/lib/i18n';
import { notifyError } from '@/lib/notify';
import { ProfileSection } from './profile-section';

/**
 * The UI language, by its own name (SPEC §9), kept in this browser. The header's picker does the
 * same; here it is a plain labelled select, easy to find and to use with a keyboard or on a phone.
 */
export function LanguageSection() {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const current = LANGUAGES.find((language) => language.code === i18n.language) ?? LANGUAGES[0];

  const change = async (code: string) => {
    setBusy(true);
    try {
      await setLocale(code);
    } catch (error) {
      // The UI stays in its current language either way.
      notifyError(error instanceof LocaleLoadError ? t('language.loadFailed') : t('language.updateFailed'));
    } finally {
      setBusy(false);
    }
  };

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
        onChange={(event) => void change(event.currentTarget.value)}
        data={LANGUAGES.map((language) => ({ value: language.code, label: language.name }))}
        maw={320}
      />
    </ProfileSection>
  );
}
