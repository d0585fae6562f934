import type { PlanType } from '@ticket/contracts';
import type { Kysely } from 'kysely';
import { now } from '../db/database';
import type { DB } from '../db/schema';
import { countTestimonials, insertTestimonials } from '../services/server/repository';
import type { SettingsService } from '../services/settings/service';
import testimonials from './testimonials.json' with { type: 'json' };

/** Demo mode starts with a few public testimonials so the open pages have something to show. */
export async function seedDemoData(db: Kysely<DB>): Promise<void> {
  if ((await countTestimonials(db)) > 0) return;
  await insertTestimonials(
    db,
    testimonials.map((t, position) => ({ testimonial: t.testimonial, author: t.author, server: t.server, server_size: t.serverSize, position })),
  );
}

export interface DemoServer {
  serverId: string;
  name: string;
  /** The platform's owner of the server: the buyer of its plan. */
  ownerId: string;
  /**
   * The plan the demo gives the server. It is never written to the server directly: a paid one is
   * a subscription its owner buys (demo/subscriptions.ts), and the server's plan follows from it.
   */
  plan: PlanType;
  /** Roles whose holders are support staff; the demo gives them a first subject. */
  staffRoleIds: string[];
}

/** What the demo needs of a fixture server (apps/sandbox/fixtures/demo.json). */
export interface DemoGuild {
  id: string;
  name: string;
  owner_id: string;
  botMember: boolean;
  roles: { id: string; name: string }[];
}

/** The servers the bot is in, each on another plan in turn (Free, Premium, Enterprise), so every plan's screens can be tried. */
export function demoServersOf(guilds: DemoGuild[]): DemoServer[] {
  const plans: PlanType[] = ['free', 'premium', 'enterprise'];
  return guilds
    .filter((g) => g.botMember)
    .map((g, i) => ({
      serverId: g.id,
      name: g.name,
      ownerId: g.owner_id,
      plan: plans[i % plans.length]!,
      staffRoleIds: g.roles.filter((r) => r.name === 'Support Staff').map((r) => r.id),
    }));
}

/**
 * Demo servers are recorded (on Free until a subscription says otherwise), and those with a
 * support-staff role get a first subject naming it, so the demo's staff sign in as Staff and the
 * settings have something in them.
 */
export async function seedDemoServers(db: Kysely<DB>, settings: SettingsService, servers: DemoServer[]): Promise<void> {
  const at = now();
  const operator = { kind: 'admin' } as const;
  for (const server of servers) {
    await db
      .insertInto('servers')
      .values({ id: server.serverId, name: server.name, icon: null, owner_id: server.ownerId, active: 1, plan: 'free', created_at: at, updated_at: at })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    if (server.staffRoleIds.length === 0 || (await settings.listSubjects(server.serverId)).length > 0) continue;
    const subject = await settings.createSubject(operator, server.serverId, 'General Support');
    await settings.updateSubject(operator, server.serverId, subject.subjectId, {
      serverId: server.serverId,
      subjectId: subject.subjectId,
      path: 'staffRoles.value',
      operation: 'set',
      value: server.staffRoleIds,
    });
  }
}
