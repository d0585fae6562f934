import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFileStorage, S3FileStorage, StoredObjectMissingError, type FileStorage } from './file-storage';

const BUCKET = 'ticket-files';
let root: string;
let s3: S3rver;
let s3Endpoint: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'storage-test-'));
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: path.join(root, 's3'), configureBuckets: [{ name: BUCKET }] });
  const { port } = await s3.run();
  s3Endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await s3.close();
  await rm(root, { recursive: true, force: true });
});

const drivers: [string, () => FileStorage][] = [
  ['the local disk', () => new LocalFileStorage(path.join(root, 'local'))],
  [
    'an S3-compatible bucket (s3rver)',
    () => new S3FileStorage({ bucket: BUCKET, endpoint: s3Endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true }),
  ],
];

async function readAll(storage: FileStorage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.read(key)) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** A source that sends some bytes and then breaks, as a client that goes away would. */
function breakingSource(): Readable {
  return Readable.from(
    (async function* () {
      yield Buffer.alloc(1024, 1);
      throw new Error('connection reset');
    })(),
  );
}

describe.each(drivers)('file storage on %s', (_name, make) => {
  let storage: FileStorage;
  beforeAll(() => {
    storage = make();
  });

  it('writes a stream and reads the same bytes back, large ones too', async () => {
    const big = Buffer.alloc(6 * 1024 * 1024 + 17, 3);
    big.write('first bytes');
    await storage.write('servers/1/big', Readable.from([big.subarray(0, 100), big.subarray(100)]));
    expect((await readAll(storage, 'servers/1/big')).equals(big)).toBe(true);
    await storage.write('servers/1/small', Readable.from([Buffer.from('hello')]));
    expect((await readAll(storage, 'servers/1/small')).toString()).toBe('hello');
  });

  it('says when there are no bytes under a key, and leaves nothing after a failed write', async () => {
    await expect(storage.read('servers/1/none')).rejects.toBeInstanceOf(StoredObjectMissingError);
    await expect(storage.write('tmp/broken', breakingSource())).rejects.toThrow('connection reset');
    await expect(storage.read('tmp/broken')).rejects.toBeInstanceOf(StoredObjectMissingError);
  });

  it('moves bytes to another key, and removes them (twice without complaint)', async () => {
    await storage.write('tmp/upload-1', Readable.from([Buffer.from('payload')]));
    await storage.move('tmp/upload-1', 'servers/2/file-1');
    await expect(storage.read('tmp/upload-1')).rejects.toBeInstanceOf(StoredObjectMissingError);
    expect((await readAll(storage, 'servers/2/file-1')).toString()).toBe('payload');
    await expect(storage.move('tmp/upload-1', 'servers/2/file-2')).rejects.toBeInstanceOf(StoredObjectMissingError);
    await storage.remove('servers/2/file-1');
    await storage.remove('servers/2/file-1');
    await expect(storage.read('servers/2/file-1')).rejects.toBeInstanceOf(StoredObjectMissingError);
  });

  it('removes what was written under a prefix before a date, and nothing else', async () => {
    await storage.write('tmp/left-1', Readable.from([Buffer.from('x')]));
    await storage.write('servers/3/kept', Readable.from([Buffer.from('x')]));
    expect(await storage.removeStale('tmp', new Date(Date.now() - 3600_000))).toBe(0);
    expect(await storage.removeStale('tmp', new Date(Date.now() + 3600_000))).toBeGreaterThanOrEqual(1);
    await expect(storage.read('tmp/left-1')).rejects.toBeInstanceOf(StoredObjectMissingError);
    expect((await readAll(storage, 'servers/3/kept')).toString()).toBe('x');
  });

  it('refuses keys that could leave the storage', async () => {
    for (const key of ['../escape', '/absolute', 'servers//x', 'servers/../x', '.hidden']) {
      await expect(storage.write(key, Readable.from([Buffer.from('x')])), key).rejects.toThrow(/Unsafe storage key/);
    }
  });
});
