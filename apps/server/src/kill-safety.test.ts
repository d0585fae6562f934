import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AuthenticateResponse, Subject, Ticket, UploadedFile } from '@ticket/contracts';
import { describe, expect, it } from 'vitest';
import { now, openDatabase } from './db/database';
import { apiEnv, freePort, ownDatabase, startApi } from './test/api-process';
import { ADMIN_KEY, REDIRECT_URI, consentCode, engines, useSandbox } from './test/harness';
import { GUILDS, USERS } from './test/demo-world';

/*
 * Kill -9 of the API under a stream of writes loses none it acknowledged. The API runs as a real
 * process (main.ts, built as a deployment runs it) on a database of its own: a SQLite file in a temporary
 * data directory, or a new PostgreSQL database. Writers send ticket messages as the bot runtime
 * reports them, settings changes and file uploads, and note each one answered 2xx; the process is
 * killed with SIGKILL mid-stream, started again on the same data, and every noted write is looked
 * for through its API.
 *
 * SQLite runs in WAL mode with synchronous=NORMAL (db/database.ts): a commit is in the WAL file,
 * in the operating system's hands, before the answer is sent, so killing the process loses
 * nothing; only a power loss or an operating system crash may lose the last commits before a
 * checkpoint. PostgreSQL answers a commit once its WAL is flushed (synchronous_commit on).
 */

const sandbox = useSandbox();
const server = GUILDS.pixelForge;
const operator = { authorization: `Admin ${ADMIN_KEY}` };

describe.each(engines)('acknowledged writes when the API is killed on %s', (engine) => {
  it('loses none of the messages, settings changes and uploads it answered 2xx to', { timeout: 90_000 }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'kill-safety-'));
    const database = await ownDatabase(engine, dir, 'kill_safety');
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...apiEnv(sandbox, { databaseUrl: database.url, dataDir: dir, port, encryptionKey: randomBytes(32).toString('hex') }),
      RATE_LIMIT_MAX: '1000000',
    };
    let api = await startApi(env, port);
    try {
      const call = async (method: string, url: string, body: unknown, headers: Record<string, string> = operator) =>
        fetch(`${api.url}${url}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      // Alice signs in (the dashboard learns of her servers); she owns the server.
      const code = await consentCode(sandbox, USERS.alice);
      const session = (await (await call('POST', '/api/authentication/user', { code, redirectUri: REDIRECT_URI }, {})).json()) as AuthenticateResponse;
      const alice = { authorization: `Bearer ${session.token}` };
      // File storage is a paid plan's.
      const direct = await openDatabase(database.url, { migrate: false });
      await direct.db.updateTable('servers').set({ plan: 'premium', updated_at: now() }).where('id', '=', server).execute();
      await direct.destroy();
      const subject = (await (await call('POST', `/api/settings/servers/${server}/subjects`, { name: 'Billing' })).json()) as Subject;
      const ticket = (await (await call('POST', `/api/support/servers/${server}/tickets`, { ticketName: 'orders', subjectId: subject.subjectId, authorId: USERS.eli })).json()) as Ticket;
      expect(ticket.ticketId).toBeTruthy();

      const acked = { messages: [] as string[], names: [] as number[], files: [] as { file: UploadedFile; content: string }[] };
      let attemptedName = 0;
      let stop = false;
      const writer = async (write: (i: number) => Promise<void>) => {
        for (let i = 0; !stop; i++) await write(i).catch(() => undefined);
      };
      const messages = (prefix: string) =>
        writer(async (i) => {
          const content = `${prefix}-${i}`;
          const response = await call('POST', `/api/support/servers/${server}/tickets/${ticket.ticketId}/messages`, { message: { content }, messageType: 'User', authorId: USERS.eli });
          if (response.ok) acked.messages.push(content);
        });
      const names = writer(async (i) => {
        attemptedName = i;
        const response = await call(
          'PATCH',
          `/api/settings/servers/${server}/subjects/${subject.subjectId}`,
          { serverId: server, subjectId: subject.subjectId, path: 'name', operation: 'set', value: `Billing ${i}` },
          alice,
        );
        if (response.ok) acked.names.push(i);
      });
      const uploads = writer(async (i) => {
        const content = `upload ${i} ${randomBytes(8).toString('hex')}`;
        const form = new FormData();
        form.append('file', new Blob([content], { type: 'text/plain' }), `note-${i}.txt`);
        const query = new URLSearchParams({ FileName: `note-${i}.txt`, ServerId: server, TicketId: ticket.ticketId, SubjectId: subject.subjectId });
        const response = await fetch(`${api.url}/api/files/files/upload?${query}`, { method: 'POST', headers: alice, body: form });
        if (response.ok) acked.files.push({ file: (await response.json()) as UploadedFile, content });
      });
      const stream = Promise.all([messages('a'), messages('b'), names, uploads]);

      // Mid-stream: once every kind of write has been answered a few times.
      const deadline = Date.now() + 15_000;
      while (acked.messages.length < 150 || acked.names.length < 10 || acked.files.length < 10) {
        if (Date.now() > deadline) throw new Error(`the stream is too slow: ${JSON.stringify({ messages: acked.messages.length, names: acked.names.length, files: acked.files.length })}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      api.process.kill('SIGKILL');
      await api.exited;
      stop = true;
      await stream;
      const counted = { messages: acked.messages.length, names: acked.names.length, files: acked.files.length };

      api = await startApi(env, port);
      const stored = (await (await fetch(`${api.url}/api/support/servers/${server}/tickets/${ticket.ticketId}`, { headers: operator })).json()) as Ticket;
      const contents = new Set(stored.messages.map((m) => m.message.content));
      const lostMessages = acked.messages.filter((content) => !contents.has(content));

      // A change answered is there, or one sent after it (answered or not: it may have committed before the kill).
      const named = (await (await fetch(`${api.url}/api/settings/servers/${server}/subjects/${subject.subjectId}`, { headers: alice })).json()) as Subject;
      const storedName = Number(named.name.replace('Billing ', ''));
      expect(storedName).toBeGreaterThanOrEqual(Math.max(...acked.names));
      expect(storedName).toBeLessThanOrEqual(attemptedName);

      const lostFiles: string[] = [];
      for (const { file, content } of acked.files) {
        const response = await fetch(`${api.url}/api/files/files/${file.fileId}/${encodeURIComponent(file.name)}`, { headers: alice });
        if (!response.ok || (await response.text()) !== content) lostFiles.push(file.fileId);
      }
      expect({ counted, lostMessages, lostFiles }).toEqual({ counted, lostMessages: [], lostFiles: [] });
    } finally {
      if (api.process.exitCode === null) {
        api.process.kill('SIGTERM');
        await api.exited;
      }
      await database.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
