import { beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { startApi } from '@/test/render';
import { ResponseError } from './api';
import { hasSession, useAuthStore } from './auth-store';

const signIn = () => useAuthStore.setState({ token: 'tok-1', user: testUser() });
const errorBody = (statusCode: number) => ({ statusCode, error: 'x', code: 'x', message: 'x' });

describe('auth store', () => {
  beforeEach(startApi);

  it('logs in with the OAuth code, keeps token and user, and persists them under "auth"', async () => {
    const user = testUser();
    const { calls } = mockFetch(() => json({ user, token: 'tok-new' }));
    await useAuthStore.getState().login('the-code', 'http://localhost/callback');
    expect(calls[0]?.url).toBe('/api/authentication/user');
    expect(calls[0]?.body).toEqual({ code: 'the-code', redirectUri: 'http://localhost/callback' });
    expect(useAuthStore.getState()).toMatchObject({ token: 'tok-new', user });
    const stored = JSON.parse(localStorage.getItem('auth') ?? '{}') as { state: unknown };
    expect(stored.state).toEqual({ token: 'tok-new', user });
  });

  it.each([
    ['normal', '/api/authentication/user/refresh'],
    ['bypass_cache', '/api/authentication/user/refresh/bypass'],
    ['force', '/api/authentication/user/refresh/force'],
  ] as const)('refresh(%s) calls %s with the token and keeps the new user', async (mode, url) => {
    signIn();
    const fresh = testUser({ username: 'ada-renamed' });
    const { calls } = mockFetch(() => json(fresh));
    await expect(useAuthStore.getState().refresh(mode)).resolves.toEqual(fresh);
    expect(calls[0]).toMatchObject({ method: 'POST', url });
    expect(calls[0]?.headers.get('Authorization')).toBe('Bearer tok-1');
    expect(useAuthStore.getState().user).toEqual(fresh);
  });

  it("refuses to refresh without a user: 'user was null'", async () => {
    const { fetchMock } = mockFetch(() => json({}));
    await expect(useAuthStore.getState().refresh()).rejects.toThrow('user was null');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('passes a 429 on to the caller and stays signed in', async () => {
    signIn();
    const { calls } = mockFetch(() => json(errorBody(429), { status: 429, headers: { 'Retry-After': '5' } }));
    const error = await useAuthStore
      .getState()
      .refresh('bypass_cache')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseError);
    expect((error as ResponseError).status).toBe(429);
    expect(useAuthStore.getState().token).toBe('tok-1');
    expect(useAuthStore.getState().user).not.toBeNull();
    expect(calls.map((call) => call.method)).toEqual(['POST']);
  });

  it.each([
    ['a 401', () => json(errorBody(401), { status: 401 })],
    ['a 500', () => json(errorBody(500), { status: 500 })],
  ])('logs out when the refresh fails with %s', async (_, answer) => {
    signIn();
    const { calls } = mockFetch((request) => (request.method === 'DELETE' ? new Response(null, { status: 204 }) : answer()));
    await expect(useAuthStore.getState().refresh()).rejects.toThrow('Response returned an error code');
    expect(useAuthStore.getState()).toMatchObject({ token: null, user: null });
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      'POST /api/authentication/user/refresh',
      'DELETE /api/authentication/user',
    ]);
  });

  it('logs out when the refresh never reaches the server', async () => {
    signIn();
    mockFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(useAuthStore.getState().refresh()).rejects.toThrow(
      'The request failed and the interceptors did not return an alternative response',
    );
    expect(useAuthStore.getState()).toMatchObject({ token: null, user: null });
  });

  it('logout ends the session on the server with the token', async () => {
    signIn();
    const { calls } = mockFetch(() => new Response(null, { status: 204 }));
    await useAuthStore.getState().logout();
    expect(calls[0]).toMatchObject({ method: 'DELETE', url: '/api/authentication/user' });
    expect(calls[0]?.headers.get('Authorization')).toBe('Bearer tok-1');
    expect(useAuthStore.getState()).toMatchObject({ token: null, user: null });
    expect(JSON.parse(localStorage.getItem('auth') ?? '{}')).toMatchObject({ state: { token: null, user: null } });
  });

  it.each([
    ['the server answers 500', () => json(errorBody(500), { status: 500 })],
    [
      'the network is down',
      () => {
        throw new TypeError('Failed to fetch');
      },
    ],
  ])('logout clears token and user even when %s', async (_, answer) => {
    signIn();
    mockFetch(answer);
    await expect(useAuthStore.getState().logout()).resolves.toBeUndefined();
    expect(useAuthStore.getState()).toMatchObject({ token: null, user: null });
  });

  it('knows the role on each server: admin is Owner or Admin, staff is Staff or admin', () => {
    signIn();
    const { roleOn, isAdmin, isStaff, isStaffAnywhere } = useAuthStore.getState();
    expect(roleOn('200000000000000001')).toBe('Owner');
    expect(roleOn('300000000000000001')).toBe('Admin');
    expect(roleOn('999')).toBeUndefined();
    expect([isAdmin('200000000000000001'), isStaff('200000000000000001')]).toEqual([true, true]);
    expect([isAdmin('300000000000000001'), isStaff('300000000000000001')]).toEqual([true, true]);
    expect([isAdmin('200000000000000002'), isStaff('200000000000000002')]).toEqual([false, true]);
    expect([isAdmin('200000000000000003'), isStaff('200000000000000003')]).toEqual([false, false]);
    expect([isAdmin('999'), isStaff('999')]).toEqual([false, false]);
    expect(isStaffAnywhere()).toBe(true);
  });

  it('counts a session as over once it expires', () => {
    const user = testUser({ expires: '2020-01-01T00:00:00.000Z' });
    expect(hasSession({ token: 't', user })).toBe(false);
    expect(hasSession({ token: 't', user: testUser() })).toBe(true);
    expect(hasSession({ token: null, user: testUser() })).toBe(false);
  });
});
