import type { Kysely, Selectable, Transaction } from 'kysely';
import { fromFlag, fromJson, now, supportsRowLocks, toJson } from '../../db/database';
import type { DB, SubjectsTable } from '../../db/schema';

type Db = Kysely<DB> | Transaction<DB>;

export type SubjectRow = Selectable<SubjectsTable>;

export async function listSubjects(db: Db, serverIds: string[], includeDeleted = false): Promise<SubjectRow[]> {
  if (serverIds.length === 0) return [];
  let query = db.selectFrom('subjects').selectAll().where('server_id', 'in', serverIds);
  if (!includeDeleted) query = query.where('deleted', '=', 0);
  return query.orderBy('server_id').orderBy('position').orderBy('created_at').execute();
}

export async function findSubjectsByIds(db: Db, ids: string[]): Promise<SubjectRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('subjects').selectAll().where('id', 'in', ids).execute();
}

/** The subject, locked against concurrent writers until the transaction ends (PostgreSQL). */
export async function findSubject(db: Db, serverId: string, subjectId: string, lock = false): Promise<SubjectRow | undefined> {
  let query = db.selectFrom('subjects').selectAll().where('server_id', '=', serverId).where('id', '=', subjectId);
  if (lock && supportsRowLocks(db)) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function countLiveSubjects(db: Db, serverId: string): Promise<number> {
  const row = await db
    .selectFrom('subjects')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('server_id', '=', serverId)
    .where('deleted', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertSubject(db: Db, row: Omit<SubjectRow, 'created_at' | 'updated_at' | 'settings' | 'plan_inactive'> & { settings: unknown }): Promise<void> {
  const at = now();
  await db.insertInto('subjects').values({ ...row, settings: toJson(row.settings), created_at: at, updated_at: at }).execute();
}

export async function updateSubject(
  db: Db,
  subjectId: string,
  fields: Partial<Pick<SubjectRow, 'name' | 'name_key' | 'deleted' | 'active' | 'position' | 'inherits_from'>> & { settings?: unknown },
): Promise<void> {
  const { settings, ...rest } = fields;
  await db
    .updateTable('subjects')
    .set({ ...rest, ...(settings !== undefined ? { settings: toJson(settings) } : {}), updated_at: now() })
    .where('id', '=', subjectId)
    .execute();
}

export async function setPositions(db: Db, ordered: string[]): Promise<void> {
  for (const [position, id] of ordered.entries()) {
    await db.updateTable('subjects').set({ position }).where('id', '=', id).execute();
  }
}

/** Whether a live subject of the server other than `exceptId` already has that name key. */
export async function liveSubjectNamed(db: Db, serverId: string, nameKey: string, exceptId: string | null): Promise<boolean> {
  let query = db.selectFrom('subjects').select('id').where('server_id', '=', serverId).where('deleted', '=', 0).where('name_key', '=', nameKey);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Those of `ids` that are live subjects of the server. */
export async function liveSubjectIds(db: Db, serverId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('subjects').select('id').where('server_id', '=', serverId).where('deleted', '=', 0).where('id', 'in', ids).execute();
  return rows.map((r) => r.id);
}

// --- Server settings ------------------------------------------------------------------------

export async function findServerSettings(db: Db, serverId: string, lock = false) {
  let query = db.selectFrom('server_settings').selectAll().where('server_id', '=', serverId);
  if (lock && supportsRowLocks(db)) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function listServerSettings(db: Db, serverIds: string[]) {
  if (serverIds.length === 0) return [];
  return db.selectFrom('server_settings').selectAll().where('server_id', 'in', serverIds).execute();
}

export async function pageServerSettings(db: Db, offset: number, limit: number) {
  const [rows, total] = await Promise.all([
    db.selectFrom('server_settings').selectAll().orderBy('server_id').offset(offset).limit(limit).execute(),
    db.selectFrom('server_settings').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/** Creates the row if missing (defaults), so every write can lock it. */
export async function ensureServerSettings(db: Db, serverId: string, language = 'en'): Promise<void> {
  const at = now();
  await db
    .insertInto('server_settings')
    .values({ server_id: serverId, language, created_at: at, updated_at: at })
    .onConflict((oc) => oc.column('server_id').doNothing())
    .execute();
}

export async function updateServerSettings(db: Db, serverId: string, settings: { language: string; publicStats: boolean }): Promise<void> {
  await db
    .updateTable('server_settings')
    .set({ language: settings.language, public_stats: settings.publicStats ? 1 : 0, updated_at: now() })
    .where('server_id', '=', serverId)
    .execute();
}

/** Whether the bot is in the server. */
export async function isServerActive(db: Db, serverId: string): Promise<boolean> {
  const row = await db.selectFrom('servers').select('active').where('id', '=', serverId).executeTakeFirst();
  return row?.active === 1;
}

/** The platform role ids the member holds in the server, as last recorded. */
export async function memberRoleIds(db: Db, userId: string, serverId: string): Promise<string[]> {
  const row = await db.selectFrom('memberships').select('role_ids').where('user_id', '=', userId).where('server_id', '=', serverId).executeTakeFirst();
  return fromJson<string[]>(row?.role_ids ?? '[]');
}

export async function serverPlan(db: Db, serverId: string): Promise<string> {
  const row = await db.selectFrom('servers').select('plan').where('id', '=', serverId).executeTakeFirst();
  return row?.plan ?? 'free';
}

export async function serverPlans(db: Db, serverIds: string[]): Promise<Map<string, string>> {
  if (serverIds.length === 0) return new Map();
  const rows = await db.selectFrom('servers').select(['id', 'plan']).where('id', 'in', serverIds).execute();
  return new Map(rows.map((r) => [r.id, r.plan]));
}

// --- Templates ------------------------------------------------------------------------------

export async function listTemplates(db: Db, serverId: string, subjectId?: string) {
  let query = db.selectFrom('templates').selectAll().where('server_id', '=', serverId);
  if (subjectId) query = query.where('subject_id', '=', subjectId);
  return query.orderBy('subject_id').orderBy('position').execute();
}

export async function templateIdsBySubject(db: Db, subjectIds: string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  if (subjectIds.length === 0) return map;
  const rows = await db
    .selectFrom('templates')
    .select(['id', 'subject_id'])
    .where('subject_id', 'in', subjectIds)
    .orderBy('position')
    .execute();
  for (const row of rows) map.set(row.subject_id, [...(map.get(row.subject_id) ?? []), row.id]);
  return map;
}

export async function findTemplate(db: Db, serverId: string, templateId: string) {
  return db.selectFrom('templates').selectAll().where('server_id', '=', serverId).where('id', '=', templateId).executeTakeFirst();
}

export async function findTemplates(db: Db, serverId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('templates').selectAll().where('server_id', '=', serverId).where('id', 'in', ids).execute();
}

export async function insertTemplate(db: Db, row: { id: string; server_id: string; subject_id: string; position: number; question: unknown }): Promise<void> {
  const at = now();
  await db.insertInto('templates').values({ ...row, question: toJson(row.question), created_at: at, updated_at: at }).execute();
}

export async function updateTemplate(db: Db, templateId: string, fields: { position: number; question: unknown }): Promise<void> {
  await db
    .updateTable('templates')
    .set({ position: fields.position, question: toJson(fields.question), updated_at: now() })
    .where('id', '=', templateId)
    .execute();
}

export async function setTemplatePositions(db: Db, ordered: string[]): Promise<void> {
  for (const [position, id] of ordered.entries()) {
    await db.updateTable('templates').set({ position }).where('id', '=', id).execute();
  }
}

export async function deleteTemplate(db: Db, templateId: string): Promise<void> {
  await db.deleteFrom('templates').where('id', '=', templateId).execute();
}

// --- Audit log ------------------------------------------------------------------------------

export interface AuditRecord {
  id: string;
  server_id: string;
  subject_id: string | null;
  actor_kind: string;
  actor_id: string | null;
  action: string;
  path: string | null;
  old_value: unknown;
  new_value: unknown;
}

export async function insertAudit(db: Db, records: AuditRecord[]): Promise<void> {
  if (records.length === 0) return;
  const at = now();
  await db
    .insertInto('audit_log')
    .values(
      records.map((r) => ({
        ...r,
        // Wrapped, because a bare JSON string in jsonb would come back already parsed and ambiguous.
        old_value: toJson({ v: r.old_value ?? null }),
        new_value: toJson({ v: r.new_value ?? null }),
        created_at: at,
      })),
    )
    .execute();
}

export async function pageAudit(db: Db, serverId: string, subjectId: string | undefined, offset: number, limit: number) {
  let base = db.selectFrom('audit_log').where('audit_log.server_id', '=', serverId);
  if (subjectId) base = base.where('audit_log.subject_id', '=', subjectId);
  const [rows, total] = await Promise.all([
    base
      .leftJoin('users', 'users.id', 'audit_log.actor_id')
      .leftJoin('subjects', 'subjects.id', 'audit_log.subject_id')
      .selectAll('audit_log')
      .select(['users.username as actor_name', 'users.global_name as actor_global_name', 'subjects.name as subject_name'])
      .orderBy('audit_log.created_at', 'desc')
      .orderBy('audit_log.id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export const isLive = (row: SubjectRow) => !fromFlag(row.deleted);
