import type { Kysely } from 'kysely';
import { now } from '../db/database';
import type { DB } from '../db/schema';
import { countTestimonials, insertTestimonials } from '../services/server/repository';
import testimonials from './testimonials.json' with { type: 'json' };

/** Demo mode starts with a few public testimonials so the open pages have something to show. */
export async function seedDemoData(db: Kysely<DB>): Promise<void> {
  if ((await countTestimonials(db)) > 0) return;
  await insertTestimonials(
    db,
    testimonials.map((t, position) => ({ testimonial: t.testimonial, author: t.author, server: t.server, server_size: t.serverSize, position })),
  );
}

export interface DemoStaffRoles {
  serverId: string;
  name: string;
  roleIds: string[];
}

/**
 * Until subjects name their staff roles, demo servers get theirs from the demo world, so the
 * demo's support staff sign in as Staff.
 */
export async function seedDemoStaffRoles(db: Kysely<DB>, servers: DemoStaffRoles[]): Promise<void> {
  const at = now();
  for (const server of servers) {
    await db
      .insertInto('servers')
      .values({ id: server.serverId, name: server.name, icon: null, owner_id: null, active: 1, plan: 'free', created_at: at, updated_at: at })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    for (const roleId of server.roleIds) {
      await db.insertInto('staff_roles').values({ server_id: server.serverId, role_id: roleId }).onConflict((oc) => oc.doNothing()).execute();
    }
  }
}
