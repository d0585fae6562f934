import type { TicketListQuery } from '@ticket/contracts';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import * as lists from '../../services/support/list-repository';
import * as searchIndex from '../../services/support/search-repository';
import { engines, freshDatabase } from '../../test/harness';
import { insertLegacyMember, legacyTicket } from '../../test/legacy-rows';
import { GUILDS } from '../../test/demo-world';
import type { Database } from '../database';
import { migrateToLatest } from '../migrate';
import { scopedIndexText, searchScope } from '../search-terms';

const list = { Page: 1, Amount: 10 } as TicketListQuery;
const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

describe.each(engines)('search words scoped by server (migrations 0026, 0028, 0031) on %s', (engine) => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.destroy();
    database = undefined;
  });

  it('finds what was indexed before the upgrade, each server its own tickets only', async () => {
    database = await freshDatabase(engine, '0025-server-search-index');
    const { db } = database;
    const texts: [string, string, string][] = [
      ['forge-1', GUILDS.pixelForge, 'Refund for the Straße order'],
      ['forge-2', GUILDS.pixelForge, 'Login broken since Tuesday'],
      ['owls-1', GUILDS.nightOwls, 'refund please, Привет'],
    ];
    for (const [n, [id, server, body]] of texts.entries()) {
      await db.insertInto('tickets').values({ ...legacyTicket(id, n + 1), server_id: server }).execute();
      await insertLegacyMember(db, id, legacyTicket(id, n + 1).author_id);
      // As the server wrote documents before: SQLite in the ticket's rowid range (migration 0009).
      if (engine === 'sqlite') {
        await sql`insert into ticket_search (rowid, ticket_id, server_id, kind, ref_id, body)
          select search_key * 65536, ${id}, ${server}, 'message', ${`${id}-m`}, ${body} from tickets where id = ${id}`.execute(db);
      } else {
        await sql`insert into ticket_search (ticket_id, server_id, kind, ref_id, body) values (${id}, ${server}, 'message', ${`${id}-m`}, ${body})`.execute(db);
      }
    }
    await migrateToLatest(db, engine);

    const search = (serverId: string, words: string[]) => lists.pageTickets(database!.db, engine, { serverId }, list, words);
    expect(ids((await search(GUILDS.pixelForge, ['refund'])).rows)).toEqual(['forge-1']);
    expect(ids((await search(GUILDS.nightOwls, ['refund'])).rows)).toEqual(['owls-1']);
    expect(ids((await search(GUILDS.pixelForge, ['straße', 'order'])).rows)).toEqual(['forge-1']);
    expect(ids((await search(GUILDS.nightOwls, ['привет'])).rows)).toEqual(['owls-1']);
    expect((await search(GUILDS.pixelForge, ['привет'])).total).toBe(0);
    // A member's own tickets: searched in each server they have tickets in (Eli wrote all three).
    const mine = await lists.pageTickets(database.db, engine, { userId: legacyTicket('x', 1).author_id }, list, ['refund']);
    expect(ids(mine.rows).sort()).toEqual(['forge-1', 'owls-1']);
    const both = await lists.pageTickets(database.db, engine, { userId: legacyTicket('x', 1).author_id }, list, ['order', 'straße']);
    expect(ids(both.rows)).toEqual(['forge-1']);

    // New documents are indexed with their server's scope too, and found with their highlights.
    const [forge2] = (await search(GUILDS.pixelForge, ['login'])).rows;
    await searchIndex.putSearchDoc(database.db, engine, { ticket_id: 'forge-2', server_id: GUILDS.pixelForge, kind: 'message', ref_id: 'forge-2-m2', body: 'A refund, after all' });
    expect(ids((await search(GUILDS.pixelForge, ['refund'])).rows).sort()).toEqual(['forge-1', 'forge-2']);
    const refunds = (await search(GUILDS.pixelForge, ['refund'])).rows;
    expect(refunds.find((r) => r.id === forge2!.id)?.found).toEqual([{ kind: 'message', body: 'A refund, after all' }]);

    // An edited text takes its old words with it, a removed one all of its words.
    await searchIndex.putSearchDoc(database.db, engine, { ticket_id: 'forge-2', server_id: GUILDS.pixelForge, kind: 'message', ref_id: 'forge-2-m2', body: 'No money back' });
    expect(ids((await search(GUILDS.pixelForge, ['refund'])).rows)).toEqual(['forge-1']);
    expect(ids((await search(GUILDS.pixelForge, ['money', 'login'])).rows)).toEqual(['forge-2']);
    await searchIndex.removeSearchDoc(database.db, engine, 'forge-2', 'message', 'forge-2-m2');
    expect((await search(GUILDS.pixelForge, ['money'])).total).toBe(0);
    expect(ids((await search(GUILDS.pixelForge, ['login'])).rows)).toEqual(['forge-2']);
  });
});

describe.runIf(engines.includes('postgres'))('the words PostgreSQL indexes', () => {
  it('indexes the same words as the server computes for SQLite', async () => {
    const database = await freshDatabase('postgres');
    try {
      const body = "Привет, ÉCOLE don't e-mail 日本語 order #42 Straße";
      const { rows } = await sql<{ words: string }>`select array_to_string(tsvector_to_array(ticket_search_words(${GUILDS.pixelForge}, ${body})), ' ') as words`.execute(database.db);
      expect(rows[0]!.words.split(' ').sort()).toEqual(scopedIndexText(GUILDS.pixelForge, body).split(' ').sort());
      expect(scopedIndexText(GUILDS.pixelForge, 'Order ORDER order')).toBe(`${searchScope(GUILDS.pixelForge)}order`);
    } finally {
      await database.destroy();
    }
  });
});
