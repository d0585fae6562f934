import { Worker } from 'node:worker_threads';
import {
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { DB } from './schema';

/*
 * SQLite answers on the thread that asks it: a statement the API runs holds the API's only thread
 * (its requests, its JSON, its timers) for as long as SQLite reads. A reader is a connection of its
 * own, read-only, on a worker thread: a long read (a search) runs there, on another core, while the
 * API goes on. SQLite's WAL lets it read beside the API's own connection, which still does every
 * write: each of the reader's statements sees every write committed before it starts (the API's
 * writes commit before they answer), none of a transaction still open.
 */

/** A row as Kysely expects it (an object by column name), from a row read as an array. */
export type RowBuilder = (row: unknown[]) => Record<string, unknown>;

/**
 * Builds rows by column name faster than one property at a time: a function made once for the
 * names, which V8 runs as a plain object literal (a page of the ticket list, 25 rows of 20 columns:
 * 0.10 ms, against 0.17 ms for better-sqlite3's own objects). A repeated name keeps its last value.
 * A column named `__proto__` is written as a computed key, so it becomes a column like any other,
 * never the object's prototype.
 */
export function rowBuilder(names: readonly string[]): RowBuilder {
  const key = (name: string) => (name === '__proto__' ? '["__proto__"]' : JSON.stringify(name));
  return new Function('row', `return { ${names.map((name, i) => `${key(name)}: row[${i}]`).join(', ')} };`) as RowBuilder;
}

export interface ReaderOptions {
  /**
   * Pages the reader keeps in memory, in KiB (as `cache_size`): 8 MB unless given. With the 32 MB
   * of the API's own connection, the API held 245 MB at its peak over a search bench at a million
   * tickets (budget 250), against 218 MB with 8 MB, for as many searches a second.
   */
  cacheKib?: number;
  /** Compiled statements it keeps. */
  statements?: number;
}

/** A statement as it is posted to the reader's thread (the bench's `--explain` records these). */
export type ReaderStatement = { id: number; sql: string; parameters: readonly unknown[] };

type Answer = { id: number; columns: string[]; rows: unknown[][] } | { id: number; error: { message: string; code?: string } };

/** A reader's thread and the statements waiting for it; a thread that dies is started again by the next statement. */
class ReaderThread {
  #worker: Worker | null = null;
  #waiting = new Map<number, { resolve: (answer: Answer) => void; reject: (error: Error) => void }>();
  #next = 0;
  #closed = false;

  constructor(
    private readonly file: string,
    private readonly options: Required<ReaderOptions>,
  ) {}

  run(sql: string, parameters: readonly unknown[]): Promise<Answer> {
    if (this.#closed) return Promise.reject(new Error('The SQLite reader is closed'));
    const worker = this.#started();
    const id = this.#next++;
    const answer = new Promise<Answer>((resolve, reject) => this.#waiting.set(id, { resolve, reject }));
    // The thread keeps the process alive only while statements wait for it.
    if (this.#waiting.size === 1) worker.ref();
    const statement: ReaderStatement = { id, sql, parameters };
    worker.postMessage(statement);
    return answer;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = null;
    if (worker) await worker.terminate();
    this.#fail(new Error('The SQLite reader closed before it answered'));
  }

  #started(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(new URL('./sqlite-reader-worker.mjs', import.meta.url), {
      workerData: { file: this.file, cacheKib: this.options.cacheKib, statements: this.options.statements },
      // Its rows are a page at a time: a small heap is plenty.
      resourceLimits: { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 },
    });
    worker.unref();
    worker.on('message', (answer: Answer) => {
      const waiting = this.#waiting.get(answer.id);
      if (!waiting) return;
      this.#waiting.delete(answer.id);
      if (this.#waiting.size === 0) worker.unref();
      waiting.resolve(answer);
    });
    const ended = (error: Error) => {
      if (this.#worker !== worker) return;
      this.#worker = null;
      this.#fail(error);
    };
    worker.on('error', ended);
    worker.on('exit', (code) => ended(new Error(`The SQLite reader's thread exited (code ${code})`)));
    this.#worker = worker;
    return worker;
  }

  #fail(error: Error): void {
    for (const { reject } of this.#waiting.values()) reject(error);
    this.#waiting.clear();
  }
}

/** The connection Kysely gets: every statement goes to the thread; rows come back as objects. */
class ReaderConnection implements DatabaseConnection {
  /** Row builders by statement text (the thread keeps as many compiled statements). */
  #builders = new Map<string, RowBuilder>();

  constructor(
    private readonly thread: ReaderThread,
    private readonly kept: number,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const answer = await this.thread.run(query.sql, query.parameters);
    if ('error' in answer) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
    let build = this.#builders.get(query.sql);
    if (build === undefined) {
      build = rowBuilder(answer.columns);
      if (this.#builders.size >= this.kept) this.#builders.delete(this.#builders.keys().next().value as string);
      this.#builders.set(query.sql, build);
    }
    return { rows: answer.rows.map(build) as R[] };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('A SQLite reader answers whole statements, not streams');
  }
}

const noTransactions = () => Promise.reject(new Error('A SQLite reader runs single reads, not transactions'));

class ReaderDriver implements Driver {
  readonly #connection: ReaderConnection;

  constructor(private readonly thread: ReaderThread, kept: number) {
    this.#connection = new ReaderConnection(thread, kept);
  }

  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    // Statements wait in the thread's queue, in order: no connection is held for another.
    return this.#connection;
  }
  beginTransaction = noTransactions;
  commitTransaction = noTransactions;
  rollbackTransaction = noTransactions;
  async releaseConnection(): Promise<void> {}
  destroy(): Promise<void> {
    return this.thread.close();
  }
}

/**
 * A reader of the SQLite database in `file` (which must exist, in WAL mode, as `openDatabase`
 * opens it): a Kysely instance whose statements run on a worker thread, started by the first of
 * them. It runs reads only (a write is refused by its statement) and no transaction. `close()`
 * ends its thread (Kysely's own `destroy()` does nothing for an instance that never ran anything),
 * and every statement after is refused.
 */
export function openSqliteReader(file: string, options: ReaderOptions = {}): { db: Kysely<DB>; close(): Promise<void> } {
  const settled: Required<ReaderOptions> = { cacheKib: options.cacheKib ?? 8_192, statements: options.statements ?? 500 };
  const thread = new ReaderThread(file, settled);
  const dialect: Dialect = {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new ReaderDriver(thread, settled.statements),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
  return { db: new Kysely<DB>({ dialect }), close: () => thread.close() };
}
