import type { TicketListQuery } from '@ticket/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import * as repo from '../../services/support/repository';
import * as lists from '../../services/support/list-repository';
import { USERS } from '../../test/demo-world';
import { engines, freshDatabase } from '../../test/harness';
import { insertLegacyMember, legacyTicket } from '../../test/legacy-rows';
import type { Database } from '../database';
import { migrateToLatest } from '../migrate';

const list = { Page: 1, Amount: 2 } as TicketListQuery;

describe.each(engines)("a member's ticket count (migration 0029) on %s", (engine) => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.destroy();
    database = undefined;
  });

  it('counts the memberships there were before, and follows each one added or taken away', async () => {
    database = await freshDatabase(engine, '0028-ticket-words');
    const { db } = database;
    for (const n of [1, 2, 3]) {
      await db.insertInto('tickets').values(legacyTicket(`t${n}`, n)).execute();
      await insertLegacyMember(db, `t${n}`, USERS.eli);
    }
    await insertLegacyMember(db, 't1', USERS.alice);
    await migrateToLatest(db, engine);

    const total = async (userId: string) => (await lists.pageTickets(db, engine, { userId }, list, null)).total;
    expect(await total(USERS.eli)).toBe(3);
    expect(await total(USERS.alice)).toBe(1);

    await repo.addMember(db, 't2', USERS.alice);
    await repo.addMember(db, 't2', USERS.alice); // already a member: counted once
    expect(await total(USERS.alice)).toBe(2);
    await repo.removeMember(db, 't1', USERS.alice);
    expect(await total(USERS.alice)).toBe(1);
    // A deleted ticket takes its memberships, and their counts, with it.
    await repo.deleteTicket(db, engine, 't2');
    expect(await total(USERS.alice)).toBe(0);
    expect(await total(USERS.eli)).toBe(2);
    expect((await lists.pageTickets(db, engine, { userId: USERS.eli }, list, null)).rows.map((r) => r.id).sort()).toEqual(['t1', 't3']);
  });
});
