import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../apps/server/src/db/schema';
import { hashSecret } from '../../apps/server/src/platform/crypto';

const WORDS = ['refund', 'order', 'login', 'password', 'invoice', 'crash', 'update', 'billing', 'account', 'payment', 'error', 'discord', 'role', 'ticket', 'help', 'bug', 'feature', 'server', 'channel', 'premium'];

/**
 * The schema the seed writes its rows into: the database is migrated up to this migration, seeded,
 * then migrated to the latest, so that every later migration derives what it keeps beside
 * tickets and messages (counters, statistics, list columns) from the seeded rows, as it does on
 * an installation that upgrades.
 */
export const SEED_SCHEMA = '0020-translations';

/** The moment of the first seeded ticket; ticket t opens t seconds later, and all its messages at the same moment. */
export const SEED_EPOCH = Date.parse('2026-01-01T00:00:00Z');

export interface SeedOptions {
  servers: number;
  tickets: number;
  messagesPerTicket: number;
  /** Ticket t's author (and writer of its messages) is userIds[t % userIds.length]. */
  userIds: string[];
}

/** The ids of the servers the seed creates. */
export const benchServerIds = (servers: number): string[] => Array.from({ length: servers }, (_, i) => String(1400000000000000000n + BigInt(i)));

/**
 * The texts of the seeded messages, in order: message g (the m-th of ticket t is g = t × messages
 * per ticket + m) says `lead[g]`, or past the lead `cycle[(g - lead.length) % cycle.length]`.
 * The cycle is 997 texts of eight words drawn from WORDS by a fixed pseudo-random sequence, so
 * texts differ and a search for two words finds only the texts that hold both; both engines'
 * seeds take their texts from here, so they hold the same ones.
 */
export function messageTexts(): { lead: string[]; cycle: string[] } {
  let state = 20_261_126;
  const next = () => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) >>> 16;
  const cycle = Array.from({ length: 997 }, () => Array.from({ length: 8 }, () => WORDS[next() % WORDS.length]!).join(' '));
  return { lead: [], cycle };
}

/** The text of seeded message g (see messageTexts). */
export function messageText(texts: { lead: string[]; cycle: string[] }, g: number): string {
  return g < texts.lead.length ? texts.lead[g]! : texts.cycle[(g - texts.lead.length) % texts.cycle.length]!;
}

/** The UTC day (YYYY-MM-DD) of the newest seeded ticket. */
export const lastSeededDay = (tickets: number): string => new Date(SEED_EPOCH + Math.max(0, tickets - 1) * 1000).toISOString().slice(0, 10);

/**
 * Fills a SQLite database migrated up to SEED_SCHEMA with servers, subjects, tickets (with their
 * authors as members), messages and their search documents, written as the server writes them
 * (the server's change counters follow from the schema's triggers).
 */
export function seedSqlite(file: string, { servers, tickets, messagesPerTicket, userIds }: SeedOptions): void {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const serverIds = benchServerIds(servers);
  const subjectOf = new Map<string, string>();
  const insertServer = db.prepare(`insert into servers (id, name, icon, owner_id, active, plan, created_at, updated_at) values (?, ?, null, null, 1, 'enterprise', ?, ?)`);
  const insertSubject = db.prepare(
    `insert into subjects (id, server_id, name, name_key, deleted, active, position, inherits_from, settings, created_at, updated_at) values (?, ?, 'Support', 'support', 0, 1, 0, null, '{}', ?, ?)`,
  );
  const insertTicket = db.prepare(
    `insert into tickets (id, server_id, subject_id, number, name, author_id, assignee_id, state, channel_id, template_answers, created_at, last_activity_at, closed_at, closed_by, close_reason, close_force, deleted, last_message_id, search_key)
     values (?, ?, ?, ?, ?, ?, null, ?, null, '[]', ?, ?, null, null, null, null, 0, null, ?)`,
  );
  const insertMember = db.prepare(`insert into ticket_members (ticket_id, user_id, added_at) values (?, ?, ?)`);
  const insertMessage = db.prepare(
    `insert into ticket_messages (id, ticket_id, server_id, external_id, author_id, message_type, body, history, modified, deleted, deleted_at, created_at) values (?, ?, ?, null, ?, ?, ?, '[]', 0, 0, null, ?)`,
  );
  const pointLastMessage = db.prepare(`update tickets set last_message_id = ? where id = ?`);
  // The search index's layout of migration 0009: server i gets base i + 1, a ticket's search_key is
  // its server's base × 2^23 plus its number, and a document's rowid is that key × 2^16 plus the
  // document's number within the ticket.
  const insertBase = db.prepare(`insert into search_bases (server_id, base) values (?, ?)`);
  const insertDoc = db.prepare(`insert into ticket_search (rowid, ticket_id, server_id, kind, ref_id, body) values (?, ?, ?, ?, ?, ?)`);
  const searchKey = (server: number, number: number) => (server + 1) * 2 ** 23 + number;
  const docRowid = (key: number, doc: number) => key * 2 ** 16 + doc;

  db.transaction(() => {
    const iso = new Date(SEED_EPOCH).toISOString();
    for (const [i, id] of serverIds.entries()) {
      insertServer.run(id, `Server ${id.slice(-4)}`, iso, iso);
      insertBase.run(id, i + 1);
      const subjectId = randomUUID();
      subjectOf.set(id, subjectId);
      insertSubject.run(subjectId, id, iso, iso);
    }
  })();

  const texts = messageTexts();
  const batch = 5000;
  for (let start = 0; start < tickets; start += batch) {
    db.transaction(() => {
      for (let t = start; t < Math.min(tickets, start + batch); t++) {
        const serverId = serverIds[t % servers]!;
        const id = randomUUID();
        const author = userIds[t % userIds.length]!;
        const created = new Date(SEED_EPOCH + t * 1000).toISOString();
        const number = Math.floor(t / servers) + 1;
        const key = searchKey(t % servers, number);
        const name = `ticket-${number}`;
        insertTicket.run(id, serverId, subjectOf.get(serverId)!, number, name, author, t % 3 === 0 ? 'Closed' : 'PendingStaff', created, created, key);
        insertMember.run(id, author, created);
        insertDoc.run(docRowid(key, 0), id, serverId, 'name', id, name);
        let lastMessageId: string | null = null;
        for (let m = 0; m < messagesPerTicket; m++) {
          const messageId = randomUUID();
          const content = messageText(texts, t * messagesPerTicket + m);
          insertMessage.run(messageId, id, serverId, author, m % 2 === 0 ? 'User' : 'Staff', JSON.stringify({ content, embeds: [], mentions: [], attachments: [] }), created);
          insertDoc.run(docRowid(key, m + 1), id, serverId, 'message', messageId, content);
          lastMessageId = messageId;
        }
        if (lastMessageId) pointLastMessage.run(lastMessageId, id);
      }
    })();
  }
  db.close();
}

