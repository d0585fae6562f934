import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export type Db = Database.Database;

const MIGRATIONS: string[] = [
  `CREATE TABLE sessions (
     shard_id INTEGER PRIMARY KEY,
     session_id TEXT NOT NULL,
     sequence INTEGER NOT NULL,
     resume_url TEXT NOT NULL,
     shard_count INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   );
   CREATE TABLE reports (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     lane TEXT NOT NULL,
     payload TEXT NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_at INTEGER NOT NULL DEFAULT 0,
     created_at INTEGER NOT NULL
   );`,
];

/**
 * The runtime's own SQLite file: its shards' sessions and its queue of reports. One process owns
 * it (exclusive lock), since two runtimes draining one queue would send every report twice.
 */
export function openStore(file: string): Db {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file, { timeout: 0 });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('synchronous = NORMAL');
    const version = db.pragma('user_version', { simple: true }) as number;
    db.transaction(() => {
      for (let v = version; v < MIGRATIONS.length; v++) db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${MIGRATIONS.length}`);
    }).immediate();
  } catch (error) {
    db.close();
    if (error instanceof Error && /locked|busy/i.test(error.message)) {
      throw new Error(`${file} is in use by another bot runtime: give each runtime its own DATA_DIR or SHARD_IDS`, { cause: error });
    }
    throw error;
  }
  return db;
}
