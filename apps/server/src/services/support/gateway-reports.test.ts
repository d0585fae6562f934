import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { BearerUser, ErrorBody, Subject, Ticket, TicketChannels, TicketMessage } from '@ticket/contracts';
import { ADMIN_KEY, bearer, createTestApp, engines, resetSandbox, signIn, useSandbox, type TestContext } from '../../test/harness';
import { GUILDS, USERS } from '../../test/demo-world';

/**
 * What the bot runtime reports from the gateway: at least once, by the platform's ids. Each report
 * sent twice is done once.
 */
const sandbox = useSandbox();

const server = GUILDS.pixelForge;
const base = `/api/support/servers/${server}`;
const WELCOME = '1300000000000000102';
const ADMIN_ROLE = '1300000000000000011';

describe.each(engines)('reports of the bot runtime, on %s', (engine) => {
  let ctx: TestContext;
  let owner: string;
  let subject: Subject;
  let ticket: Ticket;
  beforeEach(async () => {
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, engine);
    owner = (await signIn(ctx, USERS.alice)).token;
    subject = (await as(owner, 'POST', `/api/settings/servers/${server}/subjects`, { name: 'Billing' })).json<Subject>();
    const opened = await as(ADMIN_KEY, 'POST', `${base}/tickets`, { ticketName: 'refund', subjectId: subject.subjectId, authorId: USERS.eli, ticketId: WELCOME });
    expect(opened.statusCode, opened.body).toBe(201);
    ticket = opened.json<Ticket>();
  });
  afterEach(async () => {
    await ctx.close();
  });

  const as = (token: string, method: InjectOptions['method'], url: string, payload?: unknown) =>
    ctx.built.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const messages = `${base}/tickets/${WELCOME}/messages`;
  const report = (body: Record<string, unknown>) => as(ADMIN_KEY, 'POST', `${base}/events`, body);
  const read = async () => (await as(owner, 'GET', `${base}/tickets/${ticket.ticketId}`)).json<Ticket>();

  it('records a message reported twice once, and takes edits, reactions and deletions by the platform’s message id', async () => {
    const body = { message: { content: 'I was charged twice' }, messageType: 'User', authorId: USERS.eli, externalId: '1500000000000000001' };
    const first = await as(ADMIN_KEY, 'POST', messages, body);
    const again = await as(ADMIN_KEY, 'POST', messages, body);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json<TicketMessage>().messageId).toBe(first.json<TicketMessage>().messageId);

    const edit = { message: { content: 'I was charged three times' } };
    expect((await as(ADMIN_KEY, 'PUT', `${messages}/1500000000000000001`, edit)).statusCode).toBe(200);
    expect((await as(ADMIN_KEY, 'PUT', `${messages}/1500000000000000001`, edit)).statusCode).toBe(200);
    const reaction = { reactorId: USERS.dana, emoji: { id: null, name: '👍' } };
    expect((await as(ADMIN_KEY, 'POST', `${messages}/1500000000000000001/reactions`, reaction)).statusCode).toBe(200);
    expect((await as(ADMIN_KEY, 'POST', `${messages}/1500000000000000001/reactions`, reaction)).statusCode).toBe(200);

    let [message] = (await read()).messages;
    expect(message).toMatchObject({ externalId: '1500000000000000001', message: { content: 'I was charged three times' }, reactions: [{ count: 1, emoji: { name: '👍' } }] });
    expect(message!.history.map((h) => h.content)).toEqual(['I was charged twice']);

    expect((await as(ADMIN_KEY, 'DELETE', `${messages}/1500000000000000001`)).statusCode).toBe(204);
    expect((await as(ADMIN_KEY, 'DELETE', `${messages}/1500000000000000001`)).statusCode).toBe(204);
    [message] = (await read()).messages;
    expect(message!.deleted).toBe(true);
    expect((await as(ADMIN_KEY, 'DELETE', `${messages}/1500000000000000999`)).statusCode).toBe(404);
  });

  it('lists the channels of open tickets for the runtime to watch', async () => {
    const listed = (await as(ADMIN_KEY, 'GET', `${base}/ticket-channels`)).json<TicketChannels>();
    expect(listed.channels).toEqual([{ channelId: WELCOME, ticketId: ticket.ticketId, subjectId: subject.subjectId }]);
    expect((await as(owner, 'GET', `${base}/ticket-channels`)).statusCode).toBe(403);
  });

  it('closes a ticket whose channel was deleted by hand, as the one who deleted it, once', async () => {
    const event = { eventId: 'channel-delete:1', type: 'channelDeleted', channelId: WELCOME, deletedBy: USERS.bruno };
    expect((await report(event)).statusCode).toBe(204);
    expect((await read()).closed).toMatchObject({ closedBy: USERS.bruno, reason: 'The ticket channel was deleted', force: true });
    // Reopened by staff: the same report arriving late changes nothing.
    expect((await as(owner, 'PUT', `${base}/tickets/${ticket.ticketId}`, { closure: null })).statusCode).toBe(200);
    expect((await report(event)).statusCode).toBe(204);
    expect((await read()).state).toBe('PendingStaff');
    expect((await as(ADMIN_KEY, 'GET', `${base}/ticket-channels`)).json<TicketChannels>().channels).toHaveLength(1);
  });

  it('forgets reported events after two weeks, keeping the table small', async () => {
    expect((await report({ eventId: 'channels:1', type: 'channelsChanged' })).statusCode).toBe(204);
    expect(await ctx.built.services.events.prune(new Date(Date.now() + 13 * 24 * 3600_000))).toBe(0);
    expect(await ctx.built.services.events.prune(new Date(Date.now() + 15 * 24 * 3600_000))).toBe(1);
  });

  it('closes the tickets of a member who left where the subject closes on leave', async () => {
    const patch = { serverId: server, subjectId: subject.subjectId, path: 'automation.closeOnLeave', operation: 'set', value: true };
    expect((await as(owner, 'PATCH', `/api/settings/servers/${server}/subjects/${subject.subjectId}`, patch)).statusCode).toBe(200);
    expect((await report({ eventId: 'leave:1', type: 'memberLeft', userId: USERS.dana })).statusCode).toBe(204);
    expect((await read()).state).not.toBe('Closed');
    expect((await report({ eventId: 'leave:2', type: 'memberLeft', userId: USERS.eli })).statusCode).toBe(204);
    expect((await read()).closed).toMatchObject({ reason: 'The ticket owner left the server', force: true });
  });

  it('applies a role change to access checks at once', async () => {
    const bruno = (await signIn(ctx, USERS.bruno)).token;
    const apiKeyPage = () => as(bruno, 'GET', `/api/authentication/api/${server}`);
    expect((await apiKeyPage()).statusCode).toBe(404);
    await fetch(`${sandbox.url}/_sandbox/guilds/${server}/members/${USERS.bruno}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ roles: [] }) });
    // Within the role's age bound, nothing has said it changed yet.
    expect((await apiKeyPage()).statusCode).toBe(404);
    expect((await report({ eventId: 'member-update:1', type: 'memberUpdated', userId: USERS.bruno })).statusCode).toBe(204);
    expect((await apiKeyPage()).statusCode).toBe(403);
    await fetch(`${sandbox.url}/_sandbox/guilds/${server}/members/${USERS.bruno}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ roles: [ADMIN_ROLE] }) });
    expect((await report({ eventId: 'member-update:2', type: 'memberUpdated', userId: USERS.bruno })).statusCode).toBe(204);
    expect((await apiKeyPage()).statusCode).toBe(404);
    // A change to the server's roles makes every role there due to be read again.
    expect((await report({ eventId: 'roles:1', type: 'rolesChanged' })).statusCode).toBe(204);
    const stale = await ctx.built.database.db.selectFrom('memberships').select('updated_at').where('server_id', '=', server).execute();
    expect(stale.every((m) => Date.parse(m.updated_at) === 0)).toBe(true);
    expect((await apiKeyPage()).statusCode).toBe(404);
  });

  it('marks the server inactive when the bot is removed, and active again when it is back', async () => {
    const active = async () => (await as(owner, 'POST', '/api/authentication/user/refresh', {})).json<BearerUser>().servers.some((s) => s.serverId === server);
    expect((await report({ eventId: 'removed:1', type: 'botRemoved' })).statusCode).toBe(204);
    const row = await ctx.built.database.db.selectFrom('servers').select('active').where('id', '=', server).executeTakeFirstOrThrow();
    expect(row.active).toBe(0);
    expect((await report({ eventId: 'added:1', type: 'botAdded' })).statusCode).toBe(204);
    expect(await active()).toBe(true);
  });

  it('answers an interaction the runtime received over the gateway as the signed endpoint would', async () => {
    const pong = await as(ADMIN_KEY, 'POST', '/api/support/interactions', { type: 1, id: '1600000000000000001', application_id: '1100000000000000001' });
    expect(pong.statusCode).toBe(200);
    expect(pong.json()).toEqual({ type: 1 });
    const member = await as(owner, 'POST', '/api/support/interactions', { type: 1 });
    expect(member.statusCode).toBe(403);
    expect(member.json<ErrorBody>().message).toBe('Only platform operators may call this');
  });
});
