import { PostgresAdapter, sql, type Kysely, type Transaction } from 'kysely';
import { now } from '../../db/database';
import type { DB } from '../../db/schema';

type Db = Kysely<DB> | Transaction<DB>;

export interface LanguageRow {
  languageCode: string;
  name: string;
}

export async function listLanguages(db: Db): Promise<LanguageRow[]> {
  return db
    .selectFrom('languages')
    .select(['language_code as languageCode', 'name'])
    .orderBy('position')
    .orderBy('language_code')
    .execute();
}

export async function findLanguage(db: Db, code: string): Promise<LanguageRow | undefined> {
  return db.selectFrom('languages').select(['language_code as languageCode', 'name']).where('language_code', '=', code).executeTakeFirst();
}

/** Adds the language after the others; false when it is there already. */
export async function insertLanguage(db: Db, language: LanguageRow): Promise<boolean> {
  const last = await db.selectFrom('languages').select((eb) => eb.fn.max('position').as('position')).executeTakeFirst();
  const result = await db
    .insertInto('languages')
    .values({ language_code: language.languageCode, name: language.name, position: Number(last?.position ?? 0) + 1, created_at: now() })
    .onConflict((oc) => oc.column('language_code').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteLanguage(db: Db, code: string): Promise<boolean> {
  const result = await db.deleteFrom('languages').where('language_code', '=', code).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The servers whose bot speaks the language by default, by name. */
export async function serversSpeaking(db: Db, code: string): Promise<string[]> {
  const rows = await db
    .selectFrom('server_settings')
    .leftJoin('servers', 'servers.id', 'server_settings.server_id')
    .select(['server_settings.server_id as serverId', 'servers.name'])
    .where('server_settings.language', '=', code)
    .orderBy('servers.name')
    .execute();
  return rows.map((row) => row.name ?? row.serverId);
}

/** The subjects (not deleted) whose own language setting is the language: subject and server names. */
export async function subjectsSpeaking(db: Db, code: string): Promise<{ subject: string; server: string }[]> {
  const language =
    db.getExecutor().adapter instanceof PostgresAdapter ? sql<string>`subjects.settings->>'language'` : sql<string>`json_extract(subjects.settings, '$.language')`;
  const rows = await db
    .selectFrom('subjects')
    .leftJoin('servers', 'servers.id', 'subjects.server_id')
    .select(['subjects.name as subject', 'servers.name as server', 'subjects.server_id as serverId'])
    .where('subjects.deleted', '=', 0)
    .where(language, '=', code)
    .orderBy('servers.name')
    .orderBy('subjects.name')
    .execute();
  return rows.map((row) => ({ subject: row.subject, server: row.server ?? row.serverId }));
}

export interface FileRow {
  fileName: string;
  sourceLanguage: string;
  description: string | null;
  sourceStored: boolean;
  version: number;
}

export async function findFile(db: Db, fileName: string): Promise<FileRow | undefined> {
  const row = await db.selectFrom('translation_files').selectAll().where('file_name', '=', fileName).executeTakeFirst();
  return row && { fileName: row.file_name, sourceLanguage: row.source_language, description: row.description, sourceStored: row.source_stored === 1, version: Number(row.version) };
}

/** Records a change of the file (creating its row), and answers its new version. */
export async function touchFile(
  db: Db,
  file: { fileName: string; sourceLanguage: string; description?: string | null; sourceStored?: boolean },
): Promise<number> {
  const at = now();
  const row = await db
    .insertInto('translation_files')
    .values({
      file_name: file.fileName,
      source_language: file.sourceLanguage,
      description: file.description ?? null,
      source_stored: file.sourceStored ? 1 : 0,
      version: 1,
      updated_at: at,
    })
    .onConflict((oc) =>
      oc.column('file_name').doUpdateSet((eb) => ({
        version: eb('translation_files.version', '+', 1),
        updated_at: at,
        ...(file.description !== undefined ? { description: file.description } : {}),
        ...(file.sourceStored ? { source_stored: 1 } : {}),
      })),
    )
    .returning('version')
    .executeTakeFirstOrThrow();
  return Number(row.version);
}

/** The stored texts of a file in one language: key → text, null where a translation is due again. */
export async function storedTexts(db: Db, fileName: string, language: string): Promise<Map<string, string | null>> {
  const rows = await db.selectFrom('translation_texts').select(['key', 'text']).where('file_name', '=', fileName).where('language', '=', language).execute();
  return new Map(rows.map((row) => [row.key, row.text]));
}

/** Every language that has stored texts of the file. */
export async function storedLanguages(db: Db, fileName: string): Promise<string[]> {
  const rows = await db.selectFrom('translation_texts').select('language').distinct().where('file_name', '=', fileName).execute();
  return rows.map((row) => row.language);
}

/** Writes texts of one language (null: a translation is due again), replacing what was stored for those keys. */
export async function putTexts(db: Db, fileName: string, language: string, texts: [key: string, text: string | null][]): Promise<void> {
  const at = now();
  // Well under both engines' limits on bound values per statement.
  for (let i = 0; i < texts.length; i += 500) {
    await db
      .insertInto('translation_texts')
      .values(texts.slice(i, i + 500).map(([key, text]) => ({ file_name: fileName, language, key, text, updated_at: at })))
      .onConflict((oc) => oc.columns(['file_name', 'language', 'key']).doUpdateSet((eb) => ({ text: eb.ref('excluded.text'), updated_at: at })))
      .execute();
  }
}

/** Drops the keys from every language of the file. */
export async function deleteKeys(db: Db, fileName: string, keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 500) {
    await db.deleteFrom('translation_texts').where('file_name', '=', fileName).where('key', 'in', keys.slice(i, i + 500)).execute();
  }
}

/** Files stored beyond the shipped ones. */
export async function listFileNames(db: Db): Promise<string[]> {
  return (await db.selectFrom('translation_files').select('file_name').execute()).map((row) => row.file_name);
}
