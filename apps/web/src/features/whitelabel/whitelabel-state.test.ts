import type { WhitelabelEntry } from '@ticket/contracts';
import { describe, expect, it } from 'vitest';
import { ResponseError } from '@/lib/api';
import { botInviteUrl, isAwaitingDeployment, tokenProblemOf, uiStateOf } from './whitelabel-state';

const bot = (status: WhitelabelEntry['status']): WhitelabelEntry => ({
  serverId: '1',
  activity: null,
  userId: '2',
  name: 'Helper',
  avatarUrl: null,
  status,
  clientId: '3',
});

const refused = (status: number, field?: string) =>
  new ResponseError(new Response(null, { status }), { statusCode: status, error: 'x', code: 'x', message: 'x', ...(field ? { field } : {}) });

describe('uiStateOf: SPEC §4 UI states', () => {
  it.each([
    [null, false, 'ReadyToSetup'],
    [bot('NotRunning'), false, 'NotRunning'],
    [bot('Starting'), false, 'Starting'],
    [bot('Running'), false, 'Running'],
    [bot('Failed'), false, 'Failed'],
    [null, true, 'Deploying'],
    [bot('Failed'), true, 'Deploying'],
  ] as const)('%o, deploying %s → %s', (entry, deploying, state) => {
    expect(uiStateOf(entry, deploying)).toBe(state);
  });

  it('a deployment waits for the service until it says Starting, Running or Failed', () => {
    expect(isAwaitingDeployment(null, false)).toBe(true);
    expect(isAwaitingDeployment(bot('NotRunning'), false)).toBe(true);
    expect(isAwaitingDeployment(bot('Running'), true)).toBe(true);
    expect(isAwaitingDeployment(bot('Starting'), false)).toBe(false);
    expect(isAwaitingDeployment(bot('Failed'), false)).toBe(false);
  });
});

describe('tokenProblemOf', () => {
  it("a 400 about the token, or about nothing named, is 'Invalid token'", () => {
    expect(tokenProblemOf(refused(400, 'token'))).toBe('invalid');
    expect(tokenProblemOf(refused(400, 'body.token'))).toBe('invalid');
    expect(tokenProblemOf(new ResponseError(new Response(null, { status: 400 })))).toBe('invalid');
  });

  it('a bot already another server’s (409 on the token) is said on the field too', () => {
    expect(tokenProblemOf(refused(409, 'token'))).toBe('taken');
  });

  it('anything else is no fault of the token', () => {
    expect(tokenProblemOf(refused(400, 'body.activity'))).toBeNull();
    expect(tokenProblemOf(refused(409))).toBeNull();
    expect(tokenProblemOf(refused(502))).toBeNull();
    expect(tokenProblemOf(new Error('offline'))).toBeNull();
  });
});

describe('botInviteUrl', () => {
  it("is the main bot's invite for the bot's own application, preset to the server", () => {
    const url = new URL(botInviteUrl('https://discord.com/oauth2/authorize?client_id=1&scope=bot+applications.commands&permissions=8', '99', '42'));
    expect(url.searchParams.get('client_id')).toBe('99');
    expect(url.searchParams.get('scope')).toBe('bot applications.commands');
    expect(url.searchParams.get('permissions')).toBe('8');
    expect(url.searchParams.get('guild_id')).toBe('42');
    expect(url.searchParams.get('disable_guild_select')).toBe('true');
  });
});
