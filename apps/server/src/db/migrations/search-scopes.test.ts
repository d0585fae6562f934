import type { TicketListQuery } from '@ticket/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import * as lists from '../../services/support/list-repository';
import * as searchIndex from '../../services/support/search-repository';
import { GUILDS } from '../../test/demo-world';
import { engines, freshDatabase } from '../../test/harness';
import { legacyServer, legacyTicket } from '../../test/legacy-rows';
import type { Database } from '../database';
import { migrateToLatest } from '../migrate';
import { searchScope } from '../search-terms';

/** Two pairs of servers whose ids' MD5 begin alike, so that each pair shares a search scope (migration 0026). */
const SHARING = { first: '900000000000002770', second: '900000000000004654' };
const LATER = { first: '900000000000004001', second: '900000000000008420' };

describe.each(engines)("a server's search where servers share a search scope (migration 0035) on %s", (engine) => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.destroy();
    database = undefined;
  });

  it("counts and lists each server's own tickets, for the servers there were before and those that came after", async () => {
    expect(searchScope(SHARING.first)).toBe(searchScope(SHARING.second));
    expect(searchScope(LATER.first)).toBe(searchScope(LATER.second));
    database = await freshDatabase(engine, '0034-member-search-keys');
    const { db } = database;
    let number = 0;
    const open = async (serverId: string, id: string, text: string) => {
      number++;
      const at = `2026-03-${String(number).padStart(2, '0')}T10:00:00.000Z`;
      await db.insertInto('tickets').values({ ...legacyTicket(id, number, { created_at: at }), server_id: serverId }).execute();
      await searchIndex.putSearchDoc(db, engine, { ticket_id: id, server_id: serverId, kind: 'message', ref_id: `${id}-m`, body: text });
    };
    for (const id of [...Object.values(SHARING), ...Object.values(LATER), GUILDS.pixelForge]) await db.insertInto('servers').values(legacyServer(id, id)).execute();
    await open(SHARING.first, 'first-1', 'I would like a refund');
    await open(SHARING.first, 'first-2', 'A refund and an invoice');
    await open(SHARING.second, 'second-1', 'Refund me too');
    await open(GUILDS.pixelForge, 'forge-1', 'A refund, please');
    await open(GUILDS.pixelForge, 'forge-2', 'The invoice is wrong');
    await migrateToLatest(db, engine);
    // After the migration, a server's first ticket, then another's of the same scope.
    await open(LATER.first, 'later-1', 'Refund it');
    await open(LATER.first, 'later-2', 'Refund the invoice');
    await open(LATER.second, 'other-1', 'Refund, refund');

    const search = async (serverId: string, words: string[], page: Partial<TicketListQuery> = {}) => {
      const { rows, total } = await lists.pageTickets(db, engine, { serverId }, { Page: 1, Amount: 10, ...page } as TicketListQuery, words);
      return { ids: rows.map((r) => r.id), total };
    };
    expect(await search(SHARING.first, ['refund'])).toEqual({ ids: ['first-2', 'first-1'], total: 2 });
    expect(await search(SHARING.second, ['refund'])).toEqual({ ids: ['second-1'], total: 1 });
    expect(await search(SHARING.first, ['refund', 'invoice'])).toEqual({ ids: ['first-2'], total: 1 });
    expect(await search(LATER.first, ['refund'])).toEqual({ ids: ['later-2', 'later-1'], total: 2 });
    expect(await search(LATER.second, ['refund'])).toEqual({ ids: ['other-1'], total: 1 });
    expect(await search(LATER.first, ['invoice', 'refund'])).toEqual({ ids: ['later-2'], total: 1 });
    // A server alone in its scope.
    expect(await search(GUILDS.pixelForge, ['refund'])).toEqual({ ids: ['forge-1'], total: 1 });
    expect(await search(GUILDS.pixelForge, ['invoice', 'refund'])).toEqual({ ids: [], total: 0 });
    // Pages after the first, and past the last, count the same.
    expect(await search(SHARING.first, ['refund'], { Page: 2, Amount: 1 })).toEqual({ ids: ['first-1'], total: 2 });
    expect(await search(LATER.first, ['refund'], { Page: 3, Amount: 1 })).toEqual({ ids: [], total: 2 });
    expect(await search(GUILDS.pixelForge, ['refund'], { Page: 2, Amount: 1 })).toEqual({ ids: [], total: 1 });
  });
});
