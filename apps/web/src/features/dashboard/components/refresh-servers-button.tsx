import { Button } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isResponseError } from '@/lib/api';
import { useAuthStore } from '@/lib/auth-store';
import { notifyError, notifySuccess } from '@/lib/notify';

/** Asks the platform for the user's servers again, skipping the server's cache. */
export function RefreshServersButton() {
  const { t } = useTranslation();
  const refresh = useAuthStore((state) => state.refresh);
  const [busy, setBusy] = useState(false);
  const [coolDown, setCoolDown] = useState(0);

  useEffect(() => {
    if (coolDown <= 0) return undefined;
    const timer = setTimeout(() => setCoolDown((seconds) => seconds - 1), 1000);
    return () => clearTimeout(timer);
  }, [coolDown]);

  const onClick = async () => {
    setBusy(true);
    try {
      await refresh('bypass_cache');
      notifySuccess(t('servers.refreshed'));
    } catch (error) {
      if (isResponseError(error, 429)) {
        notifyError(t('servers.tooManyRequests'));
        setCoolDown(error.retryAfter ?? 0);
      } else {
        // The store has signed the user out; the layout takes them to /login.
        notifyError(t('servers.refreshFailed'));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button variant="default" onClick={() => void onClick()} loading={busy} disabled={coolDown > 0}>
      {coolDown > 0 ? t('servers.coolDown', { seconds: coolDown }) : t('servers.refresh')}
    </Button>
  );
}
