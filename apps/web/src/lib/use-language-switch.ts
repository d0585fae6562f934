import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, LocaleLoadError, setLocale } from '@/lib/i18n';
import { notifyError } from '@/lib/notify';

/**
 * The UI language and switching it (SPEC §9), for every place that offers the choice: the current
 * language, whether a switch is under way, and `choose`, which says why when it fails (the UI then
 * stays in its current language).
 */
export function useLanguageSwitch() {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const current = LANGUAGES.find((language) => language.code === i18n.language) ?? LANGUAGES[0];

  const choose = async (code: string) => {
    if (code === i18n.language) return;
    setBusy(true);
    try {
      await setLocale(code);
    } catch (error) {
      notifyError(error instanceof LocaleLoadError ? t('language.loadFailed') : t('language.updateFailed'));
    } finally {
      setBusy(false);
    }
  };

  return { current, busy, choose };
}
