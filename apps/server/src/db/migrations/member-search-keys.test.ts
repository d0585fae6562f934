import type { TicketListQuery } from '@ticket/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import * as repo from '../../services/support/repository';
import * as lists from '../../services/support/list-repository';
import * as searchIndex from '../../services/support/search-repository';
import { GUILDS, USERS } from '../../test/demo-world';
import { engines, freshDatabase } from '../../test/harness';
import { insertLegacyMember, legacyServer, legacyTicket } from '../../test/legacy-rows';
import type { Database } from '../database';
import { migrateToLatest } from '../migrate';

const list = { Page: 1, Amount: 10 } as TicketListQuery;

describe.each(engines)("a member's search across their own tickets (migration 0034) on %s", (engine) => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.destroy();
    database = undefined;
  });

  it('finds the tickets of the memberships there were before and of those added since, newest first, and counts them', async () => {
    database = await freshDatabase(engine, '0033-postgres-drop-document-words-index');
    const { db } = database;
    for (const [id, name] of [
      [GUILDS.pixelForge, 'Pixel Forge'],
      [GUILDS.nightOwls, 'Night Owls'],
    ]) {
      await db.insertInto('servers').values(legacyServer(id!, name!)).execute();
    }
    // Eli's tickets, one a day; Alice's ticket holds the word too.
    const tickets: [string, string, string][] = [
      ['forge-1', GUILDS.pixelForge, 'I would like a refund'],
      ['forge-2', GUILDS.pixelForge, 'The invoice is wrong'],
      ['owls-1', GUILDS.nightOwls, 'Refund for the last month'],
      ['owls-2', GUILDS.nightOwls, 'A refund and an invoice'],
      ['alice-1', GUILDS.nightOwls, 'Refund me too'],
    ];
    for (const [n, [id, server, text]] of tickets.entries()) {
      const at = `2026-03-0${n + 1}T10:00:00.000Z`;
      await db.insertInto('tickets').values({ ...legacyTicket(id, n + 1, { created_at: at }), server_id: server }).execute();
      // Memberships as they were written before the migration: with their server, without their ticket's key.
      await insertLegacyMember(db, id, id.startsWith('alice') ? USERS.alice : USERS.eli, at, server);
      await searchIndex.putSearchDoc(db, engine, { ticket_id: id, server_id: server, kind: 'message', ref_id: `${id}-m`, body: text });
    }
    await migrateToLatest(db, engine);

    const search = async (userId: string, words: string[], query: Partial<TicketListQuery> = {}) => {
      const { rows, total } = await lists.pageTickets(db, engine, { userId }, { ...list, ...query } as TicketListQuery, words);
      return { ids: rows.map((r) => r.id), total };
    };
    expect(await search(USERS.eli, ['refund'])).toEqual({ ids: ['owls-2', 'owls-1', 'forge-1'], total: 3 });
    // Each found ticket shows its texts that hold a word, whichever of the member's servers it is on.
    const found = await lists.pageTickets(db, engine, { userId: USERS.eli }, list, ['refund']);
    expect(found.rows.map((r) => [r.id, r.found?.map((f) => f.body)])).toEqual([
      ['owls-2', ['A refund and an invoice']],
      ['owls-1', ['Refund for the last month']],
      ['forge-1', ['I would like a refund']],
    ]);
    expect(await search(USERS.eli, ['refund', 'invoice'])).toEqual({ ids: ['owls-2'], total: 1 });
    expect(await search(USERS.eli, ['invoice'], { Server: GUILDS.pixelForge })).toEqual({ ids: ['forge-2'], total: 1 });
    expect(await search(USERS.eli, ['refund'], { Page: 2, Amount: 2 })).toEqual({ ids: ['forge-1'], total: 3 });
    expect(await search(USERS.eli, ['password'])).toEqual({ ids: [], total: 0 });
    expect(await search(USERS.alice, ['refund'])).toEqual({ ids: ['alice-1'], total: 1 });

    // A membership added since, and one taken away.
    await repo.addMember(db, 'alice-1', USERS.eli);
    await repo.removeMember(db, 'owls-1', USERS.eli);
    expect(await search(USERS.eli, ['refund'])).toEqual({ ids: ['alice-1', 'owls-2', 'forge-1'], total: 3 });
    expect(await search(USERS.eli, ['refund'], { Server: GUILDS.nightOwls })).toEqual({ ids: ['alice-1', 'owls-2'], total: 2 });
    // A text written since is found through the memberships too.
    await searchIndex.putSearchDoc(db, engine, { ticket_id: 'forge-2', server_id: GUILDS.pixelForge, kind: 'message', ref_id: 'forge-2-m2', body: 'Now a refund' });
    expect(await search(USERS.eli, ['refund'])).toEqual({ ids: ['alice-1', 'owls-2', 'forge-2', 'forge-1'], total: 4 });
  });
});
