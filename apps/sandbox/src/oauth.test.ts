import { beforeEach, describe, expect, it } from 'vitest';
import {
  BOT_ID,
  CLIENT_ID,
  CLIENT_SECRET,
  GUILDS,
  REDIRECT_URI,
  USERS,
  approve,
  authorizeQuery,
  bearer,
  exchange,
  loginAs,
  makeSandbox,
} from './test-support.ts';
import type { TestSandbox } from './test-support.ts';

let sb: TestSandbox;
beforeEach(async () => {
  sb = await makeSandbox();
});

describe('GET /oauth2/authorize', () => {
  it('renders an accessible consent page listing every demo person with a findable button', async () => {
    const res = await sb.app.inject({ url: `/oauth2/authorize?${authorizeQuery({ scope: 'identify guilds email' })}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const body = res.body;
    expect(body).toContain('<html lang="en">');
    expect(body).toMatch(/<title>Authorize Ticket Bot/);
    expect(body).toContain('Ticket Bot wants to access your account');
    expect(body).toContain('Access your email address');
    for (const id of Object.values(USERS)) expect(body).toContain(`data-user-id="${id}"`);
    expect(body).toContain('>Authorize as Alice Anders</button>');
    // A user without a global name is offered under their username.
    expect(body).toContain('>Authorize as eli</button>');
    expect(body).toContain('Owner of Pixel Forge, Member of Night Owls');
    expect(body).toContain('Admin in Pixel Forge, Owner of Night Owls');
    expect(body).toContain('Manager in Study Hall, Owner of Quiet Garden');
    expect(body).toContain('Staff in Pixel Forge, Staff in Study Hall');
    expect(body).toContain('name="user_id" value="1200000000000000001"');
    expect(body).toContain('<input type="hidden" name="state" value="state-123">');
    expect(body).toMatch(/<button[^>]*value="cancel"[^>]*>Cancel<\/button>/);
    expect(body).not.toMatch(/<(script|link)\b/);
  });

  it('escapes request data echoed into the page', async () => {
    const res = await sb.app.inject({ url: `/oauth2/authorize?${authorizeQuery({ state: '"><script>alert(1)</script>' })}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<script>alert(1)</script>');
    expect(res.body).toContain('&quot;&gt;&lt;script&gt;');
  });

  it.each([
    [{ client_id: '999' }, 'Unknown application'],
    [{ response_type: 'token' }, 'Unsupported response type'],
    [{ redirect_uri: '' }, 'Missing redirect_uri'],
    [{ redirect_uri: 'javascript:alert(1)' }, 'Invalid OAuth2 redirect_uri'],
    [{ scope: 'identify nonsense' }, 'Invalid scope'],
    [{ scope: '' }, 'Invalid scope'],
  ])('refuses %o with a 400 HTML page', async (override, title) => {
    const res = await sb.app.inject({ url: `/oauth2/authorize?${authorizeQuery(override)}` });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain(title);
  });
});

describe('POST /oauth2/authorize', () => {
  it('redirects with a code and the state, and sets the session cookie', async () => {
    const res = await sb.app.inject({
      method: 'POST',
      url: '/oauth2/authorize',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `${authorizeQuery()}&user_id=${USERS.alice}&action=authorize`,
    });
    expect(res.statusCode).toBe(302);
    const location = new URL(String(res.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9]{30}$/);
    expect(location.searchParams.get('state')).toBe('state-123');
    expect(String(res.headers['set-cookie'])).toContain(`sandbox_session=${USERS.alice}`);
  });

  it('Cancel sends the browser back with access_denied', async () => {
    const res = await sb.app.inject({
      method: 'POST',
      url: '/oauth2/authorize',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `${authorizeQuery()}&action=cancel`,
    });
    expect(res.statusCode).toBe(302);
    const location = new URL(String(res.headers.location));
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('error_description')).toBeTruthy();
    expect(location.searchParams.get('state')).toBe('state-123');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('refuses an unknown user', async () => {
    const res = await sb.app.inject({
      method: 'POST',
      url: '/oauth2/authorize',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `${authorizeQuery()}&user_id=1999999999999999999&action=authorize`,
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('prompt=none', () => {
  it('redirects at once for a user who already approved these scopes', async () => {
    await approve(sb.app, USERS.bruno, 'identify guilds email');
    const res = await sb.app.inject({
      url: `/oauth2/authorize?${authorizeQuery({ prompt: 'none', scope: 'identify guilds' })}`,
      headers: { cookie: `sandbox_session=${USERS.bruno}` },
    });
    expect(res.statusCode).toBe(302);
    const location = new URL(String(res.headers.location));
    const code = location.searchParams.get('code');
    expect(code).toBeTruthy();
    const token = await exchange(sb.app, { grant_type: 'authorization_code', code: code!, redirect_uri: REDIRECT_URI });
    expect(token.json().scope).toBe('identify guilds');
  });

  it('shows the consent page when more scopes are asked than were approved, or nobody is signed in', async () => {
    await approve(sb.app, USERS.bruno, 'identify');
    const wider = await sb.app.inject({
      url: `/oauth2/authorize?${authorizeQuery({ prompt: 'none' })}`,
      headers: { cookie: `sandbox_session=${USERS.bruno}` },
    });
    expect(wider.statusCode).toBe(200);
    expect(wider.body).toContain('Signed in');
    const anonymous = await sb.app.inject({ url: `/oauth2/authorize?${authorizeQuery({ prompt: 'none' })}` });
    expect(anonymous.statusCode).toBe(200);
  });

  it('shows the consent page without prompt=none even after approval', async () => {
    await approve(sb.app, USERS.bruno);
    const res = await sb.app.inject({ url: `/oauth2/authorize?${authorizeQuery()}`, headers: { cookie: `sandbox_session=${USERS.bruno}` } });
    expect(res.statusCode).toBe(200);
  });
});

describe('POST /api/v10/oauth2/token', () => {
  it('exchanges a code for Discord-shaped tokens that work on /users/@me', async () => {
    const code = await approve(sb.app, USERS.alice, 'identify guilds email');
    const res = await exchange(sb.app, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9]{30}$/),
      token_type: 'Bearer',
      expires_in: 604800,
      refresh_token: expect.stringMatching(/^[A-Za-z0-9]{30}$/),
      scope: 'identify guilds email',
    });
    const me = await sb.app.inject({ url: '/api/v10/users/@me', headers: bearer(body.access_token) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: USERS.alice, username: 'alice', global_name: 'Alice Anders', email: 'alice@example.com', verified: true });
  });

  it('accepts client credentials through HTTP Basic', async () => {
    const code = await approve(sb.app, USERS.alice);
    const res = await sb.app.inject({
      method: 'POST',
      url: '/api/v10/oauth2/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`,
      },
      payload: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI }).toString(),
    });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a code used twice with invalid_grant', async () => {
    const code = await approve(sb.app, USERS.alice);
    expect((await exchange(sb.app, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI })).statusCode).toBe(200);
    const again = await exchange(sb.app, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: 'invalid_grant', error_description: 'Invalid "code" in request.' });
  });

  it('refuses a code after ten minutes', async () => {
    const code = await approve(sb.app, USERS.alice);
    sb.clock.advance(10 * 60 * 1000 + 1);
    const res = await exchange(sb.app, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_grant');
  });

  it('refuses a redirect_uri other than the code was issued for', async () => {
    const code = await approve(sb.app, USERS.alice);
    const res = await exchange(sb.app, { grant_type: 'authorization_code', code, redirect_uri: 'http://localhost:5173/other' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'invalid_grant', error_description: 'Invalid "redirect_uri" in request.' });
  });

  it('answers invalid_client with 401 for a wrong or missing secret', async () => {
    const code = await approve(sb.app, USERS.alice);
    const wrong = await exchange(sb.app, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_secret: 'nope' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'invalid_client' });
    const missing = await sb.app.inject({
      method: 'POST',
      url: '/api/v10/oauth2/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=authorization_code&code=${code}&client_id=${CLIENT_ID}`,
    });
    expect(missing.statusCode).toBe(401);
  });

  it('answers unsupported_grant_type for other grants', async () => {
    const res = await exchange(sb.app, { grant_type: 'password' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'unsupported_grant_type' });
  });

  it('rotates tokens on refresh: the old access and refresh tokens stop working', async () => {
    const first = await loginAs(sb.app, USERS.dana);
    const res = await exchange(sb.app, { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(res.statusCode).toBe(200);
    const second = res.json();
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.scope).toBe('identify guilds');

    const oldAccess = await sb.app.inject({ url: '/api/v10/users/@me', headers: bearer(first.access_token) });
    expect(oldAccess.statusCode).toBe(401);
    expect(oldAccess.json()).toEqual({ message: '401: Unauthorized', code: 0 });
    const newAccess = await sb.app.inject({ url: '/api/v10/users/@me', headers: bearer(second.access_token) });
    expect(newAccess.statusCode).toBe(200);

    const reuse = await exchange(sb.app, { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json()).toEqual({ error: 'invalid_grant', error_description: 'Invalid "refresh_token" in request.' });
  });

  it('lets access tokens expire after expires_in seconds', async () => {
    const { access_token } = await loginAs(sb.app, USERS.dana);
    sb.clock.advance(604_800 * 1000);
    const res = await sb.app.inject({ url: '/api/v10/users/@me', headers: bearer(access_token) });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/v10/oauth2/token/revoke', () => {
  it('kills both tokens of the grant and forgets the approval', async () => {
    const tokens = await loginAs(sb.app, USERS.eli);
    const res = await sb.app.inject({
      method: 'POST',
      url: '/api/v10/oauth2/token/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, token: tokens.access_token }).toString(),
    });
    expect(res.statusCode).toBe(200);
    expect((await sb.app.inject({ url: '/api/v10/users/@me', headers: bearer(tokens.access_token) })).statusCode).toBe(401);
    expect((await exchange(sb.app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).statusCode).toBe(400);
    const again = await sb.app.inject({ url: `/oauth2/authorize?${authorizeQuery({ prompt: 'none' })}`, headers: { cookie: `sandbox_session=${USERS.eli}` } });
    expect(again.statusCode).toBe(200);
  });

  it('requires client credentials', async () => {
    const res = await sb.app.inject({
      method: 'POST',
      url: '/api/v10/oauth2/token/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'token=whatever',
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('bot install flow (scope=bot)', () => {
  it('offers only guilds the person manages and the bot has not joined, and adds the bot', async () => {
    const query = new URLSearchParams({
      client_id: CLIENT_ID,
      scope: 'bot applications.commands',
      permissions: '8',
      guild_id: GUILDS.quietGarden,
      redirect_uri: REDIRECT_URI,
      state: 'install-1',
    });
    const pageRes = await sb.app.inject({ url: `/oauth2/authorize?${query}` });
    expect(pageRes.statusCode).toBe(200);
    expect(pageRes.body).toContain(`<option value="${GUILDS.quietGarden}" selected>Quiet Garden</option>`);
    // Alice is only a plain member of Quiet Garden and already has the bot everywhere she manages.
    expect(pageRes.body).toMatch(new RegExp(`data-user-id="${USERS.alice}" disabled`));

    const before = await sb.app.inject({ url: `/api/v10/guilds/${GUILDS.quietGarden}`, headers: { authorization: 'Bot sandbox-bot-token' } });
    expect(before.statusCode).toBe(404);

    const res = await sb.app.inject({
      method: 'POST',
      url: '/oauth2/authorize',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `${query}&user_id=${USERS.chen}&action=authorize`,
    });
    expect(res.statusCode).toBe(302);
    const location = new URL(String(res.headers.location));
    expect(location.searchParams.get('guild_id')).toBe(GUILDS.quietGarden);
    expect(location.searchParams.get('permissions')).toBe('8');
    expect(location.searchParams.get('state')).toBe('install-1');
    expect(location.searchParams.get('code')).toBeNull();

    const after = await sb.app.inject({ url: `/api/v10/guilds/${GUILDS.quietGarden}/members/${BOT_ID}`, headers: { authorization: 'Bot sandbox-bot-token' } });
    expect(after.statusCode).toBe(200);
    const roles = await sb.app.inject({ url: `/api/v10/guilds/${GUILDS.quietGarden}/roles`, headers: { authorization: 'Bot sandbox-bot-token' } });
    expect(roles.json()).toContainEqual(expect.objectContaining({ managed: true, permissions: '8', tags: { bot_id: BOT_ID } }));
  });

  it('refuses to install for someone without Manage Server', async () => {
    const res = await sb.app.inject({
      method: 'POST',
      url: '/oauth2/authorize',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ client_id: CLIENT_ID, scope: 'bot', guild_id: GUILDS.quietGarden, user_id: USERS.eli, action: 'authorize' }).toString(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Manage Server');
  });
});

describe('GET /api/v10/oauth2/@me', () => {
  it('describes the current authorization', async () => {
    const { access_token } = await loginAs(sb.app, USERS.alice);
    const res = await sb.app.inject({ url: '/api/v10/oauth2/@me', headers: bearer(access_token) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ application: { id: CLIENT_ID }, scopes: ['identify', 'guilds'], user: { id: USERS.alice } });
  });
});
