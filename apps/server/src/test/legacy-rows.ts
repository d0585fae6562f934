import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { GUILDS, USERS } from './demo-world';

/**
 * Rows as an installation wrote them before later migrations added columns, for upgrade tests:
 * only the columns every schema since migration 0008 has, with a ticket of Pixel Forge by Eli.
 */
export function legacyTicket(id: string, number: number, fields: { state?: string; created_at?: string; last_message_id?: string | null } = {}) {
  const at = fields.created_at ?? '2026-03-01T10:00:00.000Z';
  return {
    id,
    server_id: GUILDS.pixelForge,
    subject_id: 'subject',
    number,
    name: id,
    author_id: USERS.eli,
    assignee_id: null,
    state: fields.state ?? 'PendingStaff',
    channel_id: null,
    template_answers: '[]',
    created_at: at,
    last_activity_at: at,
    closed_at: null,
    closed_by: null,
    close_reason: null,
    close_force: null,
    last_message_id: fields.last_message_id ?? null,
    search_key: null,
    deleted: 0,
  };
}

/** A server as every schema has written it, on the free plan. */
export function legacyServer(id: string, name: string, at = '2026-03-01T10:00:00.000Z') {
  return { id, name, icon: null, owner_id: null, active: 1, plan: 'free', created_at: at, updated_at: at };
}

export function legacyMessage(id: string, ticketId: string, fields: { author_id: string; message_type: string; created_at: string; content?: string }) {
  return {
    id,
    ticket_id: ticketId,
    server_id: GUILDS.pixelForge,
    external_id: null,
    author_id: fields.author_id,
    message_type: fields.message_type,
    body: fields.content === undefined ? '{}' : JSON.stringify({ content: fields.content, embeds: [], mentions: [], attachments: [] }),
    history: '[]',
    modified: 0,
    deleted: 0,
    deleted_at: null,
    created_at: fields.created_at,
  };
}

/**
 * Adds a membership as the server wrote it from migration 0024 to 0031: with the ticket's last
 * activity, without its server; or, given the server, as it wrote it from 0032 to 0033: without
 * the ticket's search key.
 */
export async function insertLegacyMember(db: Kysely<DB>, ticketId: string, userId: string, at = '2026-03-01T10:00:00.000Z', serverId?: string): Promise<void> {
  if (serverId === undefined) {
    await sql`insert into ticket_members (ticket_id, user_id, added_at, last_activity_at) values (${ticketId}, ${userId}, ${at}, ${at})`.execute(db);
  } else {
    await sql`insert into ticket_members (ticket_id, user_id, added_at, last_activity_at, server_id) values (${ticketId}, ${userId}, ${at}, ${at}, ${serverId})`.execute(db);
  }
}
