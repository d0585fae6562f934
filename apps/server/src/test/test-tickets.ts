import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { now, toJson } from '../db/database';
import type { DB } from '../db/schema';
import { addMember } from '../services/support/repository';

/** A ticket as the tickets service would record it, written straight into the tables (tests only). */
export async function insertTicket(
  db: Kysely<DB>,
  ticket: { serverId: string; subjectId: string; authorId: string; members?: string[] },
): Promise<string> {
  const id = randomUUID();
  const at = now();
  const last = await db
    .selectFrom('tickets')
    .select((eb) => eb.fn.max('number').as('n'))
    .where('server_id', '=', ticket.serverId)
    .executeTakeFirst();
  const number = Number(last?.n ?? 0) + 1;
  await db
    .insertInto('tickets')
    .values({
      id,
      server_id: ticket.serverId,
      subject_id: ticket.subjectId,
      number,
      name: `ticket-${number}`,
      author_id: ticket.authorId,
      assignee_id: null,
      state: 'PendingStaff',
      channel_id: null,
      template_answers: toJson([]),
      created_at: at,
      last_activity_at: at,
      closed_at: null,
      closed_by: null,
      close_reason: null,
      close_force: null,
      deleted: 0,
    })
    .execute();
  for (const userId of ticket.members ?? []) await addMember(db, id, userId);
  return id;
}
