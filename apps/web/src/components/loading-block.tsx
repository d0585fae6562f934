import { Box, Skeleton, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A placeholder the size of what is loading, announced once to screen readers. */
export function LoadingBlock({ height = 120, label }: { height?: number; label?: string }) {
  const { t } = useTranslation();
  return (
    <Box role="status">
      <Skeleton height={height} radius="md" aria-hidden />
      <VisuallyHidden>{label ?? t('app.loading')}</VisuallyHidden>
    </Box>
  );
}
