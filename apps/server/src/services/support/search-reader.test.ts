import type { InjectOptions } from 'fastify';
import type { CompiledQuery } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PagedResult, Subject, Ticket, TicketListItem } from '@ticket/contracts';
import { GUILDS, USERS } from '../../test/demo-world';
import { ADMIN_KEY, bearer, createTestApp, resetSandbox, signIn, sqliteFileDatabase, useSandbox, type TestContext } from '../../test/harness';

const sandbox = useSandbox();
const server = GUILDS.pixelForge;
const base = `/api/support/servers/${server}`;

/*
 * On SQLite in a file, searches read on the database's reader, a thread of its own
 * (db/sqlite-reader.ts): what a search shows is what the API has committed, as soon as it answers.
 */
describe('Searches on SQLite in a file', () => {
  let ctx: TestContext;
  let owner: string;
  let member: string;
  let billing: Subject;
  beforeEach(async () => {
    await resetSandbox(sandbox);
    ctx = await createTestApp(sandbox, 'sqlite', {}, await sqliteFileDatabase());
    owner = (await signIn(ctx, USERS.alice)).token;
    member = (await signIn(ctx, USERS.eli)).token;
    billing = (await as(owner, 'POST', `/api/settings/servers/${server}/subjects`, { name: 'Billing' })).json<Subject>();
  });
  afterEach(() => ctx.close());

  const as = (token: string, method: InjectOptions['method'], url: string, payload?: unknown) =>
    ctx.built.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const open = async (name: string) => {
    const response = await as(ADMIN_KEY, 'POST', `${base}/tickets`, { ticketName: name, subjectId: billing.subjectId, authorId: USERS.eli });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Ticket>();
  };
  const say = async (ticketId: string, content: string) => {
    const response = await as(ADMIN_KEY, 'POST', `${base}/tickets/${ticketId}/messages`, { message: { content }, messageType: 'User', authorId: USERS.eli });
    expect(response.statusCode, response.body).toBe(201);
  };
  const search = async (text: string, query = '') => {
    const response = await as(owner, 'POST', `${base}/search${query}`, { text });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<PagedResult<TicketListItem>>();
  };
  const personalSearch = async (text: string, query = '') => (await as(member, 'POST', `/api/support/personal/tickets/search${query}`, { text })).json<PagedResult<TicketListItem>>();

  it('read off the thread of the API, and find each change as soon as it is answered', async () => {
    expect(ctx.built.database.reads).not.toBe(ctx.built.database.db);
    const first = await open('refund-request');
    expect((await search('refund')).elements.map((t) => t.ticketId)).toEqual([first.ticketId]);
    await say(first.ticketId, 'The parcel never came');
    const found = await search('parcel');
    expect(found).toMatchObject({ page: 1, maxPage: 1 });
    expect(found.elements.map((t) => [t.ticketId, t.highlights.map((h) => h.field)])).toEqual([[first.ticketId, ['message']]]);
    const second = await open('parcel-lost');
    await say(second.ticketId, 'Another parcel');
    // Newest activity first, counted, a page at a time; a member finds their own.
    expect((await search('parcel')).elements.map((t) => t.ticketId)).toEqual([second.ticketId, first.ticketId]);
    expect(await search('parcel', '?Amount=1&Page=2')).toMatchObject({ page: 2, maxPage: 2, elements: [{ ticketId: first.ticketId }] });
    // Past the last page no row carries the count, which is read on its own.
    expect(await search('parcel', '?Amount=1&Page=3')).toMatchObject({ page: 3, maxPage: 2, elements: [] });
    expect(await personalSearch('parcel', '?Amount=1&Page=3')).toMatchObject({ page: 3, maxPage: 2, elements: [] });
    expect((await personalSearch('parcel')).elements.map((t) => t.ticketId)).toEqual([second.ticketId, first.ticketId]);
    expect((await as(owner, 'DELETE', `${base}/tickets/${second.ticketId}`)).statusCode).toBe(204);
    expect((await search('parcel')).elements.map((t) => t.ticketId)).toEqual([first.ticketId]);
    expect((await personalSearch('parcel')).elements.map((t) => t.ticketId)).toEqual([first.ticketId]);
  });

  it('read the index on the reader, never on the API connection', async () => {
    const ticket = await open('refund-request');
    const searched = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.filter(([query]) => (query as CompiledQuery).sql?.includes('ticket_words match')).length;
    const onReader = vi.spyOn(ctx.built.database.reads, 'executeQuery');
    const onApi = vi.spyOn(ctx.built.database.db, 'executeQuery');
    expect((await search('refund')).elements.map((t) => t.ticketId)).toEqual([ticket.ticketId]);
    expect((await personalSearch('refund')).elements.map((t) => t.ticketId)).toEqual([ticket.ticketId]);
    // Each search's page, which carries its count: one statement a search.
    expect(searched(onReader)).toBe(2);
    expect(searched(onApi)).toBe(0);
  });

  it('leave out a ticket deleted after the reader found it, and show the others as they are now', async () => {
    const gone = await open('refund-gone');
    const kept = await open('refund-kept');
    const reads = ctx.built.database.reads;
    const run = reads.executeQuery.bind(reads);
    let deleted = false;
    // The page is found on the reader; the ticket is deleted and the other renamed before its rows are read.
    vi.spyOn(reads, 'executeQuery').mockImplementation(async (query) => {
      const answer = await run(query);
      if (!deleted && (query as CompiledQuery).sql.includes('order by')) {
        deleted = true;
        expect((await as(owner, 'DELETE', `${base}/tickets/${gone.ticketId}`)).statusCode).toBe(204);
        expect((await as(owner, 'PUT', `${base}/tickets/${kept.ticketId}`, { ticketName: 'refund-renamed' })).statusCode).toBe(200);
      }
      return answer;
    });
    const found = await search('refund');
    expect(deleted).toBe(true);
    expect(found.elements.map((t) => [t.ticketId, t.name])).toEqual([[kept.ticketId, 'refund-renamed']]);
  });
});
