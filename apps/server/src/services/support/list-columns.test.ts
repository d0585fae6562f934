import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { PagedResult, Subject, Ticket, TicketListItem, TicketMessage } from '@ticket/contracts';
import { migrateToLatest } from '../../db/migrate';
import { ADMIN_KEY, bearer, createTestApp, engines, freshDatabase, resetSandbox, signIn, useSandbox, type TestContext } from '../../test/harness';
import { GUILDS, USERS } from '../../test/demo-world';
import { legacyMessage, legacyTicket } from '../../test/legacy-rows';

const sandbox = useSandbox();
const server = GUILDS.pixelForge;
const base = `/api/support/servers/${server}`;

describe.each(engines)("A list's last message and attendees, kept on the ticket on %s", (engine) => {
  let ctx: TestContext;
  let owner: string;
  let subject: Subject;
  beforeEach(async () => {
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, engine);
    owner = (await signIn(ctx, USERS.alice)).token;
    subject = (await ctx.built.app.inject({ method: 'POST', url: `/api/settings/servers/${server}/subjects`, headers: bearer(owner), payload: { name: 'Billing' } })).json<Subject>();
  });
  afterEach(async () => {
    await ctx.close();
  });

  const as = async <T>(method: InjectOptions['method'], url: string, payload?: unknown) => {
    const response = await ctx.built.app.inject({ method, url, headers: bearer(ADMIN_KEY), ...(payload === undefined ? {} : { payload: payload as object }) });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return (response.statusCode === 204 ? undefined : response.json()) as T;
  };
  const say = (ticketId: string, content: string, messageType: 'User' | 'Staff', authorId: string) =>
    as<TicketMessage>('POST', `${base}/tickets/${ticketId}/messages`, { message: { content }, messageType, authorId });
  const listed = async () => (await as<PagedResult<TicketListItem>>('GET', `${base}/tickets?Page=1&Amount=25`)).elements[0]!;

  it('follows new, edited and deleted messages, and lists staff in the order they first wrote', async () => {
    const ticket = await as<Ticket>('POST', `${base}/tickets`, { ticketName: 'refund', subjectId: subject.subjectId, authorId: USERS.eli });
    expect((await listed()).lastMessage).toBeNull();
    const question = await say(ticket.ticketId, 'Where is my refund?', 'User', USERS.eli);
    await say(ticket.ticketId, 'Checking', 'Staff', USERS.dana);
    await say(ticket.ticketId, 'Found it', 'Staff', USERS.alice);
    const last = await say(ticket.ticketId, `${'x'.repeat(250)}`, 'Staff', USERS.dana);
    let item = await listed();
    expect(item.attendees).toEqual([USERS.dana, USERS.alice]);
    expect(item.lastMessage).toEqual({ messageId: last.messageId, authorId: USERS.dana, createdAt: last.createdAt, content: 'x'.repeat(200) });

    await as('PUT', `${base}/tickets/${ticket.ticketId}/messages/${last.messageId}`, { message: { content: 'Refund sent' } });
    expect((await listed()).lastMessage?.content).toBe('Refund sent');
    // Editing an earlier message leaves the last one shown.
    await as('PUT', `${base}/tickets/${ticket.ticketId}/messages/${question.messageId}`, { message: { content: 'Where is my refund, please?' } });
    expect((await listed()).lastMessage?.content).toBe('Refund sent');

    await as('DELETE', `${base}/tickets/${ticket.ticketId}/messages/${last.messageId}`);
    item = await listed();
    expect(item.lastMessage).toMatchObject({ authorId: USERS.alice, content: 'Found it' });
    expect(item.attendees).toEqual([USERS.dana, USERS.alice]);
  });

  it("pages a member's own tickets across servers by their latest activity", async () => {
    const eli = (await signIn(ctx, USERS.eli)).token;
    const open = (name: string) => as<Ticket>('POST', `${base}/tickets`, { ticketName: name, subjectId: subject.subjectId, authorId: USERS.eli });
    const first = await open('first');
    const second = await open('second');
    const mine = async () =>
      (await ctx.built.app.inject({ method: 'GET', url: '/api/support/personal/tickets?Page=1&Amount=25', headers: bearer(eli) })).json<PagedResult<TicketListItem>>();
    expect((await mine()).elements.map((t) => t.name)).toEqual(['second', 'first']);
    await say(first.ticketId, 'Any news?', 'User', USERS.eli);
    const page = await mine();
    expect(page.elements.map((t) => t.name)).toEqual(['first', 'second']);
    expect(page.elements[0]!.lastMessage?.content).toBe('Any news?');
    await as('PUT', `${base}/tickets/${second.ticketId}`, { closure: { closedBy: USERS.alice, reason: null, force: true } });
    expect((await mine()).elements.map((t) => t.name)).toEqual(['second', 'first']);
    const onePerPage = await ctx.built.app.inject({ method: 'GET', url: '/api/support/personal/tickets?Page=2&Amount=1', headers: bearer(eli) });
    expect(onePerPage.json<PagedResult<TicketListItem>>()).toMatchObject({ page: 2, maxPage: 2, elements: [{ name: 'first' }] });
  });
});

describe.each(engines)('Upgrading to list columns (migration 0024) on %s', (engine) => {
  it("fills each ticket's last message and attendees from its messages", async () => {
    const database = await freshDatabase(engine, '0023-server-stats');
    const { db } = database;
    try {
      const at = (minute: number) => `2026-03-01T10:0${minute}:00.000Z`;
      await db
        .insertInto('tickets')
        .values([
          { ...legacyTicket('t1', 1, { created_at: at(0), last_message_id: 'm3' }), answered_at: null },
          { ...legacyTicket('t2', 2, { created_at: at(0) }), answered_at: null },
        ])
        .execute();
      const message = (id: string, authorId: string, type: string, minute: number, content: string) =>
        legacyMessage(id, 't1', { author_id: authorId, message_type: type, created_at: at(minute), content });
      await db
        .insertInto('ticket_messages')
        .values([
          message('m1', USERS.alice, 'Staff', 1, 'Hello'),
          message('m2', USERS.dana, 'Staff', 2, 'Hi'),
          message('m3', USERS.alice, 'Staff', 3, `Ünïcode ${'y'.repeat(300)}`),
        ])
        .execute();

      await migrateToLatest(db, engine, '0024-ticket-list-columns');

      const rows = await db.selectFrom('tickets').select(['id', 'last_message_author', 'last_message_at', 'last_message_preview', 'attendees']).orderBy('id').execute();
      expect(rows).toEqual([
        { id: 't1', last_message_author: USERS.alice, last_message_at: at(3), last_message_preview: `Ünïcode ${'y'.repeat(300)}`.slice(0, 200), attendees: `${USERS.alice},${USERS.dana}` },
        { id: 't2', last_message_author: null, last_message_at: null, last_message_preview: null, attendees: null },
      ]);
      // Authors become members of their tickets, and memberships carry the ticket's activity.
      const members = await db.selectFrom('ticket_members').select(['ticket_id', 'user_id', 'last_activity_at']).orderBy('ticket_id').execute();
      expect(members).toEqual([
        { ticket_id: 't1', user_id: USERS.eli, last_activity_at: at(0) },
        { ticket_id: 't2', user_id: USERS.eli, last_activity_at: at(0) },
      ]);
    } finally {
      await database.destroy();
    }
  });
});
