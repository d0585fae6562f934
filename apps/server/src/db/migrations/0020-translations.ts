import { UI_LANGUAGES } from '@ticket/contracts';
import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../database';

/**
 * The translations service: the languages texts can be translated into (the UI's 39 to start
 * with; operators add and remove others), and what operators stored of translation files over the
 * shipped ones: a file's own source texts once uploaded, and per language and key a corrected
 * translation or the mark that the source text changed since (null text: it reads in the source
 * language until translated again). `version` counts the changes of a file: answers in memory and
 * in browsers are told apart by it.
 */
export const translationsMigration = (_engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('languages')
      .addColumn('language_code', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    const at = new Date().toISOString();
    await (db as Kysely<{ languages: { language_code: string; name: string; position: number; created_at: string } }>)
      .insertInto('languages')
      .values(UI_LANGUAGES.map((language, position) => ({ language_code: language.code, name: language.name, position, created_at: at })))
      .execute();

    await db.schema
      .createTable('translation_files')
      .addColumn('file_name', 'text', (c) => c.primaryKey())
      .addColumn('source_language', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('source_stored', 'integer', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('translation_texts')
      .addColumn('file_name', 'text', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('text', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('translation_texts_pk', ['file_name', 'language', 'key'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('translation_texts').execute();
    await db.schema.dropTable('translation_files').execute();
    await db.schema.dropTable('languages').execute();
  },
});
