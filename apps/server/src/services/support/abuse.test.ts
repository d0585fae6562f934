import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { ErrorBody, Subject, Ticket, TicketMessage } from '@ticket/contracts';
import { ADMIN_KEY, bearer, createTestApp, engines, resetSandbox, signIn, useSandbox, type TestContext } from '../../test/harness';
import { GUILDS, USERS } from '../../test/demo-world';

/**
 * Each test is one finding of a review of how far a caller can reach beyond their own server, or
 * make the bot act where it should not; each failed before its fix.
 */
const sandbox = useSandbox();

const server = GUILDS.pixelForge;
const base = `/api/support/servers/${server}`;
const PIXEL = { general: '1300000000000000110', openATicket: '1300000000000000105', staffRoom: '1300000000000000107', archive: '1300000000000000108', support: '1300000000000000104' };
const STUDY_HALL = { tickets: '1300000000000000608', homework: '1300000000000000604', ticketsCategory: '1300000000000000607', tutors: '1300000000000000033' };

interface SandboxChannel {
  id: string;
  name: string;
}
const channelsOf = async (guildId: string): Promise<SandboxChannel[]> => {
  const state = (await (await fetch(`${sandbox.url}/_sandbox/state`)).json()) as { guilds: { id: string; channels: SandboxChannel[] }[] };
  return state.guilds.find((g) => g.id === guildId)!.channels;
};
const messagesIn = async (channelId: string): Promise<{ content: string; embeds: { description?: string }[] }[]> =>
  ((await (await fetch(`${sandbox.url}/_sandbox/messages?channelId=${channelId}&includeDeleted=false`)).json()) as { messages: { content: string; embeds: { description?: string }[] }[] }).messages;

