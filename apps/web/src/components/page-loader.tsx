import { Center, Loader, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function PageLoader({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <Center mih="100dvh" role="status">
      <Loader aria-hidden />
      <VisuallyHidden>{label ?? t('app.loading')}</VisuallyHidden>
    </Center>
  );
}
