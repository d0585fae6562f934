import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LoadError } from '@/components/load-error';
import { LANGUAGES } from '@/lib/i18n';
import { SettingsCard } from '../controls/settings-card';
import { useSubjectEditor } from '../subject-editor-context';

/** Languages the bot can speak: the UI's, each in its own name, plus any other code already chosen. */
function languageOptions(current: (string | null | undefined)[]) {
  const options: { value: string; label: string }[] = LANGUAGES.map((language) => ({ value: language.code, label: language.name }));
  for (const code of current) {
    if (code && !options.some((o) => o.value === code)) options.push({ value: code, label: code });
  }
  return options;
}

export function LanguageCard() {
  const { t } = useTranslation();
  const { subject, server, change } = useSubjectEditor();
  const serverLanguage = server.settings?.language;
  const options = languageOptions([serverLanguage, subject.language]);
  const serverLanguageName = options.find((o) => o.value === serverLanguage)?.label ?? serverLanguage ?? '';
  return (
    <SettingsCard title={t('settings.cards.language.title')} description={t('settings.cards.language.description')}>
      <Select
        label={t('settings.language.subject')}
        description={t('settings.language.subjectHint')}
        data={[
          { value: '', label: serverLanguage ? t('settings.language.serverDefaultNamed', { language: serverLanguageName }) : t('settings.language.serverDefault') },
          ...options,
        ]}
        value={subject.language ?? ''}
        allowDeselect={false}
        searchable
        onChange={(value) => change({ path: 'language', operation: 'set', value: value ? value : null })}
      />
      {server.error ? (
        <LoadError message={t('settings.language.loadFailed')} onRetry={server.reload} />
      ) : (
        <Select
          label={t('settings.language.server')}
          description={t('settings.language.serverHint')}
          data={options}
          value={serverLanguage ?? null}
          disabled={!server.settings}
          placeholder={server.loading ? t('app.loading') : undefined}
          allowDeselect={false}
          searchable
          onChange={(value) => value && change({ subjectId: '', path: 'language', operation: 'set', value })}
        />
      )}
    </SettingsCard>
  );
}
