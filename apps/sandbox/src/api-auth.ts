import type { FastifyRequest } from 'fastify';
import { unauthorized } from './errors.ts';
import type { Application } from './applications.ts';
import type { FixtureUser } from './fixtures.ts';
import type { AuthKind, OAuthGrant, SandboxState } from './state.ts';

/** A bot (of whichever application the token is) or a user's OAuth2 grant. */
export type ApiCaller = { kind: 'bot'; app: Application } | { kind: 'bearer'; grant: OAuthGrant; user: FixtureUser };

/** Classifies the Authorization header without throwing, for the request log and for routes. */
export function identifyCaller(state: SandboxState, header: string | undefined): { kind: AuthKind; caller: ApiCaller | null } {
  if (!header) return { kind: 'none', caller: null };
  const match = /^(Bot|Bearer)\s+(\S+)$/i.exec(header.trim());
  if (!match) return { kind: 'invalid', caller: null };
  const scheme = match[1]!.toLowerCase();
  const token = match[2]!;
  if (scheme === 'bot') {
    // Any application's current token: the request acts as that application's bot. A revoked or reset one is as unknown as a made-up one.
    const app = state.applicationByToken(token);
    return app ? { kind: 'bot', caller: { kind: 'bot', app } } : { kind: 'invalid', caller: null };
  }
  const grant = state.grantsByAccessToken.get(token);
  if (!grant || grant.revoked || grant.expiresAt <= state.now()) return { kind: 'invalid', caller: null };
  const user = state.users.get(grant.userId);
  if (!user) return { kind: 'invalid', caller: null };
  return { kind: 'bearer', caller: { kind: 'bearer', grant, user } };
}

export function requireCaller(state: SandboxState, request: FastifyRequest): ApiCaller {
  const { caller } = identifyCaller(state, request.headers.authorization);
  if (!caller) throw unauthorized();
  return caller;
}

/** Bot-only routes answer a Bearer token the way Discord does: as if it were no token at all. Answers the bot's application. */
export function requireBot(state: SandboxState, request: FastifyRequest): Application {
  const caller = requireCaller(state, request);
  if (caller.kind !== 'bot') throw unauthorized();
  return caller.app;
}

/**
 * Discord answers a token that lacks the route's scope with the same 401 as a bad token
 * (not 403 Missing Access), so clients cannot tell the two apart and neither can we.
 */
export function requireBearer(state: SandboxState, request: FastifyRequest, scope: string): { grant: OAuthGrant; user: FixtureUser } {
  const caller = requireCaller(state, request);
  if (caller.kind !== 'bearer' || !caller.grant.scopes.includes(scope)) throw unauthorized();
  return caller;
}
