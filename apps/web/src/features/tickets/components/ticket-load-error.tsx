import { useTranslation } from 'react-i18next';
import { LoadError } from '@/components/load-error';
import { isResponseError } from '@/lib/api';

/** SPEC §8: a ticket the user may not see says so; anything else is "Could not load ticket". */
export function TicketLoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  if (isResponseError(error, 403)) return <LoadError message={t('tickets.noPermission')} />;
  // A missing ticket stays missing; only a failed connection or server is worth another try.
  return <LoadError message={t('tickets.loadFailed')} onRetry={isResponseError(error, 404) ? undefined : onRetry} />;
}
