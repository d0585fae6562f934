import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import sharp from 'sharp';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Subject, UploadedFile } from '@ticket/contracts';
import { DEFAULT_FILE_TYPES, type FilesConfig } from '../../config';
import { now } from '../../db/database';
import { S3FileStorage, StoredObjectMissingError, type S3Options } from '../../platform/file-storage';
import { bearer, createTestApp, resetSandbox, signIn, startTestSandbox, type Sandbox, type TestContext } from '../../test/harness';
import { GUILDS, USERS } from '../../test/demo-world';
import { insertTicket } from '../../test/test-tickets';

const BUCKET = 'ticket-files';
const server = GUILDS.pixelForge;

let sandbox: Sandbox;
let s3: S3rver;
let root: string;
let s3Options: S3Options;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  root = await mkdtemp(path.join(tmpdir(), 'files-s3-test-'));
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: path.join(root, 's3'), configureBuckets: [{ name: BUCKET }] });
  const { port } = await s3.run();
  s3Options = { bucket: BUCKET, endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true };
});
afterAll(async () => {
  await sandbox.close();
  await s3.close();
  await rm(root, { recursive: true, force: true });
});

// The storage does not depend on the database engine, so one engine is enough here.
describe('files service on S3-compatible storage', () => {
  let ctx: TestContext;
  let files: FilesConfig;
  let owner: string;
  let billing: Subject;
  let ticket: string;
  const bucket = () => new S3FileStorage(s3Options);

  beforeEach(async () => {
    await resetSandbox(sandbox);
    files = { dir: path.join(root, 'unused-local-dir'), maxUploadBytes: 1024 * 1024, allowedTypes: DEFAULT_FILE_TYPES, cloneTimeoutMs: 5000, quotaOverrideBytes: null, s3: s3Options, tokenTtlSeconds: 3600 };
    ctx = await createTestApp(sandbox, 'sqlite', { files });
    owner = (await signIn(ctx, USERS.alice)).token;
    billing = (await ctx.built.app.inject({ method: 'POST', url: `/api/settings/servers/${server}/subjects`, headers: bearer(owner), payload: { name: 'Billing' } })).json<Subject>();
    await ctx.built.database.db.updateTable('servers').set({ plan: 'premium', updated_at: now() }).where('id', '=', server).execute();
    ticket = await insertTicket(ctx.built.database.db, { serverId: server, subjectId: billing.subjectId, authorId: USERS.eli });
  });
  afterEach(async () => {
    await ctx.close();
    // Every test starts from an empty bucket.
    await bucket().removeStale('servers', new Date(Date.now() + 3600_000));
  });

  async function upload(bytes: Buffer, name: string, type: string) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    const query = new URLSearchParams({ FileName: name, ServerId: server, TicketId: ticket, SubjectId: billing.subjectId });
    return ctx.built.app.inject({
      method: 'POST',
      url: `/api/files/files/upload?${query}`,
      headers: { 'content-type': request.headers.get('content-type')!, ...bearer(owner) },
      payload: Buffer.from(await request.arrayBuffer()),
    });
  }

  it('keeps the bytes in the bucket, serves them back and deletes them there', async () => {
    const image = await sharp({ create: { width: 24, height: 18, channels: 3, background: '#2a6' } }).png().toBuffer();
    const response = await upload(image, 'shot.png', 'image/png');
    expect(response.statusCode, response.body).toBe(201);
    const file = response.json<UploadedFile>();
    expect(file).toMatchObject({ width: 24, height: 18 });
    const served = await ctx.built.app.inject({ method: 'GET', url: `/api/files/files/${file.fileId}/shot.png?token=${file.token}` });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(image)).toBe(true);
    expect(await readdir(root)).not.toContain('unused-local-dir');

    await ctx.built.database.db.updateTable('files').set({ created_at: '2025-01-01T00:00:00.000Z' }).execute();
    const patch = { serverId: server, subjectId: billing.subjectId, path: 'files.retentionTime', operation: 'set', value: { time: 1, unit: 'days' } };
    expect((await ctx.built.app.inject({ method: 'PATCH', url: `/api/settings/servers/${server}/subjects/${billing.subjectId}`, headers: bearer(owner), payload: patch })).statusCode).toBe(200);
    expect(await ctx.built.services.files.sweepRetention(new Date('2025-01-03T00:00:00.000Z'))).toEqual({ expired: 1, purged: 1 });
    await expect(bucket().read(`servers/${server}/${file.fileId}`)).rejects.toBeInstanceOf(StoredObjectMissingError);
  });

  it('leaves no object behind when the database insert fails', async () => {
    await sql`create trigger files_fail before insert on files begin select raise(abort, 'disk on fire'); end`.execute(ctx.built.database.db);
    expect((await upload(Buffer.from('some notes'), 'notes.txt', 'text/plain')).statusCode).toBe(500);
    expect(await bucket().removeStale('tmp', new Date(Date.now() + 3600_000))).toBe(0);
    expect(await bucket().removeStale('servers', new Date(Date.now() + 3600_000))).toBe(0);
  });
});
