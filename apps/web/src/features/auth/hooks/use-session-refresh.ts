import { useEffect, useRef } from 'react';
import { hasSession, useAuthStore } from '@/lib/auth-store';

/**
 * Confirms a session restored from storage once per page load: roles may have changed and the
 * token may have been revoked. A fresh sign-in is already confirmed.
 */
export function useSessionRefresh(): void {
  const started = useRef(false);
  useEffect(() => {
    const state = useAuthStore.getState();
    if (started.current || state.verified || !hasSession(state)) return;
    started.current = true;
    state.refresh('normal').catch(() => {
      // A 429 keeps the stored session; any other failure has already signed the user out.
    });
  }, []);
}
