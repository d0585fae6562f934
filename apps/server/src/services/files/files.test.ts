import { mkdtemp, readdir, rm, utimes, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isBlurhashValid } from 'blurhash';
import sharp from 'sharp';
import { sql } from 'kysely';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { ErrorBody, PagedResult, StorageOverview, Subject, Ticket, TicketFile, TicketStorage, UploadedFile } from '@ticket/contracts';
import { DEFAULT_FILE_TYPES, type FilesConfig } from '../../config';
import { now } from '../../db/database';
import { ADMIN_KEY, bearer, createTestApp, engines, resetSandbox, signIn, useSandbox, type TestContext } from '../../test/harness';
import { GUILDS, USERS } from '../../test/demo-world';
import { RETENTION_LEASE } from './service';
import { addMember } from '../support/repository';
import { insertTicket } from '../../test/test-tickets';

const sandbox = useSandbox();

const server = GUILDS.pixelForge;
const MAX_UPLOAD = 64 * 1024;
/** How long download tokens open a file (FILE_TOKEN_TTL_SECONDS). */
const TOKEN_TTL = 3600;
const OPEN_TICKET_CHANNEL = '1300000000000000105';

/** Every file under the storage root, relative to it. */
async function storedFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name))).sort();
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 40 } } })
    .composite([{ input: { create: { width: Math.ceil(width / 2), height, channels: 3, background: { r: 20, g: 90, b: 220 } } }, left: 0, top: 0 }])
    .png()
    .toBuffer();

const text = (bytes: number, fill = 'x') => Buffer.from(fill.repeat(bytes));

