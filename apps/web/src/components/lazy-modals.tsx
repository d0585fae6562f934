import { lazy, Suspense, useSyncExternalStore } from 'react';
import { dialogsRequested, loadDialogs, provideModals, subscribeToDialogsLoad } from '@/lib/notify';

const ModalsHost = lazy(async () => ({ default: (await loadDialogs()).ModalsHost }));

/** The dialogs' provider, mounted with the first `confirm()` or `errorPopup()` (see lib/notify.ts). */
export function LazyModals() {
  const requested = useSyncExternalStore(subscribeToDialogsLoad, dialogsRequested);
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      <ModalsHost onReady={provideModals} />
    </Suspense>
  );
}
