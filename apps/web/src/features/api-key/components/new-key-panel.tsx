import { useTranslation } from 'react-i18next';
import { ShownOnceSecret } from '@/components/shown-once-secret';

/** The key just generated, in full, this once: the service keeps only its hash. */
export function NewKeyPanel({ apiKey, onDismiss }: { apiKey: string; onDismiss: () => void }) {
  const { t } = useTranslation();
  const texts = {
    title: t('apiKey.new.title'),
    once: t('apiKey.new.once'),
    label: t('apiKey.new.label'),
    copy: t('apiKey.new.copy'),
    copied: t('apiKey.new.copied'),
    copyFailed: t('apiKey.new.copyFailed'),
    dismiss: t('apiKey.new.dismiss'),
  };
  return <ShownOnceSecret value={apiKey} texts={texts} onDismiss={onDismiss} />;
}
