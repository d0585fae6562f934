// @ts-check
/*
 * The thread of a SQLite reader (sqlite-reader.ts): its own read-only connection to the database's
 * file, which runs the statements it is sent, one at a time, and answers each with its rows as
 * arrays (and their columns' names), or with the error SQLite gave. It is plain JavaScript, so that
 * Node runs it as it is, from the sources and beside the built server alike.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

/** @type {{ file: string; cacheKib: number; statements: number }} */
const { file, cacheKib, statements: kept } = workerData;
const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
sqlite.pragma('busy_timeout = 5000');
sqlite.pragma(`cache_size = -${cacheKib}`);

/** Compiled statements by their text, the most recently used last (as the API's own connection keeps them). */
const statements = new Map();

/** @param {string} text */
function prepared(text) {
  let entry = statements.get(text);
  if (entry) {
    statements.delete(text);
  } else {
    const statement = sqlite.prepare(text);
    if (!statement.reader) throw Object.assign(new Error(`A SQLite reader runs reads only, not: ${text.slice(0, 80)}`), { code: 'SQLITE_READONLY' });
    statement.raw(true);
    entry = { statement, columns: statement.columns().map((column) => column.name) };
    if (statements.size >= kept) statements.delete(statements.keys().next().value);
  }
  statements.set(text, entry);
  return entry;
}

const port = parentPort;
if (!port) throw new Error('sqlite-reader-worker.mjs runs as a worker thread');
port.on('message', (/** @type {{ id: number; sql: string; parameters: unknown[] }} */ { id, sql, parameters }) => {
  try {
    const { statement, columns } = prepared(sql);
    port.postMessage({ id, columns, rows: statement.all(parameters) });
  } catch (error) {
    const { message, code } = /** @type {{ message?: string; code?: string }} */ (error);
    port.postMessage({ id, error: { message: String(message ?? error), code } });
  }
});
