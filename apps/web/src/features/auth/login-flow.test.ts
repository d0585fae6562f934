import type { LoginConfig } from '@ticket/contracts';
import { describe, expect, it } from 'vitest';
import { loginPath, prepareLogin, readCallback, safeNext } from './login-flow';

const config: LoginConfig = {
  clientId: '123456789012345678',
  authorizeUrl: 'https://discord.example/oauth2/authorize',
  scope: 'identify guilds email guilds.members.read',
  responseType: 'code',
  prompt: 'none',
  inviteUrl: 'https://discord.example/oauth2/authorize?client_id=123456789012345678&scope=bot',
};

const answer = (query: Record<string, string>) => new URLSearchParams(query);

describe('login flow', () => {
  it('sends the browser to the authorize URL with a random state it remembers with the wanted path', () => {
    const url = new URL(prepareLogin(config, '/tickets?page=2'));
    expect(`${url.origin}${url.pathname}`).toBe('https://discord.example/oauth2/authorize');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: config.clientId,
      response_type: 'code',
      scope: config.scope,
      redirect_uri: `${window.location.origin}/callback`,
      prompt: 'none',
    });
    const state = url.searchParams.get('state') ?? '';
    expect(state).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.parse(sessionStorage.getItem('login') ?? '{}')).toEqual({ state, next: '/tickets?page=2' });
    const other = new URL(prepareLogin(config, '/')).searchParams.get('state');
    expect(other).not.toBe(state);
  });

  it('accepts the answer when the state matches, and only once', () => {
    const state = new URL(prepareLogin(config, '/profile')).searchParams.get('state') ?? '';
    expect(readCallback(answer({ code: 'c0de', state }))).toEqual({ ok: true, code: 'c0de', next: '/profile' });
    expect(readCallback(answer({ code: 'c0de', state }))).toMatchObject({ ok: false, error: 'invalid_token' });
  });

  it('rejects an answer whose state does not match (invalid_token)', () => {
    prepareLogin(config, '/profile');
    expect(readCallback(answer({ code: 'c0de', state: 'forged' }))).toEqual({
      ok: false,
      error: 'invalid_token',
      next: '/profile',
    });
  });

  it('rejects an answer when no sign-in was started here', () => {
    expect(readCallback(answer({ code: 'c0de', state: 'anything' }))).toMatchObject({ ok: false, error: 'invalid_token' });
  });

  it('reports a refusal on the platform as access_denied', () => {
    prepareLogin(config, '/');
    expect(readCallback(answer({ error: 'access_denied', state: 'x' }))).toMatchObject({
      ok: false,
      error: 'access_denied',
    });
  });

  it('only ever goes back to a path of this app', () => {
    expect(safeNext('/staff/1/tickets')).toBe('/staff/1/tickets');
    expect(safeNext('https://evil.example')).toBe('/');
    expect(safeNext('//evil.example')).toBe('/');
    expect(safeNext('/\\evil.example')).toBe('/');
    expect(safeNext('/\t/evil.example')).toBe('/');
    expect(safeNext('/login?next=/x')).toBe('/');
    expect(safeNext(null)).toBe('/');
    expect(loginPath('/')).toBe('/login');
    expect(loginPath('/tickets?page=2')).toBe('/login?next=%2Ftickets%3Fpage%3D2');
  });
});
