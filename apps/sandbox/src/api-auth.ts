import type { FastifyRequest } from 'fastify';
import { unauthorized } from './errors.ts';
import type { FixtureUser } from './fixtures.ts';
import type { AuthKind, OAuthGrant, SandboxState } from './state.ts';

export type ApiCaller = { kind: 'bot' } | { kind: 'bearer'; grant: OAuthGrant; user: FixtureUser };

/** Classifies the Authorization header without throwing, for the request log and for routes. */
export function identifyCaller(state: SandboxState, header: string | undefined): { kind: AuthKind; caller: ApiCaller | null } {
  if (!header) return { kind: 'none', caller: null };
  const match = /^(Bot|Bearer)\s+(\S+)$/i.exec(header.trim());
  if (!match) return { kind: 'invalid', caller: null };
  const scheme = match[1]!.toLowerCase();
  const token = match[2]!;
  if (scheme === 'bot') {
    return token === state.application.botToken ? { kind: 'bot', caller: { kind: 'bot' } } : { kind: 'invalid', caller: null };
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

/** Bot-only routes answer a Bearer token the way Discord does: as if it were no token at all. */
export function requireBot(state: SandboxState, request: FastifyRequest): void {
  if (requireCaller(state, request).kind !== 'bot') throw unauthorized();
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