describe.each(engines)('a caller stays within their server, on %s', (engine) => {
  let ctx: TestContext;
  let owner: string;
  let subject: Subject;
  beforeEach(async () => {
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, engine);
    owner = (await signIn(ctx, USERS.alice)).token;
    subject = (await as(owner, 'POST', `/api/settings/servers/${server}/subjects`, { name: 'Billing' })).json<Subject>();
  });
  afterEach(async () => {
    await ctx.close();
  });

  const as = (token: string, method: InjectOptions['method'], url: string, payload?: unknown) =>
    ctx.built.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const setting = (path: string, value: unknown) =>
    as(owner, 'PATCH', `/api/settings/servers/${server}/subjects/${subject.subjectId}`, { serverId: server, subjectId: subject.subjectId, path, operation: 'set', value });
  const create = (body: Record<string, unknown>) => as(ADMIN_KEY, 'POST', `${base}/tickets`, { ticketName: 'ticket', subjectId: subject.subjectId, authorId: USERS.eli, ...body });

  it('never makes another server’s channel a ticket’s channel, so closing cannot delete it', async () => {
    const foreign = await create({ ticketId: STUDY_HALL.homework });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json<ErrorBody>()).toMatchObject({ field: 'body.ticketId', message: `Channel ${STUDY_HALL.homework} is not a text channel of this server` });
    // Nor a category, nor an id of no channel at all.
    expect((await create({ ticketId: PIXEL.support })).statusCode).toBe(400);
    expect((await create({ ticketId: '1399999999999999999' })).statusCode).toBe(400);
    // An id that is not a platform id is the ticket's own and names no channel.
    const plain = await create({ ticketId: 'web-ticket-1' });
    expect(plain.statusCode).toBe(201);
    await as(ADMIN_KEY, 'PUT', `${base}/tickets/web-ticket-1`, { closure: { closedBy: USERS.alice, reason: null, force: true } });
    expect((await channelsOf(GUILDS.studyHall)).map((c) => c.id)).toContain(STUDY_HALL.homework);
  });

  it('takes a ticket’s author, assignee and members only from the server’s members', async () => {
    const stranger = await create({ authorId: USERS.chen });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json<ErrorBody>()).toMatchObject({ field: 'body.authorId', message: `User ${USERS.chen} is not a member of this server` });
    const ticket = (await create({})).json<Ticket>();
    const url = `${base}/tickets/${ticket.ticketId}`;
    expect((await as(ADMIN_KEY, 'PUT', url, { authorId: USERS.chen })).json<ErrorBody>().field).toBe('body.authorId');
    expect((await as(ADMIN_KEY, 'PUT', url, { assigneeId: USERS.chen })).json<ErrorBody>().field).toBe('body.assigneeId');
    expect((await as(ADMIN_KEY, 'POST', `${url}/member`, { userId: USERS.chen })).json<ErrorBody>().field).toBe('body.userId');
    const read = (await as(owner, 'GET', url)).json<Ticket>();
    expect(read).toMatchObject({ author: USERS.eli, assignee: null, members: [] });
    // Members of the server are accepted.
    expect((await as(ADMIN_KEY, 'PUT', url, { assigneeId: USERS.dana })).statusCode).toBe(200);
    expect((await as(ADMIN_KEY, 'POST', `${url}/member`, { userId: USERS.bruno })).statusCode).toBe(204);
  });

  it('logs only to a channel of the server the bot may post in, and staff roles are the server’s', async () => {
    const foreign = await setting('logging.channelId', STUDY_HALL.tickets);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json<ErrorBody>().message).toBe('The log channel is not in this server');
    const mute = await setting('logging.channelId', PIXEL.archive);
    expect(mute.json<ErrorBody>().message).toBe('The log channel does not let the bot post there (it needs View Channel, Send Messages and Embed Links)');
    expect((await setting('logging.channelId', PIXEL.staffRoom)).statusCode).toBe(200);
    const role = await setting('staffRoles.value', [STUDY_HALL.tutors]);
    expect(role.json<ErrorBody>().message).toBe(`${STUDY_HALL.tutors} is not a role of this server`);
    const category = await setting('categories.waitingForStaff', [{ id: STUDY_HALL.ticketsCategory, selfCreated: false }]);
    expect(category.json<ErrorBody>().message).toBe(`${STUDY_HALL.ticketsCategory} is not a category of this server`);
    const settings = (await as(owner, 'GET', `/api/settings/servers/${server}/subjects/${subject.subjectId}`)).json<Subject>();
    expect(settings.logging.channelId).toBe(PIXEL.staffRoom);
    expect(settings.staffRoles.value).toEqual([]);
  });

  it('closes through one path: a PUT with a closure drops the pending close, removes the channel and logs', async () => {
    expect((await setting('logging.channelId', PIXEL.staffRoom)).statusCode).toBe(200);
    // A channel of this server, as a bot runtime might register it.
    const channel = (await channelsOf(server)).find((c) => c.name === 'welcome')!;
    const ticket = (await create({ ticketId: channel.id })).json<Ticket>();
    await ctx.built.database.db
      .insertInto('ticket_jobs')
      .values({ id: 'job-1', ticket_id: ticket.ticketId, server_id: server, kind: 'close', run_at: new Date(Date.now() + 60_000).toISOString(), actor_id: USERS.alice, reason: null, created_at: new Date().toISOString() })
      .execute();
    const closed = await as(ADMIN_KEY, 'PUT', `${base}/tickets/${ticket.ticketId}`, { closure: { closedBy: USERS.alice, reason: 'Refunded', force: false } });
    expect(closed.statusCode).toBe(200);
    expect(closed.json<Ticket>().state).toBe('Closed');
    expect(await ctx.built.database.db.selectFrom('ticket_jobs').selectAll().execute()).toEqual([]);
    expect((await channelsOf(server)).map((c) => c.id)).not.toContain(channel.id);
    const log = await messagesIn(PIXEL.staffRoom);
    expect(log.map((m) => m.embeds[0]?.description)).toContain(`Ticket #${ticket.number} (ticket) was closed by <@${USERS.alice}>.\nReason: Refunded`);
    // The delayed close that was pending does not run later on a closed ticket.
    expect(await ctx.built.services.ticketJobs.runDueJobs(new Date(Date.now() + 120_000))).toBe(0);
    const again = await as(ADMIN_KEY, 'PUT', `${base}/tickets/${ticket.ticketId}`, { closure: { closedBy: USERS.alice, reason: null, force: true } });
    expect(again.statusCode).toBe(409);
    expect(again.json<ErrorBody>().message).toBe('The ticket is already closed');
  });

  it('shows a member deleted messages as deleted, without content, and no edit history; staff keep both', async () => {
    const ticket = (await create({})).json<Ticket>();
    const url = `${base}/tickets/${ticket.ticketId}/messages`;
    const said = (await as(ADMIN_KEY, 'POST', url, { message: { content: 'my card is 4242 4242' }, messageType: 'User', authorId: USERS.eli })).json<TicketMessage>();
    const kept = (await as(ADMIN_KEY, 'POST', url, { message: { content: 'first try' }, messageType: 'User', authorId: USERS.eli })).json<TicketMessage>();
    expect((await as(ADMIN_KEY, 'PUT', `${url}/${kept.messageId}`, { message: { content: 'second try' } })).statusCode).toBe(200);
    expect((await as(ADMIN_KEY, 'DELETE', `${url}/${said.messageId}`)).statusCode).toBe(204);

    const eli = (await signIn(ctx, USERS.eli)).token;
    const mine = (await as(eli, 'GET', `/api/support/personal/tickets/${ticket.ticketId}`)).json<Ticket>();
    const [deleted, edited] = mine.messages;
    expect(deleted).toMatchObject({ deleted: true, message: { content: '', embeds: [], attachments: [] }, history: [] });
    expect(edited).toMatchObject({ modified: true, message: { content: 'second try' }, history: [] });
    const staff = (await as(owner, 'GET', `${base}/tickets/${ticket.ticketId}`)).json<Ticket>();
    expect(staff.messages[0]).toMatchObject({ deleted: true, message: { content: 'my card is 4242 4242' } });
    expect(staff.messages[1]!.history.map((h) => h.content)).toEqual(['first try']);
  });
});
