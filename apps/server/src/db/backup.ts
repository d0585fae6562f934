import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { isPostgresUrl, sqliteFile } from './database';

/** What a SQLite backup wrote, and what opening the copy found. */
export interface SqliteBackup extends SqliteCheck {
  /** Absolute path of the copy. */
  file: string;
  bytes: number;
  pages: number;
}

export interface SqliteCheck {
  /** `PRAGMA integrity_check`'s answer: `['ok']`, or the problems it found. */
  integrity: string[];
  ok: boolean;
  /** Rows of the tickets and messages tables; null when the database has no such table. */
  tickets: number | null;
  messages: number | null;
}

/**
 * All pages in one step. The copy then reads one snapshot of the database (in WAL mode the server
 * keeps writing meanwhile). A copy made in several steps starts over whenever another connection
 * writes between two of them, so under a steady stream of writes it might never finish.
 */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies a SQLite database that may be in use (by the server, in another process) with SQLite's
 * online backup, into `destination`, a single self-contained file (rollback journal, no -wal to
 * keep beside it). The copy is written under a temporary name, checked, and only then renamed to
 * `destination`: a file at that name is always a whole, checked backup. An existing file there is
 * never overwritten.
 */
export async function backupSqlite(sourceUrlOrFile: string, destination: string): Promise<SqliteBackup> {
  if (isPostgresUrl(sourceUrlOrFile)) throw new Error('backupSqlite copies SQLite databases; use pg_dump for PostgreSQL (postgresBackupCommands)');
  const source = sqliteFile(sourceUrlOrFile);
  if (source === ':memory:') throw new Error('An in-memory database has no file to back up');
  if (!existsSync(source)) throw new Error(`No SQLite database at ${path.resolve(source)}`);
  const target = path.resolve(destination);
  if (existsSync(target)) throw new Error(`${target} already exists; choose another file`);
  mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });

  try {
    const from = new SQLite(source, { readonly: true, fileMustExist: true, timeout: 5000 });
    let pages: number;
    try {
      pages = (await from.backup(partial, { progress: () => ALL_PAGES })).totalPages;
    } finally {
      from.close();
    }
    // The copy carries the source's WAL mode in its header; one file is easier to keep and move.
    const copy = new SQLite(partial, { fileMustExist: true });
    try {
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    const check = checkSqliteBackup(partial);
    if (!check.ok) throw new Error(`The copy failed its integrity check: ${check.integrity.join('; ')}`);
    renameSync(partial, target);
    return { file: target, bytes: statSync(target).size, pages, ...check };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

/** Opens a backup read-only and checks it page by page; counts its tickets and messages. */
export function checkSqliteBackup(file: string): SqliteCheck {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = db.pragma('integrity_check') as { integrity_check: string }[];
    const problems = integrity.map((row) => row.integrity_check);
    const count = (table: string): number | null => {
      const exists = db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(table);
      return exists ? (db.prepare(`select count(*) as n from "${table}"`).get() as { n: number }).n : null;
    };
    return {
      integrity: problems,
      ok: problems.length === 1 && problems[0] === 'ok',
      tickets: count('tickets'),
      messages: count('ticket_messages'),
    };
  } finally {
    db.close();
  }
}

/** A program with its arguments, and the same as one line to paste into a POSIX shell. */
export interface ShellCommand {
  program: string;
  args: string[];
  line: string;
}

export interface PostgresBackupCommands {
  /** `pg_dump` in its custom format, without ownership, into `out`. */
  dump: ShellCommand;
  /** `pg_restore` of `out` into the database the URL names (a fresh, empty one), without ownership. */
  restore: ShellCommand;
  /**
   * Environment both need: the URL's password as PGPASSWORD. The lines leave the password out
   * of the URL, so printing them shows no secret.
   */
  env: Record<string, string>;
}

/** The pg_dump and pg_restore invocations for a PostgreSQL URL; the password travels as PGPASSWORD. */
export function postgresBackupCommands(url: string, out: string): PostgresBackupCommands {
  if (!isPostgresUrl(url)) throw new Error(`Not a PostgreSQL URL: ${url}`);
  const parsed = new URL(url);
  const env: Record<string, string> = parsed.password ? { PGPASSWORD: decodeURIComponent(parsed.password) } : {};
  parsed.password = '';
  const dbname = parsed.toString();
  return {
    dump: command('pg_dump', ['--format=custom', '--no-owner', `--file=${out}`, `--dbname=${dbname}`]),
    restore: command('pg_restore', ['--no-owner', '--single-transaction', `--dbname=${dbname}`, out]),
    env,
  };
}

/** The database's name for backup file names: the SQLite file's stem, or the PostgreSQL database. */
export function databaseName(url: string): string {
  if (isPostgresUrl(url)) return decodeURIComponent(new URL(url).pathname.replace(/^\//, '')) || 'postgres';
  return path.basename(sqliteFile(url)).replace(/\.[^.]*$/, '') || 'database';
}

/** UTC time to the second, without separators that some file systems refuse: 20261122T101530Z. */
export function backupTimestamp(at: Date = new Date()): string {
  return at
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '');
}

function command(program: string, args: string[]): ShellCommand {
  return { program, args, line: [program, ...args].map(shellQuote).join(' ') };
}

function shellQuote(word: string): string {
  const quote = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`);
  // --option=value: only the value is quoted, as one would type it.
  const option = /^(--[\w-]+=)(.*)$/s.exec(word);
  return option ? `${option[1]}${quote(option[2]!)}` : quote(word);
}
