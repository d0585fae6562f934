import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { DB } from './schema';

/*
 * Named leases (migration 0027): work recomputed from what is stored (a sweep) is done by one
 * process at a time, whichever holds the work's lease. A lease runs out on its own, so a process
 * that dies holding one holds up the work for no longer than the lease.
 */

/** The lease is someone else's now: its holder ran over its time and must stop. */
export class LeaseLostError extends Error {
  constructor(name: string) {
    super(`The lease ${name} was taken over by another process`);
  }
}

/** Takes the lease for `holder` until `until` when it is free, has run out by `at`, or is already the holder's. */
export async function takeLease(db: Kysely<DB>, name: string, holder: string, until: string, at: string): Promise<boolean> {
  const taken = await db
    .insertInto('leases')
    .values({ name, holder, until })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ holder, until })
        .where((eb) => eb.or([eb('leases.until', '<=', at), eb('leases.holder', '=', holder)])),
    )
    .returning('name')
    .executeTakeFirst();
  return taken !== undefined;
}

export async function releaseLease(db: Kysely<DB>, name: string, holder: string): Promise<void> {
  await db.deleteFrom('leases').where('name', '=', name).where('holder', '=', holder).execute();
}

/** Who holds the lease and until when, if anyone took it and did not give it back. */
export async function findLease(db: Kysely<DB>, name: string): Promise<{ holder: string; until: string } | undefined> {
  return db.selectFrom('leases').select(['holder', 'until']).where('name', '=', name).executeTakeFirst();
}

/** Names the process and the run in a lease, for whoever looks at the table. */
export const leaseHolder = () => `${hostname()}/${process.pid}/${randomUUID()}`;

/**
 * Runs `work` while holding the lease `name` for `ms` at a time, and gives it back after; answers
 * null, running nothing, when another process holds it. Long work calls `keep` between steps to
 * hold the lease `ms` longer; `keep` throws LeaseLostError when the lease ran out and another
 * process took it, so that the work is not done twice at once.
 */
export async function withLease<T>(db: Kysely<DB>, name: string, ms: number, work: (keep: () => Promise<void>) => Promise<T>): Promise<T | null> {
  const holder = leaseHolder();
  const take = () => takeLease(db, name, holder, new Date(Date.now() + ms).toISOString(), new Date().toISOString());
  if (!(await take())) return null;
  try {
    return await work(async () => {
      if (!(await take())) throw new LeaseLostError(name);
    });
  } finally {
    await releaseLease(db, name, holder).catch(() => undefined);
  }
}
