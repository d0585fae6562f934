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

describe.each(engines)("a member's servers (migration 0032) on %s", (engine) => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.destroy();
    database = undefined;
  });

  it('lists the servers of the memberships there were before, and follows each one added or taken away', async () => {
    database = await freshDatabase(engine, '0031-postgres-ticket-postings');
    const { db } = database;
    for (const [id, name] of [
      [GUILDS.pixelForge, 'Pixel Forge'],
      [GUILDS.nightOwls, 'Night Owls'],
      [GUILDS.studyHall, 'Study Hall'],
    ]) {
      await db.insertInto('servers').values(legacyServer(id!, name!)).execute();
    }
    const tickets: [string, string][] = [
      ['forge-1', GUILDS.pixelForge],
      ['forge-2', GUILDS.pixelForge],
      ['owls-1', GUILDS.nightOwls],
      ['hall-1', GUILDS.studyHall],
    ];
    for (const [n, [id, server]] of tickets.entries()) {
      await db.insertInto('tickets').values({ ...legacyTicket(id, n + 1), server_id: server }).execute();
    }
    // Memberships as they were written before the migration: without their ticket's server.
    for (const id of ['forge-1', 'forge-2', 'owls-1']) await insertLegacyMember(db, id, USERS.eli);
    await insertLegacyMember(db, 'hall-1', USERS.alice);
    await migrateToLatest(db, engine);

    const servers = async (userId: string) => {
      const { rows, total } = await lists.personalServers(db, userId, 0, 10);
      return { names: rows.map((r) => r.name), total };
    };
    expect(await servers(USERS.eli)).toEqual({ names: ['Night Owls', 'Pixel Forge'], total: 2 });
    expect(await servers(USERS.alice)).toEqual({ names: ['Study Hall'], total: 1 });
    expect(await servers(USERS.bruno)).toEqual({ names: [], total: 0 });
    // A page of them, by name.
    expect((await lists.personalServers(db, USERS.eli, 1, 1)).rows.map((r) => r.name)).toEqual(['Pixel Forge']);

    await repo.addMember(db, 'forge-1', USERS.alice);
    await repo.addMember(db, 'forge-1', USERS.alice); // already a member: counted once
    expect(await servers(USERS.alice)).toEqual({ names: ['Pixel Forge', 'Study Hall'], total: 2 });
    await repo.removeMember(db, 'hall-1', USERS.alice);
    expect(await servers(USERS.alice)).toEqual({ names: ['Pixel Forge'], total: 1 });
    // One of two tickets on a server deleted: the server stays; the last one: it goes.
    await repo.deleteTicket(db, engine, 'forge-1');
    expect(await servers(USERS.alice)).toEqual({ names: [], total: 0 });
    expect(await servers(USERS.eli)).toEqual({ names: ['Night Owls', 'Pixel Forge'], total: 2 });
    await repo.deleteTicket(db, engine, 'forge-2');
    expect(await servers(USERS.eli)).toEqual({ names: ['Night Owls'], total: 1 });
    // A member's search looks up the words of the servers they still have tickets on.
    await searchIndex.putSearchDoc(db, engine, { ticket_id: 'owls-1', server_id: GUILDS.nightOwls, kind: 'message', ref_id: 'owls-1-m', body: 'A refund, please' });
    const searched = await lists.pageTickets(db, engine, { userId: USERS.eli }, list, ['refund']);
    expect({ ids: searched.rows.map((r) => r.id), total: searched.total }).toEqual({ ids: ['owls-1'], total: 1 });
  });
});
