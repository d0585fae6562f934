import type { BearerUser } from '@ticket/contracts';
import { type LoaderFunctionArgs, redirect, replace } from 'react-router';
import { loginPath, safeNext } from '@/features/auth/login-path';
import { hasSession, isAdminRole, isStaffRole, useAuthStore } from '@/lib/auth-store';
import { i18n } from '@/lib/i18n';
import { useNavigationStore } from '@/lib/navigation-store';
import { notifyError } from '@/lib/notify';
import type { AuthLevel, RouteHandle } from '@/lib/routes';
import { enterServer, serverEntryOf } from '@/lib/server-context';

export type GuardDecision =
  /** Go on. */
  | 'allow'
  /** Signed out: sign in first, then come back here. */
  | 'login'
  /** A NOT_AUTHENTICATED route while signed in: go where the sign-in would have led. */
  | 'already-signed-in'
  /** Not allowed, and the navigation started at the root (or is the first): land on the Dashboard. */
  | 'deny-to-dashboard'
  /** Not allowed: stay on the current screen as if nothing had been clicked. */
  | 'deny-cancel';

export interface GuardedRoute {
  auth: AuthLevel;
  /** The route's `:serverId`, for STAFF and ADMIN. */
  serverId?: string | undefined;
}

/** Whether a navigation starting at `from` started at the root: the first load has no `from`. */
export const startsAtRoot = (from: string | null): boolean => from === null || new URL(from, 'http://x').pathname === '/';

/**
 * SPEC §6. `user` is the signed-in user (null when signed out or the session has expired); `from`
 * is where the navigation starts (path, search, hash), null on the first load.
 */
export function decide(route: GuardedRoute, user: BearerUser | null, from: string | null): GuardDecision {
  if (route.auth === 'open') return 'allow';
  if (route.auth === 'NOT_AUTHENTICATED') return user ? 'already-signed-in' : 'allow';
  if (!user) return 'login';
  if (route.auth === 'SIGNED_IN') return 'allow';
  const role = serverEntryOf(user, route.serverId)?.role;
  const allowed = route.auth === 'ADMIN' ? isAdminRole(role) : isStaffRole(role);
  if (allowed) return 'allow';
  return startsAtRoot(from) ? 'deny-to-dashboard' : 'deny-cancel';
}

const signedInUser = (): BearerUser | null => {
  const state = useAuthStore.getState();
  return hasSession(state) ? state.user : null;
};

const hrefOf = (url: URL): string => url.pathname + url.search + url.hash;

/**
 * The loader that enforces a route's `handle.auth` before its screen loads or renders.
 *
 * Cancelling: a data router commits a navigation only after its loaders; until then the address
 * bar, history and screen still show where the user is. Answering with a `replace` redirect to that
 * very location ends the navigation there: nothing new is pushed onto history and the current
 * screen's routes match again, so its components stay mounted with their state and scroll
 * position. Only the guard loaders of that screen run again (they allow, as they did before).
 */
export function guardRoute(handle: Pick<RouteHandle, 'auth'>) {
  return ({ request, params }: LoaderFunctionArgs): null => {
    const url = new URL(request.url);
    const user = signedInUser();
    const from = useNavigationStore.getState().location;
    let decision = decide({ auth: handle.auth, serverId: params.serverId }, user, from);
    // The screen on display may itself no longer be allowed (its roles changed): nowhere to stay.
    if (decision === 'deny-cancel' && from === hrefOf(url)) decision = 'deny-to-dashboard';

    switch (decision) {
      case 'allow':
        // Only a screen's own STAFF or ADMIN check may enter its server: a layout above it sees the
        // same params and may allow while the screen's guard denies.
        if (params.serverId && (handle.auth === 'STAFF' || handle.auth === 'ADMIN')) {
          enterServer(params.serverId, user?.userId);
        }
        return null;
      case 'login':
        throw redirect(loginPath(hrefOf(url)));
      case 'already-signed-in':
        throw redirect(safeNext(url.searchParams.get('next')));
      case 'deny-to-dashboard':
        notifyError(i18n.t('errors.noPermission'));
        throw replace('/');
      case 'deny-cancel':
        notifyError(i18n.t('errors.noPermission'));
        throw replace(from ?? '/');
    }
  };
}
