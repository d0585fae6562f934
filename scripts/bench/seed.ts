import { createHash, randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';

const WORDS = ['refund', 'order', 'login', 'password', 'invoice', 'crash', 'update', 'billing', 'account', 'payment', 'error', 'discord', 'role', 'ticket', 'help', 'bug', 'feature', 'server', 'channel', 'premium'];

export interface SeedOptions {
  file: string;
  servers: number;
  tickets: number;
  messagesPerTicket: number;
  userIds: string[];
}

/** The ids of the servers `seed` creates. */
export const benchServerIds = (servers: number): string[] => Array.from({ length: servers }, (_, i) => String(1400000000000000000n + BigInt(i)));

/**
 * A staff member of every seeded server, signed in: the bench asks as the dashboard does, with a
 * session token (looked up, with the member's role on the server, on every request). Returns it.
 */
export function signInStaff(file: string, serverIds: string[]): string {
  const token = 'tds_bench-staff-session';
  const userId = '1499999999999999999';
  const at = new Date().toISOString();
  const db = new SQLite(file);
  db.transaction(() => {
    db.prepare(`insert or replace into users (id, username, global_name, created_at, updated_at) values (?, 'bench-staff', 'Bench Staff', ?, ?)`).run(userId, at, at);
    const member = db.prepare(`insert or replace into memberships (user_id, server_id, role, nickname, avatar, role_ids, updated_at) values (?, ?, 'Staff', null, null, '[]', ?)`);
    for (const serverId of serverIds) member.run(userId, serverId, at);
    db.prepare(`insert or replace into sessions (id, token_hash, user_id, created_at, expires_at, last_used_at) values ('bench-session', ?, ?, ?, ?, ?)`).run(
      createHash('sha256').update(token).digest('hex'),
      userId,
      at,
      new Date(Date.now() + 86_400_000).toISOString(),
      at,
    );
  })();
  db.close();
  return token;
}

/** Fills a migrated SQLite database with servers, subjects, tickets, messages and their search documents. */
export function seed({ file, servers, tickets, messagesPerTicket, userIds }: SeedOptions): { serverIds: string[] } {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const at = new Date('2026-01-01T00:00:00Z').getTime();
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
    const iso = new Date(at).toISOString();
    for (const [i, id] of serverIds.entries()) {
      insertServer.run(id, `Server ${id.slice(-4)}`, iso, iso);
      insertBase.run(id, i + 1);
      const subjectId = randomUUID();
      subjectOf.set(id, subjectId);
      insertSubject.run(subjectId, id, iso, iso);
    }
  })();

  let word = 0;
  const sentence = () => {
    const parts: string[] = [];
    for (let i = 0; i < 8; i++) parts.push(WORDS[(word = (word * 7 + 3) % WORDS.length)]!);
    return parts.join(' ');
  };
  const batch = 5000;
  for (let start = 0; start < tickets; start += batch) {
    db.transaction(() => {
      for (let t = start; t < Math.min(tickets, start + batch); t++) {
        const serverId = serverIds[t % servers]!;
        const id = randomUUID();
        const author = userIds[t % userIds.length]!;
        const created = new Date(at + t * 1000).toISOString();
        const number = Math.floor(t / servers) + 1;
        const key = searchKey(t % servers, number);
        const name = `ticket-${number}`;
        insertTicket.run(id, serverId, subjectOf.get(serverId)!, number, name, author, t % 3 === 0 ? 'Closed' : 'PendingStaff', created, created, key);
        insertMember.run(id, author, created);
        insertDoc.run(docRowid(key, 0), id, serverId, 'name', id, name);
        let lastMessageId: string | null = null;
        for (let m = 0; m < messagesPerTicket; m++) {
          const messageId = randomUUID();
          const content = sentence();
          insertMessage.run(messageId, id, serverId, author, m % 2 === 0 ? 'User' : 'Staff', JSON.stringify({ content, embeds: [], mentions: [], attachments: [] }), created);
          insertDoc.run(docRowid(key, m + 1), id, serverId, 'message', messageId, content);
          lastMessageId = messageId;
        }
        if (lastMessageId) pointLastMessage.run(lastMessageId, id);
      }
    })();
  }
  db.close();
  return { serverIds };
}
