import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Subject, Ticket, TicketMessage } from '@ticket/contracts';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../app';
import { ADMIN_KEY, bearer, resetSandbox, signIn, testConfig, useSandbox } from '../test/harness';
import { GUILDS, USERS } from '../test/demo-world';
import { backupSqlite, checkSqliteBackup, databaseName, postgresBackupCommands } from './backup';
import { openDatabase } from './database';

const sandbox = useSandbox();
const root = path.resolve(import.meta.dirname, '../../../..');
const server = GUILDS.pixelForge;
const base = `/api/support/servers/${server}`;

/** `npm run backup` as an operator runs it, in its own process, with the server's environment. */
function runBackupScript(env: Record<string, string>, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/backup.ts'), ...args], {
      cwd: root,
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The product on a file database in `dataDir`, as `npm start` would open it. */
async function startProduct(dataDir: string): Promise<BuiltApp> {
  const databaseUrl = `sqlite://${path.join(dataDir, 'dashboard.db')}`;
  const database = await openDatabase(databaseUrl);
  return buildApp(testConfig(sandbox, { dataDir, databaseUrl }), { database });
}

describe('SQLite backup', () => {
  let dir: string;
  const running: BuiltApp[] = [];
  beforeEach(async () => {
    await resetSandbox(sandbox);
    dir = mkdtempSync(path.join(tmpdir(), 'backup-test-'));
  });
  afterEach(async () => {
    for (const built of running.splice(0)) await built.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies the database while the product writes to it; restored into a fresh data directory, it has every ticket and message written before', { timeout: 90_000 }, async () => {
    const liveDir = path.join(dir, 'live');
    const live = await startProduct(liveDir);
    running.push(live);
    // Every write stays in the write-ahead log, as the latest ones do between two checkpoints: a
    // copy of the database file alone would miss them all.
    await sql`pragma wal_autocheckpoint = 0`.execute(live.database.db);
    const owner = (await signIn({ sandbox, built: live }, USERS.alice)).token;
    const subject = (await live.app.inject({ method: 'POST', url: `/api/settings/servers/${server}/subjects`, headers: bearer(owner), payload: { name: 'Billing' } })).json<Subject>();
    const open = async (name: string) => {
      const response = await live.app.inject({ method: 'POST', url: `${base}/tickets`, headers: bearer(ADMIN_KEY), payload: { ticketName: name, subjectId: subject.subjectId, authorId: USERS.eli } });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<Ticket>().ticketId;
    };
    const say = async (ticketId: string, content: string) => {
      const response = await live.app.inject({
        method: 'POST',
        url: `${base}/tickets/${ticketId}/messages`,
        headers: bearer(ADMIN_KEY),
        payload: { message: { content }, messageType: 'User', authorId: USERS.eli },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<TicketMessage>().messageId;
    };

    // Acknowledged writes, in the order the product acknowledged them.
    const tickets: string[] = [];
    const messages: { ticketId: string; messageId: string }[] = [];
    for (let t = 0; t < 12; t++) {
      const ticketId = await open(`ticket-${t}`);
      tickets.push(ticketId);
      for (let m = 0; m < 4; m++) messages.push({ ticketId, messageId: await say(ticketId, `message ${m} of ticket ${t}: ${'I was charged twice for my order, please refund the second payment. '.repeat(7)}`) });
    }

    // A stream of writes, one after another, that goes on until the backup is done: new messages,
    // and now and then a new ticket.
    let streaming = true;
    const stream = (async () => {
      for (let i = 0; streaming; i++) {
        if (i % 10 === 9) tickets.push(await open(`streamed-${i}`));
        const ticketId = tickets[i % tickets.length]!;
        messages.push({ ticketId, messageId: await say(ticketId, `streamed ${i}: ${'dolor sit amet '.repeat(20)}`) });
      }
    })();
    while (messages.length < 60) await new Promise((resolve) => setTimeout(resolve, 5));

    const ticketsBefore = [...tickets];
    const messagesBefore = [...messages];
    const backupFile = path.join(dir, 'backups', 'dashboard-copy.db');
    const result = await runBackupScript({ DATA_DIR: liveDir, DATABASE_URL: `sqlite://${path.join(liveDir, 'dashboard.db')}` }, ['--out', backupFile]);
    const writtenDuringBackup = messages.length - messagesBefore.length;
    streaming = false;
    await stream;
    await live.close();
    running.splice(0);

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Backup written: ${backupFile}`);
    expect(result.stdout).toMatch(new RegExp(`Size: [\\d.]+ [KMG]iB \\(${statSync(backupFile).size} bytes, \\d+ pages\\)`));
    expect(result.stdout).toContain('integrity_check: ok');
    const counted = Number(/Tickets: (\d+)/.exec(result.stdout)?.[1]);
    expect(counted).toBeGreaterThanOrEqual(ticketsBefore.length);
    expect(counted).toBeLessThanOrEqual(tickets.length);
    // The server kept writing while the backup process ran.
    expect(writtenDuringBackup).toBeGreaterThan(0);
    // The copy is one file: nothing of it lives in a -wal beside it.
    expect(readdirSync(path.dirname(backupFile))).toEqual(['dashboard-copy.db']);

    // Restore as the README says: the backup file becomes the database of a fresh data directory.
    const freshDir = path.join(dir, 'fresh');
    mkdirSync(freshDir);
    copyFileSync(backupFile, path.join(freshDir, 'dashboard.db'));
    const restored = await startProduct(freshDir);
    running.push(restored);
    for (const ticketId of ticketsBefore) {
      const response = await restored.app.inject({ method: 'GET', url: `${base}/tickets/${ticketId}`, headers: bearer(ADMIN_KEY) });
      expect(response.statusCode, response.body).toBe(200);
      const read = response.json<Ticket>().messages.map((m) => m.messageId);
      const written = messagesBefore.filter((m) => m.ticketId === ticketId).map((m) => m.messageId);
      expect(read).toEqual(expect.arrayContaining(written));
    }
    // One moment of the database: of the writes made one after another, the copy holds a first
    // part, with no gap.
    const held = new Set((await restored.database.db.selectFrom('ticket_messages').select('id').execute()).map((r) => r.id));
    const present = messages.map((m) => held.has(m.messageId));
    const firstMissing = present.indexOf(false);
    expect(firstMissing === -1 ? messages.length : firstMissing).toBeGreaterThanOrEqual(messagesBefore.length);
    if (firstMissing !== -1) expect(present.slice(firstMissing)).not.toContain(true);
    await restored.close();
    running.splice(0);
    expect(checkSqliteBackup(path.join(freshDir, 'dashboard.db'))).toMatchObject({ ok: true, integrity: ['ok'], tickets: counted });
  });

  it('never overwrites a file, and refuses what it cannot copy', async () => {
    const source = path.join(dir, 'data', 'dashboard.db');
    const database = await openDatabase(`sqlite://${source}`);
    await database.destroy();
    const taken = path.join(dir, 'taken.db');
    writeFileSync(taken, 'an earlier backup');
    await expect(backupSqlite(source, taken)).rejects.toThrow(/already exists/);
    await expect(backupSqlite(path.join(dir, 'missing.db'), path.join(dir, 'a.db'))).rejects.toThrow(/No SQLite database at/);
    await expect(backupSqlite('sqlite://:memory:', path.join(dir, 'b.db'))).rejects.toThrow(/in-memory/);
    await expect(backupSqlite('postgres://localhost/tickets', path.join(dir, 'c.db'))).rejects.toThrow(/pg_dump/);
    expect(existsSync(path.join(dir, 'a.db'))).toBe(false);

    const copy = await backupSqlite(`sqlite://${source}`, path.join(dir, 'copies', 'first.db'));
    expect(copy).toMatchObject({ file: path.join(dir, 'copies', 'first.db'), ok: true, integrity: ['ok'], tickets: 0, messages: 0 });
    expect(copy.bytes).toBeGreaterThan(0);
    expect(databaseName(`sqlite://${source}`)).toBe('dashboard');
  });
});

describe('PostgreSQL backup', () => {
  it('gives the pg_dump and pg_restore lines for the configured URL, the password as PGPASSWORD only', () => {
    const commands = postgresBackupCommands("postgres://ops:s3cr%27t@db.internal:5432/tickets?sslmode=require", '/var/backups/tickets-20261122T101530Z.dump');
    expect(commands.dump.line).toBe(
      "pg_dump --format=custom --no-owner --file=/var/backups/tickets-20261122T101530Z.dump --dbname='postgres://ops@db.internal:5432/tickets?sslmode=require'",
    );
    expect(commands.restore.line).toBe(
      "pg_restore --no-owner --single-transaction --dbname='postgres://ops@db.internal:5432/tickets?sslmode=require' /var/backups/tickets-20261122T101530Z.dump",
    );
    expect(commands.dump.program).toBe('pg_dump');
    expect(commands.dump.args).toEqual(['--format=custom', '--no-owner', '--file=/var/backups/tickets-20261122T101530Z.dump', '--dbname=postgres://ops@db.internal:5432/tickets?sslmode=require']);
    expect(commands.env).toEqual({ PGPASSWORD: "s3cr't" });

    const plain = postgresBackupCommands('postgresql://postgres@127.0.0.1/app', "my backups/it's.dump");
    expect(plain.dump.line).toBe("pg_dump --format=custom --no-owner --file='my backups/it'\\''s.dump' --dbname=postgresql://postgres@127.0.0.1/app");
    expect(plain.env).toEqual({});
    expect(databaseName('postgres://postgres@127.0.0.1:5432/tickets')).toBe('tickets');
    expect(() => postgresBackupCommands('sqlite://data/dashboard.db', 'x.dump')).toThrow(/Not a PostgreSQL URL/);
  });

  it('npm run backup prints the lines and runs nothing without --run', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'backup-test-'));
    try {
      const out = path.join(dir, 'tickets.dump');
      const result = await runBackupScript({ DATABASE_URL: 'postgres://ops:hunter2@db.invalid:5432/tickets', DATA_DIR: path.join(dir, 'data') }, ['--out', out]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(`pg_dump --format=custom --no-owner --file=${out} --dbname=postgres://ops@db.invalid:5432/tickets`);
      expect(result.stdout).toContain(`pg_restore --no-owner --single-transaction --dbname=postgres://ops@db.invalid:5432/tickets ${out}`);
      expect(result.stdout).toContain('Nothing was run');
      expect(result.stdout).not.toContain('hunter2');
      expect(existsSync(out)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