describe.each(engines)('files service on %s', (engine) => {
  let ctx: TestContext;
  let dir: string;
  let files: FilesConfig;
  let owner: string; // alice owns Pixel Forge
  let admin: string; // bruno administers Pixel Forge
  let author: string; // eli opened the ticket
  let dana: string; // a member of Pixel Forge with a ticket of her own
  let stranger: string; // chen administers Study Hall only
  let billing: Subject;
  let ticket: string;
  let danaTicket: string;

  beforeEach(async () => {
    await resetSandbox(sandbox);
    dir = await mkdtemp(path.join(tmpdir(), 'files-test-'));
    files = { dir, maxUploadBytes: MAX_UPLOAD, allowedTypes: DEFAULT_FILE_TYPES, cloneTimeoutMs: 5000, quotaOverrideBytes: null, s3: null, tokenTtlSeconds: TOKEN_TTL };
    // A JSON body limit far below the upload limit: multipart uploads are bounded by MAX_UPLOAD alone.
    ctx = await createTestApp(sandbox, engine, { files, bodyLimitBytes: 16 * 1024 });
    owner = (await signIn(ctx, USERS.alice)).token;
    admin = (await signIn(ctx, USERS.bruno)).token;
    author = (await signIn(ctx, USERS.eli)).token;
    dana = (await signIn(ctx, USERS.dana)).token;
    stranger = (await signIn(ctx, USERS.chen)).token;
    billing = await createSubject('Billing');
    await setPlan('premium');
    ticket = await insertTicket(ctx.built.database.db, { serverId: server, subjectId: billing.subjectId, authorId: USERS.eli });
    danaTicket = await insertTicket(ctx.built.database.db, { serverId: server, subjectId: billing.subjectId, authorId: USERS.dana });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await ctx.close();
    await rm(dir, { recursive: true, force: true });
  });

  const db = () => ctx.built.database.db;
  const inject = (options: InjectOptions) => ctx.built.app.inject(options);
  const as = (token: string, method: InjectOptions['method'], url: string, payload?: unknown) =>
    inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const setPlan = (plan: string, serverId: string = server) =>
    db().updateTable('servers').set({ plan, updated_at: now() }).where('id', '=', serverId).execute();
  async function createSubject(name: string): Promise<Subject> {
    const response = await as(owner, 'POST', `/api/settings/servers/${server}/subjects`, { name });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Subject>();
  }
  const setSubject = async (subjectId: string, settingPath: string, value: unknown) => {
    const response = await as(owner, 'PATCH', `/api/settings/servers/${server}/subjects/${subjectId}`, { serverId: server, subjectId, path: settingPath, operation: 'set', value });
    expect(response.statusCode, response.body).toBe(200);
  };
  const rows = () => db().selectFrom('files').selectAll().orderBy('created_at').execute();
  /** Sets when a file was uploaded, so "oldest" and "expired" do not depend on the test's speed. */
  const uploadedAt = (fileId: string, at: string) => db().updateTable('files').set({ created_at: at }).where('id', '=', fileId).execute();

  interface UploadOptions {
    token?: string | null;
    name?: string;
    type?: string;
    ticketId?: string;
    subjectId?: string;
    serverId?: string;
    field?: string;
  }
  async function upload(bytes: Buffer, options: UploadOptions = {}): Promise<LightMyRequestResponse> {
    const name = options.name ?? 'file.bin';
    const form = new FormData();
    form.append(options.field ?? 'file', new Blob([new Uint8Array(bytes)], { type: options.type ?? '' }), name);
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    const query = new URLSearchParams({
      FileName: name,
      ServerId: options.serverId ?? server,
      TicketId: options.ticketId ?? ticket,
      SubjectId: options.subjectId ?? billing.subjectId,
    });
    const token = options.token === undefined ? owner : options.token;
    return inject({
      method: 'POST',
      url: `/api/files/files/upload?${query}`,
      headers: { 'content-type': request.headers.get('content-type')!, ...(token ? bearer(token) : {}) },
      payload: Buffer.from(await request.arrayBuffer()),
    });
  }
  const stored = async (bytes: Buffer, options: UploadOptions = {}) => {
    const response = await upload(bytes, { type: 'text/plain', name: 'notes.txt', ...options });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<UploadedFile>();
  };
  const download = (file: Pick<TicketFile, 'fileId' | 'name'>, query = '', headers: Record<string, string> = {}) =>
    inject({ method: 'GET', url: `/api/files/files/${file.fileId}/${encodeURIComponent(file.name)}${query}`, headers });
  const withToken = (file: TicketFile, token = file.token!) => download(file, `?token=${encodeURIComponent(token)}`);
  /** An attachment posted on the platform, as its CDN serves it. */
  const register = async (bytes: Buffer, filename: string, contentType: string) => {
    const response = await fetch(`${sandbox.url}/_sandbox/attachments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channelId: OPEN_TICKET_CHANNEL, filename, contentType, data: bytes.toString('base64') }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { attachment: { id: string; url: string } }).attachment;
  };
  const memberUrl = `/api/support/servers/${server}/tickets`;
  /** Adds or removes a user from a ticket as its server's owner would, through the tickets service. */
  const membership = async (method: 'POST' | 'DELETE', ticketId: string, userId: string) => {
    const response = await as(owner, method, `${memberUrl}/${ticketId}/member`, { userId });
    expect(response.statusCode, response.body).toBe(204);
  };
  const STORAGE_FULL = 'The server’s file storage is full; ask its staff to make room.';

  describe('upload', () => {
    it('stores an image with its size and a BlurHash, and serves it back with its token', async () => {
      const bytes = await png(40, 30);
      const response = await upload(bytes, { name: 'screenshot 1.png', type: 'image/png', token: author });
      expect(response.statusCode, response.body).toBe(201);
      const file = response.json<UploadedFile>();
      expect(file).toMatchObject({ ticketId: ticket, name: 'screenshot 1.png', size: bytes.length, width: 40, height: 30, storageExceeded: false, deletedFileIds: [] });
      expect(isBlurhashValid(file.blurHash!).result).toBe(true);
      expect(file.token!.length).toBeGreaterThanOrEqual(43);
      expect(response.headers['x-storage-exceeded']).toBeUndefined();

      const served = await withToken(file);
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(bytes)).toBe(true);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['content-length']).toBe(String(bytes.length));
      expect(served.headers['content-disposition']).toBe(`inline; filename="screenshot 1.png"; filename*=UTF-8''screenshot%201.png`);
      expect(served.headers['cache-control']).toBe('private, max-age=3600');
      expect(served.headers['content-security-policy']).toContain('sandbox');
      expect(served.headers['x-content-type-options']).toBe('nosniff');

      const row = (await rows())[0]!;
      expect(row).toMatchObject({ server_id: server, subject_id: billing.subjectId, content_type: 'image/png', uploader_kind: 'user', uploader_id: USERS.eli });
      expect(await storedFiles(dir)).toEqual([`servers/${server}/${file.fileId}`]);
    });

    it('reads the type from the bytes, not the sender; other files get no image fields and download as attachments', async () => {
      const image = await upload(await png(12, 20), { name: 'photo.jpg', type: 'application/octet-stream' });
      expect(image.json<UploadedFile>()).toMatchObject({ width: 12, height: 20 });
      expect((await withToken(image.json<UploadedFile>())).headers['content-type']).toBe('image/png');
      const archive = await upload(text(100), { name: 'logs.zip', type: 'application/zip' });
      expect(archive.statusCode).toBe(201);
      const file = archive.json<UploadedFile>();
      expect(file).toMatchObject({ blurHash: null, width: null, height: null, size: 100 });
      expect((await withToken(file)).headers['content-disposition']).toMatch(/^attachment; filename="logs.zip"/);
      // A file named .txt without a declared type is taken for text by its extension.
      expect((await upload(text(5), { name: 'readme.txt' })).statusCode).toBe(201);
    });

    it('refuses a file over the size limit (413) and a type outside the allow-list (415), naming them, and keeps nothing', async () => {
      const big = await upload(text(MAX_UPLOAD + 1), { name: 'big.txt', type: 'text/plain' });
      expect(big.statusCode).toBe(413);
      expect(big.json<ErrorBody>()).toMatchObject({ code: 'payload_too_large', message: 'The file is larger than the 64 KiB upload limit' });
      expect((await upload(text(MAX_UPLOAD), { name: 'exact.txt', type: 'text/plain' })).statusCode).toBe(201);
      await db().deleteFrom('files').execute();
      await rm(path.join(dir, 'servers'), { recursive: true });

      const html = await upload(Buffer.from('<script>alert(1)</script>'), { name: 'page.html', type: 'text/html' });
      expect(html.statusCode).toBe(415);
      expect(html.json<ErrorBody>().message).toMatch(/^Files of type text\/html cannot be stored; allowed: image\/png, /);
      const fake = await upload(text(50), { name: 'fake.png', type: 'image/png' });
      expect(fake.statusCode).toBe(415);
      expect(fake.json<ErrorBody>().message).toBe('The file is declared as image/png but is not a readable image');
      const empty = await upload(Buffer.alloc(0), { name: 'empty.txt', type: 'text/plain' });
      expect(empty.statusCode).toBe(400);
      const wrongPart = await upload(text(10), { name: 'a.txt', type: 'text/plain', field: 'attachment' });
      expect(wrongPart.statusCode).toBe(400);
      expect(wrongPart.json<ErrorBody>().message).toBe('Send the file as multipart/form-data, in a part named "file"');
      expect(await rows()).toEqual([]);
      expect(await storedFiles(dir)).toEqual([]);
    });

    it('answers an oversized upload over a real connection at once, and closes it rather than read the rest', async () => {
      const address = await ctx.built.app.listen({ port: 0, host: '127.0.0.1' });
      const head = new TextEncoder().encode('--b\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n');
      const chunk = new Uint8Array(64 * 1024).fill(66);
      // 64 MiB made as they are sent, chunked (no Content-Length), so only counting the bytes finds
      // the file too large, long before the client could have sent them all.
      let sent = -1;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          sent += 1;
          if (sent === 0) controller.enqueue(head);
          else if (sent <= 1024) controller.enqueue(chunk);
          else {
            controller.enqueue(new TextEncoder().encode('\r\n--b--\r\n'));
            controller.close();
          }
        },
      });
      const query = new URLSearchParams({ FileName: 'big.txt', ServerId: server, TicketId: ticket, SubjectId: billing.subjectId });
      const response = await fetch(`${address}/api/files/files/upload?${query}`, {
        method: 'POST',
        body,
        duplex: 'half',
        headers: { ...bearer(owner), 'content-type': 'multipart/form-data; boundary=b' },
      } as RequestInit);
      expect(response.status).toBe(413);
      expect(response.headers.get('connection')).toBe('close');
      expect(((await response.json()) as ErrorBody).message).toBe('The file is larger than the 64 KiB upload limit');
      expect(sent).toBeLessThan(1024);
      expect(await rows()).toEqual([]);
      expect(await storedFiles(dir)).toEqual([]);
    });

    it('is refused on the Free plan, naming it', async () => {
      await setPlan('free');
      const response = await upload(text(10), { name: 'a.txt', type: 'text/plain' });
      expect(response.statusCode).toBe(402);
      expect(response.json<ErrorBody>().message).toBe('The Free plan includes no file storage; the Premium plan stores 5 GiB');
      expect(await storedFiles(dir)).toEqual([]);
    });

    it('lets staff, the ticket’s author and added members, the server’s API key and operators upload; refuses everyone else', async () => {
      await addMember(db(), ticket, USERS.dana);
      for (const token of [owner, admin, author, dana, ADMIN_KEY]) expect((await upload(text(10), { name: 'a.txt', type: 'text/plain', token })).statusCode).toBe(201);
      await db().deleteFrom('ticket_members').where('user_id', '=', USERS.dana).execute();
      const other = await upload(text(10), { name: 'a.txt', type: 'text/plain', token: dana });
      expect(other.statusCode).toBe(403);
      expect(other.json<ErrorBody>().message).toBe('You may only add files to tickets you are part of');
      expect((await upload(text(10), { name: 'a.txt', type: 'text/plain', token: stranger })).statusCode).toBe(403);
      expect((await upload(text(10), { name: 'a.txt', type: 'text/plain', token: null })).statusCode).toBe(401);
      // The ticket must be in that server and that subject.
      expect((await upload(text(10), { name: 'a.txt', ticketId: 'no-such-ticket' })).statusCode).toBe(404);
      const support = await createSubject('Support');
      const wrongSubject = await upload(text(10), { name: 'a.txt', subjectId: support.subjectId });
      expect(wrongSubject.statusCode).toBe(404);
      expect(wrongSubject.json<ErrorBody>().message).toBe(`Ticket ${ticket} is not in subject ${support.subjectId}`);
      const elsewhere = await upload(text(10), { name: 'a.txt', serverId: GUILDS.studyHall, token: ADMIN_KEY });
      expect(elsewhere.statusCode).toBe(404);

      await setPlan('enterprise');
      const key = (await as(owner, 'POST', `/api/authentication/api/${server}`)).json<{ key: string }>().key;
      expect((await upload(text(10), { name: 'a.txt', type: 'text/plain', token: key })).statusCode).toBe(201);
      const foreign = await upload(text(10), { name: 'a.txt', type: 'text/plain', token: key, serverId: GUILDS.studyHall });
      expect(foreign.statusCode).toBe(403);
      expect((await rows()).map((r) => r.uploader_kind).sort()).toEqual(['admin', 'apiKey', 'user', 'user', 'user', 'user']);
    });
  });

  describe('storage quota', () => {
    let support: Subject;
    let supportTicket: string;
    beforeEach(async () => {
      files.quotaOverrideBytes = 1000;
      support = await createSubject('Support');
      supportTicket = await insertTicket(db(), { serverId: server, subjectId: support.subjectId, authorId: USERS.eli });
    });

    /** Two files of 400 bytes: one in Support (older), one in Billing. */
    const fill = async () => {
      const a = await stored(text(400, 'a'), { ticketId: supportTicket, subjectId: support.subjectId, name: 'support.txt' });
      const b = await stored(text(400, 'b'), { name: 'billing.txt' });
      await uploadedAt(a.fileId, '2025-01-01T00:00:00.000Z');
      await uploadedAt(b.fileId, '2025-01-02T00:00:00.000Z');
      return { a, b };
    };

    it('Reject refuses the file that does not fit, naming the plan, the quota and the use', async () => {
      await setSubject(billing.subjectId, 'files.storageExceeded', 'Reject');
      await fill();
      expect((await upload(text(200), { name: 'fits.txt', type: 'text/plain' })).statusCode).toBe(201);
      const response = await upload(text(201), { name: 'over.txt', type: 'text/plain' });
      expect(response.statusCode).toBe(402);
      expect(response.json<ErrorBody>().message).toBe(
        'The Premium plan stores 1000 B of files; this server uses 1000 B and the file needs 201 B. Delete files or upgrade to store more.',
      );
      expect(await rows()).toHaveLength(3);
      expect(await storedFiles(dir)).toHaveLength(3);
    });

    it('Inform stores the file anyway and says so in the answer and a header', async () => {
      await setSubject(billing.subjectId, 'files.storageExceeded', 'Inform');
      await fill();
      const response = await upload(text(400), { name: 'over.txt', type: 'text/plain' });
      expect(response.statusCode).toBe(201);
      expect(response.json<UploadedFile>()).toMatchObject({ storageExceeded: true, deletedFileIds: [] });
      expect(response.headers['x-storage-exceeded']).toBe('true');
      const stats = (await as(owner, 'GET', `/api/files/servers/${server}/stats`)).json<StorageOverview>();
      expect(stats.spaceUsed).toBe(1200);
    });

    it('DeleteOldestFileSameSubject deletes the oldest files of the subject until the file fits', async () => {
      await setSubject(billing.subjectId, 'files.storageExceeded', 'DeleteOldestFileSameSubject');
      const { a, b } = await fill();
      const response = await upload(text(400), { name: 'new.txt', type: 'text/plain' });
      expect(response.statusCode, response.body).toBe(201);
      const file = response.json<UploadedFile>();
      expect(file).toMatchObject({ storageExceeded: false, deletedFileIds: [b.fileId] });
      expect((await rows()).map((r) => r.id).sort()).toEqual([a.fileId, file.fileId].sort());
      expect(await storedFiles(dir)).toEqual([`servers/${server}/${a.fileId}`, `servers/${server}/${file.fileId}`].sort());
      expect((await withToken(b)).statusCode).toBe(404);
    });

    it('DeleteOldestFileGlobal deletes the oldest files of the whole server', async () => {
      await setSubject(billing.subjectId, 'files.storageExceeded', 'DeleteOldestFileGlobal');
      const { a, b } = await fill();
      const response = await upload(text(700), { name: 'new.txt', type: 'text/plain' });
      expect(response.statusCode, response.body).toBe(201);
      const file = response.json<UploadedFile>();
      expect(file.deletedFileIds).toEqual([a.fileId, b.fileId]);
      expect((await rows()).map((r) => r.id)).toEqual([file.fileId]);
      expect(await storedFiles(dir)).toEqual([`servers/${server}/${file.fileId}`]);
    });

    it('never lets a member’s upload push out the server’s files: past the quota it is refused, whatever the policy, and nothing is deleted', async () => {
      const { a, b } = await fill();
      // Within the quota the ticket's author uploads as before.
      const fits = await stored(text(200), { name: 'fits.txt', token: author });
      for (const policy of ['DeleteOldestFileSameSubject', 'DeleteOldestFileGlobal']) {
        await setSubject(billing.subjectId, 'files.storageExceeded', policy);
        const response = await upload(text(400), { name: 'new.txt', type: 'text/plain', token: author });
        expect(response.statusCode, policy).toBe(402);
        expect(response.json<ErrorBody>()).toEqual({
          statusCode: 402,
          error: 'Payment Required',
          code: 'limit_reached',
          message: `The Premium plan stores 1000 B of files; this server uses 1000 B and the file needs 400 B. ${STORAGE_FULL}`,
        });
      }
      expect((await rows()).map((r) => [r.id, r.deleted_at])).toEqual([[a.fileId, null], [b.fileId, null], [fits.fileId, null]]);
      expect(await storedFiles(dir)).toHaveLength(3);
      for (const file of [a, b]) expect((await withToken(file)).statusCode).toBe(200);
      // The server's staff still make room by the policy.
      const staff = await upload(text(400), { name: 'staff.txt', type: 'text/plain', token: admin });
      expect(staff.statusCode, staff.body).toBe(201);
      expect(staff.json<UploadedFile>().deletedFileIds).toEqual([a.fileId]);
    });

    it('refuses, deleting nothing, when deleting the oldest files would not free enough', async () => {
      await setSubject(support.subjectId, 'files.storageExceeded', 'DeleteOldestFileSameSubject');
      await fill();
      const response = await upload(text(700), { name: 'new.txt', type: 'text/plain', ticketId: supportTicket, subjectId: support.subjectId });
      expect(response.statusCode).toBe(402);
      expect(response.json<ErrorBody>().message).toBe(
        'The Premium plan stores 1000 B of files; this server uses 800 B and the file needs 700 B, and deleting the oldest files of the subject would not free enough.',
      );
      expect(await rows()).toHaveLength(2);
      expect(await storedFiles(dir)).toHaveLength(2);
    });
  });

  describe('clone', () => {
    const clone = (url: string, fileName = 'copy.png', token = ADMIN_KEY) =>
      as(token, 'POST', '/api/files/files/clone', { fileName, serverId: server, ticketId: ticket, subjectId: billing.subjectId, url });

    it('copies a platform attachment from the CDN over HTTP and stores it like an upload', async () => {
      const bytes = await png(16, 9);
      const attachment = await register(bytes, 'diagram.png', 'image/png');
      const response = await clone(attachment.url, 'diagram.png');
      expect(response.statusCode, response.body).toBe(201);
      const file = response.json<UploadedFile>();
      expect(file).toMatchObject({ name: 'diagram.png', size: bytes.length, width: 16, height: 9, storageExceeded: false });
      expect((await withToken(file)).rawPayload.equals(bytes)).toBe(true);
      // Messages find the stored copy of their attachment by its platform id.
      const byAttachment = await ctx.built.services.files.filesForAttachments(server, [attachment.id]);
      expect(byAttachment.get(attachment.id)?.fileId).toBe(file.fileId);
      // The ticket's author may clone too (same rules as an upload); a stranger may not.
      expect((await clone(attachment.url, 'again.png', author)).statusCode).toBe(201);
      expect((await clone(attachment.url, 'again.png', stranger)).statusCode).toBe(403);
    });

    it('makes room by the subject’s policy for the bot’s copy, never for a member’s', async () => {
      files.quotaOverrideBytes = 1000;
      await setSubject(billing.subjectId, 'files.storageExceeded', 'DeleteOldestFileGlobal');
      const old = await stored(text(900), { name: 'old.txt' });
      const attachment = await register(text(300), 'log.txt', 'text/plain');
      const refused = await clone(attachment.url, 'log.txt', author);
      expect(refused.statusCode).toBe(402);
      expect(refused.json<ErrorBody>().message).toBe(`The Premium plan stores 1000 B of files; this server uses 900 B and the file needs 300 B. ${STORAGE_FULL}`);
      expect((await withToken(old)).statusCode).toBe(200);
      const copied = await clone(attachment.url, 'log.txt');
      expect(copied.statusCode, copied.body).toBe(201);
      expect(copied.json<UploadedFile>().deletedFileIds).toEqual([old.fileId]);
    });

    it('fetches from the platform CDN only, and refuses what is too large or no longer there', async () => {
      const cdn = new URL(`${sandbox.url}/cdn/`);
      for (const url of ['https://evil.example/cdn/attachments/1/2/a.png', `${sandbox.url}/api/v10/users/@me`, `http://127.0.0.2:${cdn.port}/cdn/attachments/1/2/a.png`]) {
        const response = await clone(url);
        expect(response.statusCode, url).toBe(400);
        expect(response.json<ErrorBody>()).toMatchObject({ field: 'body.url', message: `Files can only be cloned from the platform's CDN (${cdn.origin}/cdn/)` });
      }
      const big = await register(text(MAX_UPLOAD + 1), 'big.txt', 'text/plain');
      const tooLarge = await clone(big.url, 'big.txt');
      expect(tooLarge.statusCode).toBe(413);
      expect(tooLarge.json<ErrorBody>().message).toBe('The file is larger than the 64 KiB upload limit');
      const expired = await clone(`${sandbox.url}/cdn/attachments/${OPEN_TICKET_CHANNEL}/1234567890123456789/gone.png?ex=1&is=1&hm=0`);
      expect(expired.statusCode).toBe(502);
      expect(expired.json<ErrorBody>().message).toBe('The platform CDN no longer has this attachment (404)');
      const html = await register(Buffer.from('<b>hi</b>'), 'page.html', 'text/html');
      expect((await clone(html.url, 'page.html')).statusCode).toBe(415);
      expect(await rows()).toEqual([]);
      expect(await storedFiles(dir)).toEqual([]);
    });
  });

  describe('download', () => {
    it('answers the token alone, or staff and the ticket’s people without it; nobody else learns the file exists', async () => {
      const file = await stored(text(20), { name: 'notes.txt' });
      expect((await withToken(file)).statusCode).toBe(200);
      expect((await download(file, '', bearer(admin))).statusCode).toBe(200);
      expect((await download(file, '', bearer(author))).statusCode).toBe(200);
      expect((await download(file, '', bearer(ADMIN_KEY))).statusCode).toBe(200);
      expect((await download(file, '', bearer(stranger))).statusCode).toBe(404);
      expect((await download(file, '', bearer(dana))).statusCode).toBe(404);
      expect((await withToken(file, `${file.token}x`)).statusCode).toBe(401);
      expect((await withToken(file, (await stored(text(5))).token!)).statusCode).toBe(401);
      expect((await download(file)).statusCode).toBe(401);
      expect((await download(file, '', { authorization: 'Bearer tds_not-a-session' })).statusCode).toBe(401);
      // The name is part of the address.
      expect((await download({ ...file, name: 'other.txt' }, `?token=${file.token}`)).statusCode).toBe(404);
      expect((await download({ ...file, name: 'other.txt' }, '', bearer(owner))).statusCode).toBe(404);
    });

    it('hands out tokens that are short, URL-safe, and expire after the configured time (401)', async () => {
      const file = await stored(text(20), { name: 'notes.txt' });
      expect(file.token).toMatch(/^[\w.-]{40,100}$/);
      const start = Date.now();
      vi.useFakeTimers({ toFake: ['Date'] });
      // Tokens handed out within a twelfth of the lifetime are the same text: each opens the file that long at least.
      vi.setSystemTime(start + (TOKEN_TTL - TOKEN_TTL / 12 - 10) * 1000);
      expect((await withToken(file)).statusCode).toBe(200);
      vi.setSystemTime(start + TOKEN_TTL * 1000);
      const expired = await withToken(file);
      expect(expired.statusCode).toBe(401);
      expect(expired.json<ErrorBody>()).toEqual({
        statusCode: 401,
        error: 'Unauthorized',
        code: 'unauthorized',
        message: 'The download token has expired: ask for the ticket’s files again for a new one',
      });
      // The Authorization header still opens it, and the ticket's files come with fresh tokens.
      expect((await download(file, '', bearer(owner))).statusCode).toBe(200);
      const [fresh] = (await as(owner, 'GET', `/api/files/files/servers/${server}/tickets/${ticket}`)).json<TicketFile[]>();
      expect(fresh!.token).not.toBe(file.token);
      expect((await withToken(fresh!)).statusCode).toBe(200);
    });

    it('refuses a token that was altered or made for another file (401), whether or not the file exists', async () => {
      const file = await stored(text(20), { name: 'notes.txt' });
      const other = await stored(text(5), { name: 'other.txt' });
      const [expires, holder, signature] = file.token!.split('.');
      const altered = [
        `${Number(expires) + 86_400}.${holder}.${signature}`,
        `${expires}.u${USERS.chen}.${signature}`,
        `${expires}.o.${signature}`,
        other.token!,
        signature!,
        'not-a-token',
      ];
      for (const token of altered) {
        const response = await withToken(file, token);
        expect(response.statusCode, token).toBe(401);
        expect(response.json<ErrorBody>().message).toBe('The download token is not valid for this file');
      }
      expect((await download({ fileId: randomUUID(), name: 'notes.txt' }, `?token=${encodeURIComponent(file.token!)}`)).statusCode).toBe(401);
      // With an Authorization header that opens the file, a bad token changes nothing.
      expect((await download(file, `?token=${altered[0]}`, bearer(owner))).statusCode).toBe(200);
      expect((await download(file, `?token=${altered[0]}`, bearer(stranger))).statusCode).toBe(401);
    });

    it('stops a token given to a member once they are removed from the ticket (403); other people’s tokens still open it', async () => {
      const file = await stored(text(20), { name: 'notes.txt' });
      await membership('POST', ticket, USERS.dana);
      const listOf = async (token: string) => (await as(token, 'GET', `/api/files/files/servers/${server}/tickets/${ticket}`)).json<TicketFile[]>()[0]!;
      const danas = await listOf(dana);
      const authors = await listOf(author);
      const keys = await listOf(ADMIN_KEY);
      expect((await withToken(danas)).statusCode).toBe(200);

      await membership('DELETE', ticket, USERS.dana);
      const refused = await withToken(danas);
      expect(refused.statusCode).toBe(403);
      expect(refused.json<ErrorBody>()).toEqual({
        statusCode: 403,
        error: 'Forbidden',
        code: 'forbidden',
        message: 'The download token no longer opens this file: it was issued to someone who may no longer see the ticket',
      });
      expect((await download(file, '', bearer(dana))).statusCode).toBe(404);
      for (const kept of [file, authors, keys]) expect((await withToken(kept)).statusCode).toBe(200);
      // Added again, the token follows what its holder may see now.
      await membership('POST', ticket, USERS.dana);
      expect((await withToken(danas)).statusCode).toBe(200);
    });

    it('binds the tokens in a ticket’s messages to its people: removing a member ends them; the ticket asked for again brings working ones', async () => {
      const bytes = await png(8, 8);
      const attachment = await register(bytes, 'photo.png', 'image/png');
      const copy = await as(ADMIN_KEY, 'POST', '/api/files/files/clone', { fileName: 'photo.png', serverId: server, ticketId: ticket, subjectId: billing.subjectId, url: attachment.url });
      expect(copy.statusCode, copy.body).toBe(201);
      const message = { content: 'the photo', attachments: [{ id: attachment.id, filename: 'photo.png', url: attachment.url, size: bytes.length, contentType: 'image/png' }] };
      const posted = await as(ADMIN_KEY, 'POST', `${memberUrl}/${ticket}/messages`, { message, messageType: 'User', authorId: USERS.eli });
      expect(posted.statusCode, posted.body).toBe(201);
      await membership('POST', ticket, USERS.dana);
      const shown = async (token: string, url: string) => {
        const response = await as(token, 'GET', url);
        expect(response.statusCode, response.body).toBe(200);
        return response.json<Ticket>().messages[0]!.files[0]!;
      };
      const danas = await shown(dana, `/api/support/personal/tickets/${ticket}`);
      const staffs = await shown(owner, `${memberUrl}/${ticket}`);
      expect((await withToken(danas)).rawPayload.equals(bytes)).toBe(true);

      await membership('DELETE', ticket, USERS.dana);
      for (const gone of [danas, staffs]) {
        const refused = await withToken(gone);
        expect(refused.statusCode).toBe(403);
        expect(refused.json<ErrorBody>().message).toBe('The download token no longer opens this file: the ticket’s members have changed since it was issued');
      }
      expect((await as(dana, 'GET', `/api/support/personal/tickets/${ticket}`)).statusCode).toBe(404);
      expect((await withToken(await shown(owner, `${memberUrl}/${ticket}`))).statusCode).toBe(200);
      expect((await withToken(await shown(author, `/api/support/personal/tickets/${ticket}`))).statusCode).toBe(200);
    });
  });

  describe('ticket files', () => {
    it('lists a ticket’s files with their tokens for staff and the ticket’s people only', async () => {
      const first = await stored(text(10), { name: 'one.txt' });
      const second = await stored(await png(4, 4), { name: 'two.png', type: 'image/png' });
      await stored(text(10), { ticketId: danaTicket, name: 'dana.txt', token: dana });
      const url = `/api/files/files/servers/${server}/tickets/${ticket}`;
      for (const token of [owner, author, ADMIN_KEY]) {
        const response = await as(token, 'GET', url);
        expect(response.statusCode).toBe(200);
        const list = response.json<TicketFile[]>();
        expect(list.map((f) => f.fileId).sort()).toEqual([first.fileId, second.fileId].sort());
        const listed = list.find((f) => f.fileId === first.fileId)!;
        expect(listed).toEqual({ ticketId: ticket, fileId: first.fileId, name: 'one.txt', size: 10, token: expect.any(String), blurHash: null, width: null, height: null });
        expect((await withToken(listed)).statusCode).toBe(200);
      }
      const refused = await as(dana, 'GET', url);
      expect(refused.statusCode).toBe(403);
      expect(refused.json<ErrorBody>().message).toBe("You don't have permission to view this ticket.");
      expect((await as(stranger, 'GET', url)).statusCode).toBe(403);
      expect((await inject({ method: 'GET', url })).statusCode).toBe(401);
      expect((await as(owner, 'GET', `/api/files/files/servers/${server}/tickets/nope`)).statusCode).toBe(404);
      // A ticket of server A is not reachable through server B's path.
      expect((await as(stranger, 'GET', `/api/files/files/servers/${GUILDS.studyHall}/tickets/${ticket}`)).statusCode).toBe(404);
      expect((await as(ADMIN_KEY, 'GET', `/api/files/files/servers/${GUILDS.studyHall}/tickets/${ticket}`)).statusCode).toBe(404);
    });
  });

  describe('stats', () => {
    it('answers the space per subject and in total, and per ticket by pages, largest first, to staff', async () => {
      const support = await createSubject('Support');
      const supportTicket = await insertTicket(db(), { serverId: server, subjectId: support.subjectId, authorId: USERS.eli });
      await stored(text(300), { name: 'a.txt' });
      await stored(text(200), { name: 'b.txt', ticketId: danaTicket });
      await stored(text(1000), { name: 'c.txt', ticketId: supportTicket, subjectId: support.subjectId });
      const overview = (await as(admin, 'GET', `/api/files/servers/${server}/stats`)).json<StorageOverview>();
      expect(overview).toEqual({
        subjects: [
          { subjectId: billing.subjectId, serverId: server, name: 'Billing', spaceUsed: 500 },
          { subjectId: support.subjectId, serverId: server, name: 'Support', spaceUsed: 1000 },
        ],
        spaceUsed: 1500,
      });
      const page1 = (await as(owner, 'GET', `/api/files/servers/${server}/stats/tickets?Page=1&Amount=2`)).json<PagedResult<TicketStorage>>();
      expect(page1).toEqual({ page: 1, maxPage: 2, elements: [{ ticketId: supportTicket, spaceUsed: 1000 }, { ticketId: ticket, spaceUsed: 300 }] });
      const page2 = (await as(owner, 'GET', `/api/files/servers/${server}/stats/tickets?Page=2&Amount=2`)).json<PagedResult<TicketStorage>>();
      expect(page2).toEqual({ page: 2, maxPage: 2, elements: [{ ticketId: danaTicket, spaceUsed: 200 }] });
      expect((await as(author, 'GET', `/api/files/servers/${server}/stats`)).statusCode).toBe(403);
      expect((await as(stranger, 'GET', `/api/files/servers/${server}/stats/tickets`)).statusCode).toBe(403);
      // Another server's stats know nothing of these files.
      const other = (await as(stranger, 'GET', `/api/files/servers/${GUILDS.studyHall}/stats`)).json<StorageOverview>();
      expect(other).toEqual({ subjects: [], spaceUsed: 0 });
    });
  });

  describe('retention', () => {
    it('deletes files older than their subject’s retention time, from stored timestamps, bytes and rows', async () => {
      const support = await createSubject('Support');
      const supportTicket = await insertTicket(db(), { serverId: server, subjectId: support.subjectId, authorId: USERS.eli });
      await setSubject(billing.subjectId, 'files.retentionTime', { time: 7, unit: 'days' });
      const old = await stored(text(10), { name: 'old.txt' });
      const recent = await stored(text(10), { name: 'recent.txt' });
      const kept = await stored(text(10), { name: 'kept.txt', ticketId: supportTicket, subjectId: support.subjectId });
      await uploadedAt(old.fileId, '2025-01-02T23:59:59.000Z');
      await uploadedAt(recent.fileId, '2025-01-03T00:00:01.000Z');
      await uploadedAt(kept.fileId, '2024-01-01T00:00:00.000Z');

      const sweep = (at: string) => ctx.built.services.files.sweepRetention(new Date(at));
      expect(await sweep('2025-01-10T00:00:00.000Z')).toEqual({ expired: 1, purged: 1 });
      expect((await rows()).map((r) => r.id).sort()).toEqual([recent.fileId, kept.fileId].sort());
      expect(await storedFiles(dir)).toEqual([`servers/${server}/${kept.fileId}`, `servers/${server}/${recent.fileId}`].sort());
      expect((await withToken(old)).statusCode).toBe(404);
      // Nothing more is due at the same instant; a day later the next one is.
      expect(await sweep('2025-01-10T00:00:00.000Z')).toEqual({ expired: 0, purged: 0 });
      expect(await sweep('2025-01-10T00:00:02.000Z')).toEqual({ expired: 1, purged: 1 });
      expect((await rows()).map((r) => r.id)).toEqual([kept.fileId]);
    });

    it('sweeps in one process at a time, and after one that died holding the sweep once its lease has passed', async () => {
      await setSubject(billing.subjectId, 'files.retentionTime', { time: 7, unit: 'days' });
      const old = [await stored(text(10), { name: 'a.txt' }), await stored(text(10), { name: 'b.txt' })];
      for (const file of old) await uploadedAt(file.fileId, '2025-01-01T00:00:00.000Z');
      const at = new Date('2025-01-10T00:00:00.000Z');
      await db().insertInto('leases').values({ name: RETENTION_LEASE, holder: 'killed', until: new Date(Date.now() + 60_000).toISOString() }).execute();
      expect(await ctx.built.services.files.sweepRetention(at)).toEqual({ expired: 0, purged: 0 });
      expect(await rows()).toHaveLength(2);
      await db().updateTable('leases').set({ until: new Date(Date.now() - 1000).toISOString() }).execute();
      const sweeps = await Promise.all([ctx.built.services.files.sweepRetention(at), ctx.built.services.files.sweepRetention(at)]);
      expect(sweeps.map((s) => s.expired).sort()).toEqual([0, 2]);
      expect(await rows()).toEqual([]);
    });

    it('finishes deletions a crash interrupted, removes files of deleted tickets and stale temporary uploads', async () => {
      const interrupted = await stored(text(10), { name: 'a.txt' });
      const orphan = await stored(text(10), { name: 'b.txt', ticketId: danaTicket, token: dana });
      const live = await stored(text(10), { name: 'c.txt' });
      await db().updateTable('files').set({ deleted_at: now() }).where('id', '=', interrupted.fileId).execute();
      await db().deleteFrom('tickets').where('id', '=', danaTicket).execute();
      await mkdir(path.join(dir, 'tmp'), { recursive: true });
      await writeFile(path.join(dir, 'tmp', 'left-by-a-crash'), 'x');
      await writeFile(path.join(dir, 'tmp', 'in-progress'), 'x');
      const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
      await utimes(path.join(dir, 'tmp', 'left-by-a-crash'), twoDaysAgo, twoDaysAgo);
      expect((await withToken(orphan)).statusCode).toBe(404);

      expect(await ctx.built.services.files.sweepRetention(new Date())).toEqual({ expired: 1, purged: 2 });
      expect((await rows()).map((r) => r.id)).toEqual([live.fileId]);
      expect(await storedFiles(dir)).toEqual([`servers/${server}/${live.fileId}`, 'tmp/in-progress']);
    });
  });

  describe('atomicity', () => {
    /** Makes every insert into files fail, as a full disk or a lost connection would. */
    const breakInserts = async () => {
      if (engine === 'sqlite') {
        await sql`create trigger files_fail before insert on files begin select raise(abort, 'disk on fire'); end`.execute(db());
      } else {
        await sql`create function files_fail() returns trigger language plpgsql as $$ begin raise exception 'disk on fire'; end $$`.execute(db());
        await sql`create trigger files_fail before insert on files for each row execute function files_fail()`.execute(db());
      }
    };

    it('leaves nothing half-written when the database insert fails, and deletes nothing to make room', async () => {
      files.quotaOverrideBytes = 1000;
      await setSubject(billing.subjectId, 'files.storageExceeded', 'DeleteOldestFileGlobal');
      const old = await stored(text(900), { name: 'old.txt' });
      await breakInserts();
      const response = await upload(text(500), { name: 'new.txt', type: 'text/plain' });
      expect(response.statusCode).toBe(500);
      expect(response.json<ErrorBody>().message).toBe('An unexpected error occurred');
      expect((await rows()).map((r) => [r.id, r.deleted_at])).toEqual([[old.fileId, null]]);
      expect(await storedFiles(dir)).toEqual([`servers/${server}/${old.fileId}`]);
      expect((await withToken(old)).statusCode).toBe(200);
    });
  });
});
