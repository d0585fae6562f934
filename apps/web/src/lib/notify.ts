import type * as NotificationsLibrary from '@mantine/notifications';
import type { NotificationData } from '@mantine/notifications';

/** SPEC §9: toasts sit top-right and close by themselves after 4 s. */
export const NOTIFICATION_POSITION = 'top-right';
export const NOTIFICATION_AUTO_CLOSE_MS = 4000;

type NotificationsModule = typeof NotificationsLibrary;

// The toast library (with its transition and scroll-lock dependencies) is fetched with the first
// toast instead of with the first screen, where it would be a twentieth of the script.
let loading: Promise<NotificationsModule> | undefined;
const listeners = new Set<() => void>();

export function loadNotifications(): Promise<NotificationsModule> {
  if (!loading) {
    loading = import('@mantine/notifications');
    for (const listener of listeners) listener();
  }
  return loading;
}

/** For `useSyncExternalStore`: whether a toast was ever asked for, so the container must exist. */
export function subscribeToNotificationsLoad(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const notificationsRequested = (): boolean => loading !== undefined;

function show(data: NotificationData): void {
  void loadNotifications().then(({ notifications }) => notifications.show(data));
}

export function notifySuccess(message: string, title?: string): void {
  show({ color: 'green', title, message });
}

export function notifyError(message: string, title?: string): void {
  show({ color: 'red', title, message });
}
