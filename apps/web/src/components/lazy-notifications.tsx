import type { NotificationsProps } from '@mantine/notifications';
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { loadNotifications, notificationsRequested, subscribeToNotificationsLoad } from '@/lib/notify';

const Notifications = lazy(async () => ({ default: (await loadNotifications()).Notifications }));

/** The toast container, mounted with the first toast (see lib/notify.ts). */
export function LazyNotifications(props: NotificationsProps) {
  const requested = useSyncExternalStore(subscribeToNotificationsLoad, notificationsRequested);
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      <Notifications {...props} />
    </Suspense>
  );
}
