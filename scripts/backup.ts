/**
 * `npm run backup`: a consistent copy of the product's database, taken while the server runs. The
 * database is the one the server opens: DATABASE_URL, else <DATA_DIR>/dashboard.db.
 *
 * SQLite: SQLite's online backup into one file, by default backups/<name>-<UTC time>.db in the
 * directory that holds the data directory (`backups/` beside `data/`), so replacing the data
 * directory leaves the backups alone. The copy is then opened read-only and checked
 * (`PRAGMA integrity_check`), and its size and ticket count are printed.
 *
 * PostgreSQL: prints the pg_dump line for the configured URL and the matching pg_restore line,
 * and runs pg_dump only when asked to (`--run`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../apps/server/src/config';
import { backupSqlite, backupTimestamp, databaseName, postgresBackupCommands } from '../apps/server/src/db/backup';
import { isPostgresUrl } from '../apps/server/src/db/database';

const USAGE = `Usage: npm run backup [-- --out FILE] [--run]

Copies the database the server uses (DATABASE_URL, else <DATA_DIR>/dashboard.db) while it runs.
  SQLite      writes FILE, by default backups/<name>-<UTC time>.db beside the data directory
              (./backups/ with the default DATA_DIR=data), checks it, prints its size and ticket count.
  PostgreSQL  prints the pg_dump and pg_restore lines; with --run, runs pg_dump into FILE
              (by default backups/<name>-<UTC time>.dump beside the data directory).
Options:
  --out FILE  where the copy goes (never overwritten)
  --run       PostgreSQL only: run pg_dump (it must be on PATH)
  --help      this text`;

function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

async function main(): Promise<number> {
  let values: { out?: string; run: boolean; help: boolean };
  try {
    ({ values } = parseArgs({
      options: { out: { type: 'string' }, run: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  // The backup needs no encryption key: handing loadConfig one keeps it from asking for the
  // server's or generating one under the data directory.
  const config = loadConfig(process.env, { encryptionKey: Buffer.alloc(32) });
  const url = config.databaseUrl;
  const postgres = isPostgresUrl(url);
  const fallback = path.join(path.dirname(config.dataDir), 'backups', `${databaseName(url)}-${backupTimestamp()}.${postgres ? 'dump' : 'db'}`);
  const out = path.resolve(values.out ?? fallback);

  if (!postgres) {
    if (values.run) console.log('(--run applies to PostgreSQL only; SQLite is copied directly.)');
    const backup = await backupSqlite(url, out);
    console.log(`Backup written: ${backup.file}`);
    console.log(`Size: ${sizeOf(backup.bytes)} (${backup.bytes} bytes, ${backup.pages} pages)`);
    console.log(`integrity_check: ${backup.integrity.join('; ')}`);
    console.log(`Tickets: ${backup.tickets ?? 'none (the database has no tickets table)'}${backup.messages === null ? '' : `, messages: ${backup.messages}`}`);
    return 0;
  }

  const commands = postgresBackupCommands(url, out);
  const secret = 'PGPASSWORD' in commands.env;
  console.log('PostgreSQL: back up with pg_dump (custom format, no ownership):');
  console.log(`  ${commands.dump.line}`);
  console.log('Restore into a fresh, empty database (server stopped), then start the server:');
  console.log(`  ${commands.restore.line}`);
  if (secret) console.log('The password in DATABASE_URL is left out of these lines: give it as PGPASSWORD (or in ~/.pgpass).');
  if (!values.run) {
    console.log('Nothing was run. Add --run to run pg_dump here.');
    return 0;
  }
  if (existsSync(out)) {
    console.error(`${out} already exists; choose another file.`);
    return 1;
  }
  mkdirSync(path.dirname(out), { recursive: true });
  const result = spawnSync(commands.dump.program, commands.dump.args, { stdio: 'inherit', env: { ...process.env, ...commands.env } });
  if (result.error) {
    const missing = (result.error as NodeJS.ErrnoException).code === 'ENOENT';
    console.error(missing ? 'pg_dump is not on PATH: install the PostgreSQL client tools, or run the line above where they are.' : `pg_dump could not start: ${result.error.message}`);
    return 1;
  }
  if (result.status !== 0) {
    console.error(`pg_dump failed (exit ${result.status ?? result.signal}); no backup was made.`);
    return 1;
  }
  const bytes = statSync(out).size;
  console.log(`Backup written: ${out}`);
  console.log(`Size: ${sizeOf(bytes)} (${bytes} bytes)`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
