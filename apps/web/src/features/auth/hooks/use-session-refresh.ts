import { useEffect, useRef } from 'react';
import { hasSession, useAuthStore } from '@/lib/auth-store';

/**
 * Confirms a session restored from storage once per page load: roles may have changed and the
 * token may have been revoked. A fresh sign-in is already confirmed. While `skip` is set (on
 * /invite_callback, SPEC §2) it waits, and confirms once the user goes on elsewhere.
 */
export function useSessionRefresh(skip = false): void {
  const started = useRef(false);
  useEffect(() => {
    const state = useAuthStore.getState();
    if (skip || started.current || state.verified || !hasSession(state)) return;
    started.current = true;
    state.refresh('normal').catch(() => {
      // A 429 keeps the stored session; any other failure has already signed the user out.
    });
  }, [skip]);
}
