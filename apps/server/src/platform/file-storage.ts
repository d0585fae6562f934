import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type { Upload as S3Upload } from '@aws-sdk/lib-storage';
import type { Config } from '../config';

/** The bytes asked for are not in the storage. */
export class StoredObjectMissingError extends Error {
  constructor(readonly key: string) {
    super(`No stored object ${key}`);
    this.name = 'StoredObjectMissingError';
  }
}

/**
 * Where file bytes live. Keys are relative, slash-separated and made by the files service only
 * (`tmp/<uuid>` while an upload is checked, `servers/<serverId>/<fileId>` once it is kept).
 */
export interface FileStorage {
  readonly kind: string;
  /** Streams the source under a new key (keys are fresh uuids, never reused). A failed write leaves nothing behind. */
  write(key: string, source: Readable): Promise<void>;
  /** The stored bytes; throws StoredObjectMissingError when there are none. */
  read(key: string): Promise<Readable>;
  /** Gives stored bytes another key (the temporary key of an upload its final one). */
  move(from: string, to: string): Promise<void>;
  /** Removes the bytes; removing what is not there is not an error. */
  remove(key: string): Promise<void>;
  /** Removes what was written under the prefix before the date (temporary uploads a crash left behind). */
  removeStale(prefix: string, before: Date): Promise<number>;
}

const SAFE_KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

function checkKey(key: string): string {
  if (!SAFE_KEY.test(key)) throw new Error(`Unsafe storage key "${key}"`);
  return key;
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';

/** Files on the local disk under one root directory. */
export class LocalFileStorage implements FileStorage {
  readonly kind = 'local';

  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    return path.join(this.root, ...checkKey(key).split('/'));
  }

  async write(key: string, source: Readable): Promise<void> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    const out = createWriteStream(file, { flags: 'wx' });
    try {
      await pipeline(source, out);
    } catch (error) {
      // A half-written file is never left under a key (but an existing one is not ours to remove).
      // The stream may still be opening the file when the source fails: remove it once it closed.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') await rm(file, { force: true });
      throw error;
    }
  }

  async read(key: string): Promise<Readable> {
    const file = this.pathOf(key);
    try {
      await stat(file);
    } catch (error) {
      if (isMissing(error)) throw new StoredObjectMissingError(key);
      throw error;
    }
    return createReadStream(file);
  }

  async move(from: string, to: string): Promise<void> {
    const target = this.pathOf(to);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await rename(this.pathOf(from), target);
    } catch (error) {
      if (isMissing(error)) throw new StoredObjectMissingError(from);
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async removeStale(prefix: string, before: Date): Promise<number> {
    const dir = this.pathOf(prefix);
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if (isMissing(error)) return 0;
      throw error;
    }
    let removed = 0;
    for (const name of names) {
      const file = path.join(dir, name);
      const info = await stat(file).catch(() => null);
      if (info?.isFile() && info.mtime < before) {
        await rm(file, { force: true });
        removed += 1;
      }
    }
    return removed;
  }
}

export interface S3Options {
  bucket: string;
  /** An S3-compatible endpoint (MinIO, R2, …); null for AWS itself. */
  endpoint: string | null;
  region: string;
  /** Null: the SDK's default credential chain (AWS_* variables, instance roles). */
  accessKeyId: string | null;
  secretAccessKey: string | null;
  forcePathStyle: boolean;
}

type S3Runtime = { sdk: typeof S3Sdk; client: S3Sdk.S3Client; Upload: typeof S3Upload };

const isNoSuchKey = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

/**
 * Objects in an S3-compatible bucket, for several server processes sharing one storage. The SDK
 * is loaded on first use, so a server on the local disk never pays for it.
 */
export class S3FileStorage implements FileStorage {
  readonly kind = 's3';
  private runtime: Promise<S3Runtime> | null = null;

  constructor(private readonly options: S3Options) {}

  private load(): Promise<S3Runtime> {
    this.runtime ??= (async () => {
      const [sdk, { Upload }] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]);
      const { endpoint, region, accessKeyId, secretAccessKey, forcePathStyle } = this.options;
      const client = new sdk.S3Client({
        region,
        forcePathStyle,
        ...(endpoint ? { endpoint } : {}),
        ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
        // Plain requests that every S3-compatible store understands (no aws-chunked trailing checksums).
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
      return { sdk, client, Upload };
    })();
    return this.runtime;
  }

  async write(key: string, source: Readable): Promise<void> {
    const { client, Upload } = await this.load();
    // Multipart for large bodies; an upload that fails is aborted, leaving no parts behind.
    await new Upload({ client, params: { Bucket: this.options.bucket, Key: checkKey(key), Body: source }, queueSize: 2, leavePartsOnError: false }).done();
  }

  async read(key: string): Promise<Readable> {
    const { sdk, client } = await this.load();
    try {
      const answer = await client.send(new sdk.GetObjectCommand({ Bucket: this.options.bucket, Key: checkKey(key) }));
      return answer.Body as Readable;
    } catch (error) {
      if (isNoSuchKey(error)) throw new StoredObjectMissingError(key);
      throw error;
    }
  }

  async move(from: string, to: string): Promise<void> {
    const { sdk, client } = await this.load();
    const { bucket } = this.options;
    try {
      await client.send(new sdk.CopyObjectCommand({ Bucket: bucket, Key: checkKey(to), CopySource: `${bucket}/${checkKey(from)}` }));
    } catch (error) {
      if (isNoSuchKey(error)) throw new StoredObjectMissingError(from);
      throw error;
    }
    await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: from }));
  }

  async remove(key: string): Promise<void> {
    const { sdk, client } = await this.load();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.options.bucket, Key: checkKey(key) }));
  }

  async removeStale(prefix: string, before: Date): Promise<number> {
    const { sdk, client } = await this.load();
    let removed = 0;
    let token: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: `${checkKey(prefix)}/`, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key && object.LastModified && object.LastModified < before) {
          await client.send(new sdk.DeleteObjectCommand({ Bucket: this.options.bucket, Key: object.Key }));
          removed += 1;
        }
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return removed;
  }
}

/** The storage the configuration asks for: an S3-compatible bucket when S3_BUCKET is set, else the local disk under FILES_DIR. */
export function createFileStorage(config: Pick<Config, 'files'>): FileStorage {
  return config.files.s3 ? new S3FileStorage(config.files.s3) : new LocalFileStorage(config.files.dir);
}
