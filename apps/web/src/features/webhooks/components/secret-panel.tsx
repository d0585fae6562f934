import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ShownOnceSecret } from '@/components/shown-once-secret';

/** A signing secret just made, in full, this once, with the endpoint it signs for. */
export function SecretPanel({ secret, url, onDismiss }: { secret: string; url: string; onDismiss: () => void }) {
  const { t } = useTranslation();
  const texts = {
    title: t('webhooks.secret.title'),
    once: t('webhooks.secret.once'),
    label: t('webhooks.secret.label'),
    copy: t('webhooks.secret.copy'),
    copied: t('webhooks.secret.copied'),
    copyFailed: t('webhooks.secret.copyFailed'),
    dismiss: t('webhooks.secret.dismiss'),
  };
  return (
    <ShownOnceSecret value={secret} texts={texts} onDismiss={onDismiss}>
      <Text size="sm" dir="ltr" style={{ overflowWrap: 'anywhere' }}>
        {url}
      </Text>
    </ShownOnceSecret>
  );
}
