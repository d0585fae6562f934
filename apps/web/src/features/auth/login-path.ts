// Where sign-in leads and comes back to. Every signed-in screen needs it (a session that ends sends
// the user to sign in); the sign-in itself (features/auth/login-flow.ts) comes with its screens.
const PARSE_BASE = 'http://app.invalid';

/** Only a path of this app is a safe place to go after sign-in: never another origin. */
export function safeNext(raw: string | null | undefined): string {
  if (!raw?.startsWith('/')) return '/';
  try {
    // Parsed as the browser would: `//host`, `/\host` and stray tabs all end up on another origin.
    const url = new URL(raw, PARSE_BASE);
    if (url.origin !== PARSE_BASE) return '/';
    const path = url.pathname + url.search + url.hash;
    return path.startsWith('/login') || path.startsWith('/callback') ? '/' : path;
  } catch {
    return '/';
  }
}

export function loginPath(next = '/'): string {
  const path = safeNext(next);
  return path === '/' ? '/login' : `/login?next=${encodeURIComponent(path)}`;
}
