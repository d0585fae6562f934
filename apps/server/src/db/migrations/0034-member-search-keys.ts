import { type Kysely, type Migration, sql } from 'kysely';
import type { Engine } from '../database';

/**
 * SQLite: each membership holds its ticket's search key (migration 0009; a ticket's key never
 * changes), written with it as its server is (migration 0032), and a member's index in list order
 * carries it, as the live tickets' index carries theirs. A member's search then keeps their
 * matching tickets off that index alone, and counts them with no ticket looked up: joining each of
 * 40,000 memberships to its ticket to reach the key took 310–367 ms at a million tickets, against
 * 16 ms for the words' index to find the 38,795 matches.
 * PostgreSQL finds a member's matches by their ticket's id (migration 0031); it gets the column,
 * unused, so the schema is one.
 */
export const memberSearchKeysMigration = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    // The type of the ticket's own column (migration 0007).
    await sql`alter table ticket_members add column search_key integer`.execute(db);
    if (engine !== 'sqlite') return;
    await sql`update ticket_members set search_key = tickets.search_key from tickets where tickets.id = ticket_members.ticket_id`.execute(db);
    await sql`drop index ticket_members_activity_idx`.execute(db);
    await sql`create index ticket_members_activity_idx on ticket_members (user_id, last_activity_at desc, ticket_id desc, search_key)`.execute(db);
  },
});
