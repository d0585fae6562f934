import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect, sql, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import type { DB } from './schema';
import { migrateToLatest } from './migrate';
import { scopedIndexText } from './search-terms';
import { openSqliteReader, rowBuilder } from './sqlite-reader';

export type Engine = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  engine: Engine;
  /**
   * For long reads (a search): on SQLite in a file, a reader on a thread of its own
   * (sqlite-reader.ts), so that the API's thread goes on meanwhile; otherwise `db` itself. Reads
   * only, outside any transaction.
   */
  reads: Kysely<DB>;
  destroy(): Promise<void>;
  /** A cheap round trip, for health checks. */
  ping(): Promise<void>;
}

// int8 (counts, sums) would otherwise arrive as strings; our values stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(1700, (v) => Number.parseFloat(v));

export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//.test(url);

/** The file a SQLite URL names (`sqlite://path`, `file:path` or a bare path); `:memory:` when it names none. */
export function sqliteFile(url: string): string {
  const file = url.replace(/^sqlite:\/\//, '').replace(/^file:/, '');
  return file === '' ? ':memory:' : file;
}

export interface OpenOptions {
  /** PostgreSQL schema to use (created if missing); tests get a fresh one each. */
  schema?: string;
  migrate?: boolean;
  /** PostgreSQL: connections kept open at most (10 unless given). */
  poolSize?: number;
}

/** Statements to prepare on PostgreSQL, by their text: the name each is prepared under. */
const preparedStatements = new Map<string, string>();

/**
 * PostgreSQL prepares this statement once per connection and runs it by name after. It then skips
 * parsing the text, and once it finds its general plan as good as one made for each call's values
 * (after five calls), planning too: a session's lookup took 0.035 ms to plan for 0.015 ms of
 * reading, a statistics read 0.1 ms. A page whose LIMIT or OFFSET is a value keeps a plan made
 * for each call (PostgreSQL prices a general plan as if it read a tenth of the rows), and so does
 * a condition that a partial index's predicate must match (`deleted = 0`) when it is a value: a
 * list's first page has both written in (`reusableQuery`'s `written`). Only for statements whose
 * text is fixed while their values change (`reusableQuery`).
 */
export function prepareOnPostgres(text: string): void {
  if (!preparedStatements.has(text)) preparedStatements.set(text, `q${createHash('sha256').update(text).digest('hex').slice(0, 32)}`);
}

/**
 * A pool's connections run the statements of `prepareOnPostgres` by name (Kysely sends the text
 * and values). The client's own `query` is looked up on each call, so that whatever wraps it
 * (the bench's recording of statements) sees these too.
 */
function runPreparedByName(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    client.query = ((...args: unknown[]) => {
      const query = (Object.getPrototypeOf(client) as { query: (...a: unknown[]) => unknown }).query;
      const [text, values] = args;
      const name = args.length === 2 && typeof text === 'string' && Array.isArray(values) ? preparedStatements.get(text) : undefined;
      return name ? query.call(client, { name, text, values }) : query.apply(client, args);
    }) as typeof client.query;
  });
}

export async function openDatabase(url: string, options: OpenOptions = {}): Promise<Database> {
  let database: Database;
  if (isPostgresUrl(url)) {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      // A connection idle for 5 minutes closes (node-postgres closes it after 10 s by default). A new
      // one costs a process on the server and that process's first reads of the shared cache: after
      // 12 s without a call, a search's words took 24–25 ms to count on a new connection, 4.5 ms on
      // the one kept open (2 ms when asked again).
      idleTimeoutMillis: 300_000,
      // Idle connections do not keep a process from exiting.
      allowExitOnIdle: true,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    runPreparedByName(pool);
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    if (options.schema) await sql`create schema if not exists ${sql.id(options.schema)}`.execute(db);
    database = {
      db,
      engine: 'postgres',
      reads: db,
      destroy: () => db.destroy(),
      ping: async () => void (await sql`select 1`.execute(db)),
    };
  } else {
    const file = sqliteFile(url);
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // Pages kept in memory (32 MB, SQLite's default is 2 MB): a list reads rows all over the tables.
    sqlite.pragma('cache_size = -32768');
    // What the search index holds of a text (migration 0026 fills the index with it).
    sqlite.function('search_index_text', { deterministic: true }, (serverId: unknown, body: unknown) => scopedIndexText(String(serverId), String(body ?? '')));
    const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    // A database in memory is this connection's alone: nothing else can read it.
    const reader = file === ':memory:' ? null : openSqliteReader(file);
    database = {
      db,
      engine: 'sqlite',
      reads: reader?.db ?? db,
      destroy: async () => {
        await reader?.close();
        await db.destroy();
      },
      ping: async () => void (await sql`select 1`.execute(db)),
    };
  }
  if (options.migrate !== false) await migrateToLatest(database.db, database.engine, undefined, options.schema);
  return database;
}

/** A prepared statement as Kysely uses it. */
type Statement = ReturnType<SqliteDatabase['prepare']>;

/**
 * Rows as Kysely expects them (an object by column name), built by `rowBuilder` from rows read as
 * arrays (better-sqlite3 adds each column to a new object one by one), as the reader's are.
 */
function withRowsByName(statement: SQLite.Statement): Statement {
  if (!statement.reader) return statement;
  const named = rowBuilder(statement.columns().map((column) => column.name));
  statement.raw(true);
  return {
    reader: true,
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(named),
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const row of statement.iterate(parameters) as IterableIterator<unknown[]>) yield named(row);
    },
  };
}

/**
 * Kysely prepares every query it runs, and better-sqlite3 compiles SQL on each prepare. The same
 * text reuses its compiled statement instead (the most recently used few hundred are kept). Kysely
 * runs one query at a time on its single SQLite connection, so a statement is never busy twice.
 */
function withStatementCache(sqlite: SQLite.Database, max = 500): SqliteDatabase {
  const statements = new Map<string, Statement>();
  return {
    close: () => void sqlite.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (statement) {
        statements.delete(text);
      } else {
        statement = withRowsByName(sqlite.prepare(text));
        if (statements.size >= max) statements.delete(statements.keys().next().value as string);
      }
      statements.set(text, statement);
      return statement;
    },
  };
}

/** JSON columns are text in SQLite and jsonb in PostgreSQL; both accept a JSON string on write. */
export const toJson = (value: unknown): string => JSON.stringify(value);

export function fromJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/** Flags are stored as 0/1 integers in both engines (SQLite has no boolean to bind). */
export const toFlag = (value: boolean): number => (value ? 1 : 0);
export const fromFlag = (value: number | boolean | null | undefined): boolean => value === 1 || value === true;

/** Timestamps are stored as fixed-width UTC ISO-8601 text in both engines, so they sort and compare as text. */
export const now = (): string => new Date().toISOString();
export const toTimestamp = (date: Date | number): string => new Date(date).toISOString();

/** Row locks exist only in PostgreSQL; SQLite serialises write transactions on its own. */
export const supportsRowLocks = (db: Kysely<DB> | { getExecutor(): { adapter: unknown } }): boolean =>
  db.getExecutor().adapter instanceof PostgresAdapter;

/** A unique index refused the write (SQLite and PostgreSQL word it differently). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '');
}
