import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import type { ErrorBody, PagedResult, Reaction, Subject, Ticket, TicketListItem, TicketMessage } from '@ticket/contracts';
import { ADMIN_KEY, bearer, createTestApp, engines, resetSandbox, signIn, useSandbox, type TestContext } from '../../test/harness';
import { GUILDS, USERS } from '../../test/demo-world';
import { pageTickets } from './list-repository';

const sandbox = useSandbox();

const server = GUILDS.pixelForge;
const base = `/api/support/servers/${server}`;

describe.each(engines)('Ticket API on %s', (engine) => {
  let ctx: TestContext;
  let owner: string;
  let member: string;
  let billing: Subject;
  beforeEach(async () => {
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, engine);
    owner = (await signIn(ctx, USERS.alice)).token;
    member = (await signIn(ctx, USERS.eli)).token;
    billing = (await ctx.built.app.inject({ method: 'POST', url: `/api/settings/servers/${server}/subjects`, headers: bearer(owner), payload: { name: 'Billing' } })).json<Subject>();
  });
  afterEach(async () => {
    await ctx.close();
  });

  const as = (token: string, method: InjectOptions['method'], url: string, payload?: unknown) =>
    ctx.built.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const open = async (name: string, authorId: string = USERS.eli, answers: { questionId: string; question: string; answer: string }[] = []) => {
    const response = await as(ADMIN_KEY, 'POST', `${base}/tickets`, { ticketName: name, subjectId: billing.subjectId, authorId, templateAnswers: answers });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Ticket>();
  };
  const say = async (ticketId: string, content: string, messageType: 'User' | 'Staff' | 'System', authorId: string) => {
    const response = await as(ADMIN_KEY, 'POST', `${base}/tickets/${ticketId}/messages`, { message: { content }, messageType, authorId });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<TicketMessage>();
  };

  it('opens tickets with running numbers, waiting for staff, with the author as member', async () => {
    const first = await open('ticket-1', USERS.eli, [{ questionId: 'q1', question: 'Order number?', answer: 'A-42' }]);
    const second = await open('ticket-2');
    expect([first.number, second.number]).toEqual([1, 2]);
    expect(first).toMatchObject({ state: 'PendingStaff', author: USERS.eli, subject: { subjectId: billing.subjectId, name: 'Billing' }, server: { serverId: server, name: 'Pixel Forge' }, closed: null, assignee: null });
    expect(first.templateAnswers).toEqual([{ questionId: 'q1', question: 'Order number?', answer: 'A-42' }]);
    expect(first.users.map((u) => u.id)).toContain(USERS.eli);
    const missing = await as(ADMIN_KEY, 'POST', `${base}/tickets`, { ticketName: 'x', subjectId: 'nope', authorId: USERS.eli });
    expect(missing.statusCode).toBe(404);
  });

  it('follows who spoke last: user → waiting for staff, staff → waiting for user; system changes nothing', async () => {
    const ticket = await open('ticket-1');
    await say(ticket.ticketId, 'Hello, I was charged twice', 'User', USERS.eli);
    expect((await as(owner, 'GET', `${base}/tickets/${ticket.ticketId}`)).json<Ticket>().state).toBe('PendingStaff');
    await say(ticket.ticketId, 'Looking into it', 'Staff', USERS.alice);
    expect((await as(owner, 'GET', `${base}/tickets/${ticket.ticketId}`)).json<Ticket>().state).toBe('PendingUser');
    await say(ticket.ticketId, 'Ticket claimed', 'System', '1100000000000000001');
    const read = (await as(owner, 'GET', `${base}/tickets/${ticket.ticketId}`)).json<Ticket>();
    expect(read.state).toBe('PendingUser');
    expect(read.messages.map((m) => m.message.content)).toEqual(['Hello, I was charged twice', 'Looking into it', 'Ticket claimed']);
  });

  it('claims, closes with a reason and reopens', async () => {
    const ticket = await open('ticket-1');
    const claimed = (await as(owner, 'PUT', `${base}/tickets/${ticket.ticketId}`, { assigneeId: USERS.alice })).json<Ticket>();
    expect(claimed.assignee).toBe(USERS.alice);
    const closed = (await as(owner, 'PUT', `${base}/tickets/${ticket.ticketId}`, { closure: { closedBy: USERS.alice, reason: 'Refunded', force: false } })).json<Ticket>();
    expect(closed.state).toBe('Closed');
    expect(closed.closed).toMatchObject({ closedBy: USERS.alice, reason: 'Refunded', force: false });
    expect((await as(owner, 'PUT', `${base}/tickets/${ticket.ticketId}`, { closure: { closedBy: USERS.alice, reason: null, force: true } })).statusCode).toBe(409);
    const reopened = (await as(owner, 'PUT', `${base}/tickets/${ticket.ticketId}`, { closure: null })).json<Ticket>();
    expect(reopened).toMatchObject({ state: 'PendingStaff', closed: null });
    expect((await as(owner, 'PUT', `${base}/tickets/${ticket.ticketId}`, {})).json<ErrorBody>().message).toMatch(/Nothing to update/);
  });

  it('keeps edit history and deleted flags of messages, and counts reactions', async () => {
    const ticket = await open('ticket-1');
    const message = await say(ticket.ticketId, 'first words', 'User', USERS.eli);
    const edited = await as(owner, 'PUT', `${base}/tickets/${ticket.ticketId}/messages/${message.messageId}`, { message: { content: 'better words' } });
    expect(edited.json<TicketMessage>()).toMatchObject({ modified: true, message: { content: 'better words' }, history: [{ content: 'first words' }] });
    const smile = { id: null, name: '😀' };
    await as(owner, 'POST', `${base}/tickets/${ticket.ticketId}/messages/${message.messageId}/reactions`, { reactorId: USERS.alice, emoji: smile });
    const twice = await as(owner, 'POST', `${base}/tickets/${ticket.ticketId}/messages/${message.messageId}/reactions`, { reactorId: USERS.eli, emoji: smile });
    expect(twice.json<Reaction[]>()).toEqual([{ emoji: smile, count: 2 }]);
    const fewer = await as(owner, 'DELETE', `${base}/tickets/${ticket.ticketId}/messages/${message.messageId}/reactions`, { reactorId: USERS.eli, emoji: smile });
    expect(fewer.json<Reaction[]>()).toEqual([{ emoji: smile, count: 1 }]);
    const none = await as(owner, 'DELETE', `${base}/tickets/${ticket.ticketId}/messages/${message.messageId}/reactions`, { deleteAll: true });
    expect(none.json<Reaction[]>()).toEqual([]);
    expect((await as(owner, 'DELETE', `${base}/tickets/${ticket.ticketId}/messages/${message.messageId}`)).statusCode).toBe(204);
    const read = (await as(owner, 'GET', `${base}/tickets/${ticket.ticketId}`)).json<Ticket>();
    expect(read.messages[0]).toMatchObject({ deleted: true, message: { content: 'better words' } });
    expect(read.messages[0]!.deletedAt).toBeTruthy();
  });

  it('lists with filters and paging, newest activity first, with last message and attendees', async () => {
    const a = await open('ticket-a');
    const b = await open('ticket-b', USERS.dana);
    await say(a.ticketId, 'hello there', 'Staff', USERS.alice);
    const page = (await as(owner, 'GET', `${base}/tickets?Amount=1&Page=1`)).json<PagedResult<TicketListItem>>();
    expect(page).toMatchObject({ page: 1, maxPage: 2 });
    expect(page.elements[0]).toMatchObject({ ticketId: a.ticketId, lastMessage: { content: 'hello there' }, attendees: [USERS.alice] });
    const second = (await as(owner, 'GET', `${base}/tickets?Amount=1&Page=2`)).json<PagedResult<TicketListItem>>();
    expect(second).toMatchObject({ page: 2, maxPage: 2, elements: [{ ticketId: b.ticketId }] });
    // Past the last page the list is empty, and still counts every ticket.
    expect((await as(owner, 'GET', `${base}/tickets?Amount=1&Page=3`)).json()).toEqual({ page: 3, maxPage: 2, elements: [] });
    const byAuthor = (await as(owner, 'GET', `${base}/tickets?Author=${USERS.dana}`)).json<PagedResult<TicketListItem>>();
    expect(byAuthor.elements.map((t) => t.ticketId)).toEqual([b.ticketId]);
    await as(owner, 'PUT', `${base}/tickets/${b.ticketId}`, { closure: { closedBy: USERS.alice, reason: null, force: true } });
    const active = (await as(owner, 'GET', `${base}/tickets?Active=true`)).json<PagedResult<TicketListItem>>();
    expect(active.elements.map((t) => t.ticketId)).toEqual([a.ticketId]);
    const closedBy = (await as(owner, 'GET', `${base}/tickets?ClosedBy=${USERS.alice}`)).json<PagedResult<TicketListItem>>();
    expect(closedBy.elements.map((t) => t.ticketId)).toEqual([b.ticketId]);
    expect((await as(owner, 'GET', `${base}/tickets?Amount=0`)).json<ErrorBody>().field).toBe('querystring.Amount');
    // A first page larger than those planned once (its size bound, not written in).
    const large = (await as(owner, 'GET', `${base}/tickets?Amount=150`)).json<PagedResult<TicketListItem>>();
    expect(large).toMatchObject({ page: 1, maxPage: 1 });
    expect(large.elements.map((t) => t.ticketId)).toEqual([b.ticketId, a.ticketId]);
  });

  it.runIf(engine === 'postgres')("plans a list's first page once per connection, and reuses that plan", async () => {
    const newest = await open('ticket-a');
    // Enough tickets that a general plan priced as reading a tenth of them would lose to planning each call.
    const { db } = ctx.built.database;
    await sql`insert into tickets (id, server_id, subject_id, number, name, author_id, state, template_answers, created_at, last_activity_at)
      select 'seeded-' || n, ${server}, ${billing.subjectId}, n + 1, 'seeded', ${USERS.eli}, 'PendingStaff', '[]', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
      from generate_series(1, 3000) as n`.execute(db);
    await sql`analyze tickets`.execute(db);
    const plans = await db.connection().execute(async (connection) => {
      for (let i = 0; i < 7; i++) {
        const { rows } = await pageTickets(connection, 'postgres', { serverId: server }, { Page: 1, Amount: 25 }, null);
        expect({ first: rows[0]?.id, length: rows.length }).toEqual({ first: newest.ticketId, length: 25 });
      }
      const prepared = sql<{ generic_plans: string; custom_plans: string }>`select generic_plans, custom_plans from pg_prepared_statements where statement like '%from "tickets" left join "servers"%'`;
      return (await prepared.execute(connection)).rows.map((r) => ({ generic: Number(r.generic_plans), custom: Number(r.custom_plans) }));
    });
    // PostgreSQL plans for each call's values five times, then keeps its general plan.
    expect(plans).toEqual([{ generic: 2, custom: 5 }]);
  });

  it.runIf(engine === 'postgres')('prepares a search once per connection and number of words, whatever the words, and plans it once', async () => {
    const refund = await open('refund please');
    const invoice = await open('invoice missing');
    const { db } = ctx.built.database;
    const prepared = await db.connection().execute(async (connection) => {
      // Three times over: PostgreSQL plans a prepared statement for each call's values five times before it weighs its general plan.
      for (let round = 0; round < 3; round++) {
        for (const [words, expected] of [
          [['refund'], [refund.ticketId]],
          [['invoice'], [invoice.ticketId]],
          [['missing', 'invoice'], [invoice.ticketId]],
          [['nothing'], []],
          [['please', 'refund'], [refund.ticketId]],
          [['missing', 'refund'], []],
        ] as const) {
          const { rows, total } = await pageTickets(connection, 'postgres', { serverId: server }, { Page: 1, Amount: 25 }, [...words]);
          expect({ words, ids: rows.map((r) => r.id), total }).toEqual({ words, ids: expected, total: expected.length });
        }
      }
      const statements = sql<{ statement: string; generic_plans: number }>`select statement, generic_plans from pg_prepared_statements where statement like 'with "holding"%'`;
      return (await statements.execute(connection)).rows;
    });
    // One statement for one word, one for two; each call past the fifth runs the general plan, whatever its words (ticketsHoldingAll).
    expect(prepared.map((p) => Number(p.generic_plans))).toEqual([4, 4]);
  });

  it('answers a list asked for again with every change made since, by this process or any other', async () => {
    const list = async (query = '') => {
      const response = await as(owner, 'GET', `${base}/tickets?Page=1&Amount=25${query}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      return response.json<PagedResult<TicketListItem>>();
    };
    const ticket = await open('ticket-1');
    const first = await list();
    expect(await list()).toEqual(first);
    expect((await list('&Active=false')).elements).toEqual([]);
    // The answer is reused while the server's change counter stands: a rename with the counter put
    // back is not seen (no write of the product does that: it only shows the answer is kept).
    const db = ctx.built.database.db;
    const counter = await db.selectFrom('server_changes').select('version').where('server_id', '=', server).executeTakeFirstOrThrow();
    await db.updateTable('tickets').set({ name: 'renamed' }).where('id', '=', ticket.ticketId).execute();
    await db.updateTable('server_changes').set({ version: counter.version }).where('server_id', '=', server).execute();
    expect((await list()).elements[0]?.name).toBe('ticket-1');
    await db.updateTable('tickets').set({ name: 'ticket-1' }).where('id', '=', ticket.ticketId).execute();

    await say(ticket.ticketId, 'Where is my refund?', 'User', USERS.eli);
    expect((await list()).elements[0]?.lastMessage?.content).toBe('Where is my refund?');
    await as(owner, 'PUT', `${base}/tickets/${ticket.ticketId}`, { assigneeId: USERS.alice });
    expect((await list()).elements[0]?.assignee).toBe(USERS.alice);
    const second = await open('ticket-2');
    expect((await list()).elements.map((t) => t.ticketId)).toEqual([second.ticketId, ticket.ticketId]);

    // Writes that bypass this process (another instance, the platform sync) count the same.
    await db.updateTable('subjects').set({ name: 'Payments' }).where('id', '=', billing.subjectId).execute();
    expect((await list()).elements[0]?.subject.name).toBe('Payments');
    await db.updateTable('servers').set({ name: 'Pixel Foundry' }).where('id', '=', server).execute();
    expect((await list()).elements[0]?.server.name).toBe('Pixel Foundry');
    await db.deleteFrom('tickets').where('id', '=', second.ticketId).execute();
    expect((await list()).elements.map((t) => t.ticketId)).toEqual([ticket.ticketId]);
    // A subject the database no longer holds is shown as deleted; the ticket stays listed.
    await db.deleteFrom('subjects').where('id', '=', billing.subjectId).execute();
    expect((await list()).elements[0]?.subject).toEqual({ subjectId: billing.subjectId, name: 'Deleted subject' });
    // Another server's change leaves this server's answer as it was, and the other's list is its own.
    expect((await as(ADMIN_KEY, 'GET', `/api/support/servers/${GUILDS.nightOwls}/tickets?Page=1&Amount=25`)).json<PagedResult<TicketListItem>>().elements).toEqual([]);
  });

  it('answers a ticket asked for again with its reactions and members as they are now, and 304 to a browser that holds it', async () => {
    const ticket = await open('ticket-1');
    const message = await say(ticket.ticketId, 'Hello', 'User', USERS.eli);
    const url = `${base}/tickets/${ticket.ticketId}`;
    const read = (etag?: string) => ctx.built.app.inject({ method: 'GET', url, headers: { ...bearer(owner), ...(etag ? { 'if-none-match': etag } : {}) } });
    const first = await read();
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await read(etag);
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    await as(owner, 'POST', `${base}/tickets/${ticket.ticketId}/messages/${message.messageId}/reactions`, { reactorId: USERS.alice, emoji: { id: null, name: '👍' } });
    const reacted = await read(etag);
    expect(reacted.statusCode).toBe(200);
    expect(reacted.json<Ticket>().messages[0]?.reactions).toEqual([{ emoji: { id: null, name: '👍' }, count: 1 }]);
    expect(reacted.headers.etag).not.toBe(etag);
    // The reaction taken back: the answer computed anew is the one the browser held first, and the
    // tag names the content, so the browser is told it has it (as by another process it never asked).
    await as(owner, 'DELETE', `${base}/tickets/${ticket.ticketId}/messages/${message.messageId}/reactions`, { reactorId: USERS.alice, emoji: { id: null, name: '👍' } });
    const undone = await read(etag);
    expect(undone.statusCode).toBe(304);
    expect(undone.body).toBe('');
    expect((await read(reacted.headers.etag as string)).statusCode).toBe(200);
    const reactedAgain = await as(owner, 'POST', `${base}/tickets/${ticket.ticketId}/messages/${message.messageId}/reactions`, { reactorId: USERS.alice, emoji: { id: null, name: '👍' } });
    expect(reactedAgain.statusCode).toBe(200);
    expect((await read(reacted.headers.etag as string)).statusCode).toBe(304);

    await as(ADMIN_KEY, 'POST', `${base}/tickets/${ticket.ticketId}/member`, { userId: USERS.dana });
    expect((await read(reacted.headers.etag as string)).json<Ticket>().members).toEqual([USERS.dana]);
    // Another user with access gets the same answer; one without gets no answer at all.
    expect((await as(ADMIN_KEY, 'GET', url)).json<Ticket>().members).toEqual([USERS.dana]);
    expect((await as(member, 'GET', url)).statusCode).toBe(403);
  });

  it('finds tickets by a word of a message, a form answer or the name, with highlights', async () => {
    const a = await open('refund-request', USERS.eli, [{ questionId: 'q1', question: 'Order?', answer: 'Order Zebra-77' }]);
    const b = await open('login-problem');
    await say(b.ticketId, 'I cannot log in since the Update yesterday', 'User', USERS.eli);
    const search = async (text: string) => (await as(owner, 'POST', `${base}/search`, { text })).json<PagedResult<TicketListItem>>();
    const byMessage = await search('update');
    expect(byMessage.elements.map((t) => t.ticketId)).toEqual([b.ticketId]);
    const mark = byMessage.elements[0]!.highlights[0]!;
    expect(mark.field).toBe('message');
    expect(mark.text.slice(mark.matches[0]!.start, mark.matches[0]!.start + mark.matches[0]!.length)).toBe('Update');
    expect((await search('zebra')).elements.map((t) => t.ticketId)).toEqual([a.ticketId]);
    expect((await search('refund')).elements[0]!.highlights[0]!.field).toBe('name');
    expect((await search('log yesterday')).elements.map((t) => t.ticketId)).toEqual([b.ticketId]);
    expect((await search('nothing-like-this')).elements).toEqual([]);
    expect((await as(owner, 'POST', `${base}/search`, { text: '!!' })).statusCode).toBe(400);
    // Every ticket holding all the words is counted, with a filter or without (one ticket a page),
    // the words in one text or in several.
    await say(a.ticketId, 'An update about the order', 'User', USERS.eli);
    const pages = async (text: string, filter = '') => (await as(owner, 'POST', `${base}/search?Amount=1${filter}`, { text })).json<PagedResult<TicketListItem>>();
    expect((await pages('update')).maxPage).toBe(2);
    // Past its last page a search shows nothing more, and still counts what it finds.
    expect(await pages('update', '&Page=3')).toEqual({ page: 3, maxPage: 2, elements: [] });
    expect(await pages('update', '&Active=true&Page=3')).toEqual({ page: 3, maxPage: 2, elements: [] });
    expect((await pages('update', '&Active=true')).maxPage).toBe(2);
    expect((await pages('update', '&Active=false')).elements).toEqual([]);
    expect((await search('update order')).elements.map((t) => t.ticketId)).toEqual([a.ticketId]);
    expect((await search('update zebra')).elements.map((t) => t.ticketId)).toEqual([a.ticketId]);
    // A ticket's texts are highlighted name first, then its form's answers, then its messages, three at most.
    expect((await search('order')).elements[0]!.highlights.map((h) => h.field)).toEqual(['answer', 'message']);
    for (const text of ['Refund one', 'Refund two', 'Refund three']) await say(a.ticketId, text, 'User', USERS.eli);
    expect((await search('refund')).elements[0]!.highlights.map((h) => [h.field, h.text])).toEqual([
      ['name', 'refund-request'],
      ['message', expect.stringMatching(/^Refund /)],
      ['message', expect.stringMatching(/^Refund /)],
    ]);
    // An edited message is found by its new words only.
    const message = (await as(owner, 'GET', `${base}/tickets/${b.ticketId}`)).json<Ticket>().messages[0]!;
    await as(owner, 'PUT', `${base}/tickets/${b.ticketId}/messages/${message.messageId}`, { message: { content: 'Fine again today' } });
    expect((await search('yesterday')).elements).toEqual([]);
    expect((await search('fine today')).elements.map((t) => t.ticketId)).toEqual([b.ticketId]);
    // A deleted message is no longer found, nor is a deleted ticket, nor counted.
    await as(owner, 'DELETE', `${base}/tickets/${b.ticketId}/messages/${message.messageId}`);
    expect((await search('fine')).elements).toEqual([]);
    expect((await pages('login')).elements.map((t) => t.ticketId)).toEqual([b.ticketId]);
    expect((await as(owner, 'DELETE', `${base}/tickets/${a.ticketId}`)).statusCode).toBe(204);
    expect(await search('update')).toMatchObject({ maxPage: 1, elements: [] });
    expect(await search('refund')).toMatchObject({ maxPage: 1, elements: [] });
  });

  it('shows members their own tickets only, and staff only their servers', async () => {
    const mine = await open('eli-ticket', USERS.eli);
    const other = await open('dana-ticket', USERS.dana);
    const personal = (await as(member, 'GET', '/api/support/personal/tickets')).json<PagedResult<TicketListItem>>();
    expect(personal.elements.map((t) => t.ticketId)).toEqual([mine.ticketId]);
    // Each ticket of a member's list names its server (with its icon) and its subject.
    expect(personal.elements[0]).toMatchObject({ server: { serverId: server, name: 'Pixel Forge', iconUrl: expect.stringContaining(server) }, subject: { subjectId: billing.subjectId, name: 'Billing' } });
    expect((await as(member, 'GET', `/api/support/personal/tickets/${mine.ticketId}`)).statusCode).toBe(200);
    expect((await as(member, 'GET', `/api/support/personal/tickets/${other.ticketId}`)).statusCode).toBe(404);
    // Added as a member, the ticket becomes theirs to see.
    await as(owner, 'POST', `${base}/tickets/${other.ticketId}/member`, { userId: USERS.eli });
    const theirs = (await as(member, 'GET', `/api/support/personal/tickets/${other.ticketId}`)).json<Ticket>();
    expect(theirs.members).toContain(USERS.eli);
    // Their list pages through both tickets, and past its last page still counts them.
    const firstOfTwo = (await as(member, 'GET', '/api/support/personal/tickets?Amount=1&Page=1')).json<PagedResult<TicketListItem>>();
    expect(firstOfTwo).toMatchObject({ page: 1, maxPage: 2, elements: [{ ticketId: other.ticketId }] });
    expect((await as(member, 'GET', '/api/support/personal/tickets?Amount=1&Page=3')).json()).toEqual({ page: 3, maxPage: 2, elements: [] });
    // What the subject lets each person do is for the server's staff.
    expect(theirs.access).toBeUndefined();
    const servers = (await as(member, 'GET', '/api/support/personal/tickets/servers')).json();
    expect(servers.elements).toEqual([expect.objectContaining({ serverId: server, name: 'Pixel Forge' })]);
    const subjects = (await as(member, 'GET', `/api/support/personal/tickets/subjects/${server}`)).json();
    expect(subjects.elements).toEqual([{ subjectId: billing.subjectId, name: 'Billing' }]);
    const found = (await as(member, 'POST', '/api/support/personal/tickets/search', { text: 'dana' })).json<PagedResult<TicketListItem>>();
    expect(found.elements.map((t) => t.ticketId)).toEqual([other.ticketId]);
    expect(found.elements[0]).toMatchObject({ server: { serverId: server, name: 'Pixel Forge' }, subject: { subjectId: billing.subjectId, name: 'Billing' } });
    // Members cannot use the server lists; another server's staff cannot either.
    expect((await as(member, 'GET', `${base}/tickets`)).statusCode).toBe(403);
    const chen = (await signIn(ctx, USERS.chen)).token;
    expect((await as(chen, 'GET', `${base}/tickets/${mine.ticketId}`)).statusCode).toBe(403);
    expect((await as(chen, 'GET', `/api/support/servers/${GUILDS.studyHall}/tickets/${mine.ticketId}`)).statusCode).toBe(404);
  });

  it('deletes a ticket for admins, and answers subject counts and support subjects', async () => {
    const ticket = await open('ticket-1');
    await open('ticket-2');
    await as(owner, 'PUT', `${base}/tickets/${ticket.ticketId}`, { closure: { closedBy: USERS.alice, reason: null, force: true } });
    const counts = (await as(ADMIN_KEY, 'GET', `/api/support/admin/subject-count/${billing.subjectId}`)).json();
    expect(counts).toEqual({ subjectId: billing.subjectId, total: 2, active: 1 });
    expect((await as(owner, 'GET', `/api/support/admin/subject-count/${billing.subjectId}`)).statusCode).toBe(403);
    const subjects = (await as(owner, 'GET', `${base}/subjects`)).json();
    expect(subjects).toMatchObject({ page: 1, maxPage: 1, elements: [{ subjectId: billing.subjectId, name: 'Billing' }] });
    expect((await as(owner, 'DELETE', `${base}/tickets/${ticket.ticketId}`)).statusCode).toBe(204);
    expect((await as(owner, 'GET', `${base}/tickets/${ticket.ticketId}`)).statusCode).toBe(404);
  });

  it('answers statistics: daily counts with no gaps, response time, totals and rankings', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const a = await open('ticket-a');
    const b = await open('ticket-b');
    await say(a.ticketId, 'help', 'User', USERS.eli);
    await say(a.ticketId, 'on it', 'Staff', USERS.alice);
    await say(b.ticketId, 'also on it', 'Staff', USERS.alice);
    await as(owner, 'PUT', `${base}/tickets/${b.ticketId}`, { closure: { closedBy: USERS.alice, reason: null, force: true } });
    const range = `startDate=${yesterday}&endDate=${today}`;
    expect((await as(owner, 'GET', `${base}/stats/daily/tickets?${range}`)).json()).toEqual([
      { date: yesterday, count: 0 },
      { date: today, count: 2 },
    ]);
    expect((await as(owner, 'GET', `${base}/stats/daily/messages?${range}`)).json()[1]).toEqual({ date: today, count: 3 });
    const response = (await as(owner, 'GET', `${base}/stats/daily/response-time?${range}`)).json();
    expect(response[1].count).toBeGreaterThanOrEqual(0);
    expect((await as(owner, 'GET', `${base}/stats/top/simple`)).json()).toEqual({ activeTickets: 1, totalTickets: 2, totalMessages: 3 });
    expect((await as(owner, 'GET', `${base}/stats/top/subjects`)).json().elements).toEqual([{ subjectId: billing.subjectId, serverId: server, name: 'Billing', amount: 2 }]);
    const supporters = (await as(owner, 'GET', `${base}/stats/top/supporters`)).json();
    expect(supporters.elements).toEqual([expect.objectContaining({ id: USERS.alice, name: 'Alice Anders', amount: 2 })]);
    const backwards = await as(owner, 'GET', `${base}/stats/daily/tickets?startDate=${today}&endDate=${yesterday}`);
    expect(backwards.json<ErrorBody>()).toMatchObject({ field: 'querystring.endDate', message: 'querystring.endDate: endDate must not be before startDate' });
    expect((await as(member, 'GET', `${base}/stats/top/simple`)).statusCode).toBe(403);
  });
});