/**
 * The installation's counters (migration 0021) set again from the tickets and messages held, as
 * that migration sets them: for a database an earlier bench seeded after that migration had run.
 */
export async function recountInstallation(db: Kysely<DB>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('counters').where('name', 'in', ['tickets', 'messages', 'open_tickets']).execute();
    await sql`insert into counters (name, value)
      select 'tickets', count(*) from tickets
      union all select 'messages', count(*) from ticket_messages
      union all select 'open_tickets', count(*) from tickets where deleted = 0 and state <> 'Closed'`.execute(trx);
  });
}

/** How many servers, tickets and messages the database holds. */
export async function seededCounts(db: Kysely<DB>): Promise<{ servers: number; tickets: number; messages: number }> {
  const count = async (table: 'servers' | 'tickets' | 'ticket_messages') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return { servers: await count('servers'), tickets: await count('tickets'), messages: await count('ticket_messages') };
}

export interface BenchSessions {
  /** A staff member of every seeded server. */
  staffToken: string;
  /** One session per seeded author: members with tickets of their own on several servers. */
  memberTokens: string[];
}

/** A user and a session of theirs (its token stored hashed), as the dashboard's sign-in leaves them; again, they are brought up to date. */
export async function signInUser(db: Kysely<DB>, user: { id: string; username: string; token: string; session: string }, expires: string): Promise<void> {
  const at = new Date().toISOString();
  await db
    .insertInto('users')
    .values({ id: user.id, username: user.username, global_name: null, created_at: at, updated_at: at })
    .onConflict((oc) => oc.column('id').doUpdateSet({ updated_at: at }))
    .execute();
  await db
    .insertInto('sessions')
    .values({ id: user.session, token_hash: hashSecret(user.token), user_id: user.id, created_at: at, expires_at: expires, last_used_at: at })
    .onConflict((oc) => oc.column('id').doUpdateSet({ token_hash: hashSecret(user.token), user_id: user.id, expires_at: expires, last_used_at: at }))
    .execute();
}

/**
 * Signs in, as the dashboard's sign-in leaves them, a staff member of every seeded server and each
 * seeded author: a user, a session (its token stored hashed) and, for the staff member, a
 * membership with the Staff role on each server. The bench asks with these session tokens, which
 * the API looks up (with the caller's role on the server) on every request.
 */
export async function signIn(db: Kysely<DB>, serverIds: string[], authorIds: string[]): Promise<BenchSessions> {
  const at = new Date().toISOString();
  const expires = new Date(Date.now() + 86_400_000).toISOString();
  const staffId = '1499999999999999999';
  const staffToken = 'tds_bench-staff-session';
  const memberTokens = authorIds.map((_, i) => `tds_bench-member-session-${i}`);
  const users = [
    { id: staffId, username: 'bench-staff', token: staffToken, session: 'bench-session' },
    ...authorIds.map((id, i) => ({ id, username: `bench-member-${i}`, token: memberTokens[i]!, session: `bench-member-session-${i}` })),
  ];
  await db.transaction().execute(async (trx) => {
    for (const user of users) await signInUser(trx, user, expires);
    for (let i = 0; i < serverIds.length; i += 500) {
      await trx
        .insertInto('memberships')
        .values(serverIds.slice(i, i + 500).map((serverId) => ({ user_id: staffId, server_id: serverId, role: 'Staff', nickname: null, avatar: null, role_ids: '[]', updated_at: at })))
        .onConflict((oc) => oc.columns(['user_id', 'server_id']).doUpdateSet({ role: 'Staff', updated_at: at }))
        .execute();
    }
  });
  return { staffToken, memberTokens };
}
