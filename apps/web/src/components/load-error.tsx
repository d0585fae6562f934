import { Alert, Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A failed load, said plainly, with the way to try again. */
export function LoadError({ message, onRetry }: { message: string; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" role="alert" title={message}>
      {onRetry && (
        <Button variant="light" color="red" size="xs" onClick={onRetry}>
          {t('common.tryAgain')}
        </Button>
      )}
    </Alert>
  );
}
