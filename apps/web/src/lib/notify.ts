import type * as NotificationsLibrary from '@mantine/notifications';
import type { NotificationData } from '@mantine/notifications';
import { createElement } from 'react';
import type * as DialogsModule from '@/components/dialogs';
import type { ModalsControls } from '@/components/dialogs';
import { i18n } from './i18n';

/** SPEC §9: toasts sit top-right and close by themselves after 4 s, showing the time left. */
export const NOTIFICATION_POSITION = 'top-right';
export const NOTIFICATION_AUTO_CLOSE_MS = 4000;

type NotificationsModule = typeof NotificationsLibrary;

/**
 * A lazily loaded part of the UI: fetched the first time it is asked for, then mounted by a
 * component of the providers that watches `requested` (see components/lazy-notifications.tsx and
 * components/lazy-modals.tsx).
 */
function lazyPart<T>(load: () => Promise<T>) {
  let loading: Promise<T> | undefined;
  const listeners = new Set<() => void>();
  return {
    load(): Promise<T> {
      if (!loading) {
        loading = load();
        for (const listener of listeners) listener();
      }
      return loading;
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    requested: (): boolean => loading !== undefined,
  };
}

// The toast library (with its transition and scroll-lock dependencies) is fetched with the first
// toast instead of with the first screen, where it would be a twentieth of the script.
const notificationsPart = lazyPart(() => import('@mantine/notifications'));
const toastMessage = lazyPart(() => import('@/components/toast-message'));

export const loadNotifications = (): Promise<NotificationsModule> => notificationsPart.load();
/** For `useSyncExternalStore`: whether a toast was ever asked for, so the container must exist. */
export const subscribeToNotificationsLoad = notificationsPart.subscribe;
export const notificationsRequested = notificationsPart.requested;

function show(data: NotificationData & { message: string }): void {
  void Promise.all([loadNotifications(), toastMessage.load()]).then(([{ notifications }, { ToastMessage }]) =>
    notifications.show({
      ...data,
      autoClose: NOTIFICATION_AUTO_CLOSE_MS,
      // The toast's only button closes it: it has nothing to confirm (SPEC §9).
      closeButtonProps: { 'aria-label': i18n.t('common.close') },
      message: createElement(ToastMessage, { duration: NOTIFICATION_AUTO_CLOSE_MS, children: data.message }),
    }),
  );
}

/** A success toast: top-right, no button to confirm, gone after 4 s. */
export function notifySuccess(message: string, title?: string): void {
  show({ color: 'green', title, message });
}

/** An error toast: top-right, no button to confirm, gone after 4 s. */
export function notifyError(message: string, title?: string): void {
  show({ color: 'red', title, message });
}

// Dialogs: @mantine/modals and its provider are fetched with the first dialog.
const dialogsPart = lazyPart(() => import('@/components/dialogs'));
export const loadDialogs = (): Promise<typeof DialogsModule> => dialogsPart.load();
export const subscribeToDialogsLoad = dialogsPart.subscribe;
export const dialogsRequested = dialogsPart.requested;

let controls: ModalsControls | null = null;
let waiting: ((modals: ModalsControls) => void)[] = [];

/** Called by the mounted modals provider with its controls, and with null when it goes away. */
export function provideModals(modals: ModalsControls | null): void {
  controls = modals;
  if (!modals) return;
  const resolvers = waiting;
  waiting = [];
  for (const resolve of resolvers) resolve(modals);
}

async function modalsControls(): Promise<[typeof DialogsModule, ModalsControls]> {
  const dialogs = await loadDialogs();
  if (controls) return [dialogs, controls];
  return [dialogs, await new Promise<ModalsControls>((resolve) => waiting.push(resolve))];
}

export interface ConfirmOptions {
  /** Defaults to 'Are you sure?' (`subjects.alerts.areYouSure`). */
  title?: string;
  /** Defaults to 'This action cannot be undone.' (`subjects.alerts.actionCannotBeUndone`). */
  text?: string;
}

/** Asks before something that cannot be undone. True only when the user clicks Yes. */
export async function confirm({ title, text }: ConfirmOptions = {}): Promise<boolean> {
  const [dialogs, modals] = await modalsControls();
  return dialogs.openConfirm(modals, {
    title: title ?? i18n.t('subjects.alerts.areYouSure'),
    text: text ?? i18n.t('subjects.alerts.actionCannotBeUndone'),
    yes: i18n.t('common.yes'),
    no: i18n.t('common.no'),
  });
}

/** An error the user must acknowledge; resolves once it is closed. */
export async function errorPopup({ title, text }: { title: string; text: string }): Promise<void> {
  const [dialogs, modals] = await modalsControls();
  return dialogs.openError(modals, { title, text, close: i18n.t('common.close') });
}
