import { describe, expect, it } from 'vitest';
import { availableParallelism } from 'node:os';
import { loadConfig } from './config';

describe('configuration', () => {
  const key = '11'.repeat(32);

  it('runs in demo mode without platform credentials, on SQLite under ./data', () => {
    const config = loadConfig({ ENCRYPTION_KEY: key });
    expect(config.demo).toBe(true);
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toMatch(/^sqlite:\/\/.*data\/dashboard\.db$/);
    expect(config.services).toHaveLength(8);
  });

  it('leaves demo mode when client id, secret and bot token are set, and then needs an encryption key', () => {
    const env = { DISCORD_CLIENT_ID: '1', DISCORD_CLIENT_SECRET: 's', DISCORD_BOT_TOKEN: 't' };
    expect(() => loadConfig(env)).toThrow(/ENCRYPTION_KEY is required/);
    expect(loadConfig({ ...env, ENCRYPTION_KEY: key }).demo).toBe(false);
  });

  it('names a bad setting', () => {
    expect(() => loadConfig({ ENCRYPTION_KEY: key, PORT: 'eighty' })).toThrow('PORT must be a non-negative integer, got "eighty"');
    expect(() => loadConfig({ ENCRYPTION_KEY: key, SERVICES: 'support,tickets' })).toThrow(/unknown service "tickets"/);
    expect(() => loadConfig({ ENCRYPTION_KEY: 'abc' })).toThrow(/32 bytes/);
  });

  it('keeps twice the cores of database connections, 4 to 10, unless told otherwise', () => {
    expect(loadConfig({ ENCRYPTION_KEY: key }).databasePoolSize).toBe(Math.min(10, Math.max(4, 2 * availableParallelism())));
    expect(loadConfig({ ENCRYPTION_KEY: key, DATABASE_POOL_SIZE: '3' }).databasePoolSize).toBe(3);
    expect(() => loadConfig({ ENCRYPTION_KEY: key, DATABASE_POOL_SIZE: '0' })).toThrow('DATABASE_POOL_SIZE must be at least 1, got "0"');
    expect(() => loadConfig({ ENCRYPTION_KEY: key, DATABASE_POOL_SIZE: 'many' })).toThrow('DATABASE_POOL_SIZE must be a non-negative integer, got "many"');
  });

  it('keeps files under the data dir, up to 25 MiB, of safe types, unless told otherwise', () => {
    const files = loadConfig({ ENCRYPTION_KEY: key, DATA_DIR: '/srv/dash' }).files;
    expect(files).toMatchObject({ dir: '/srv/dash/files', maxUploadBytes: 25 * 1024 * 1024, cloneTimeoutMs: 15_000, quotaOverrideBytes: null });
    expect(files.allowedTypes).toContain('image/png');
    expect(files.allowedTypes).not.toContain('text/html');
    const custom = loadConfig({ ENCRYPTION_KEY: key, FILES_DIR: '/mnt/files', MAX_UPLOAD_BYTES: '1048576', FILES_ALLOWED_TYPES: 'image/*, Application/PDF' }).files;
    expect(custom).toMatchObject({ dir: '/mnt/files', maxUploadBytes: 1048576, allowedTypes: ['image/*', 'application/pdf'] });
    expect(() => loadConfig({ ENCRYPTION_KEY: key, MAX_UPLOAD_BYTES: '25MB' })).toThrow('MAX_UPLOAD_BYTES must be a non-negative integer, got "25MB"');
    expect(files.s3).toBeNull();
    // Download tokens open a file for an hour unless told otherwise, never for less than a minute.
    expect(files.tokenTtlSeconds).toBe(3600);
    expect(loadConfig({ ENCRYPTION_KEY: key, FILE_TOKEN_TTL_SECONDS: '600' }).files.tokenTtlSeconds).toBe(600);
    expect(() => loadConfig({ ENCRYPTION_KEY: key, FILE_TOKEN_TTL_SECONDS: '1h' })).toThrow('FILE_TOKEN_TTL_SECONDS must be a non-negative integer, got "1h"');
    expect(() => loadConfig({ ENCRYPTION_KEY: key, FILE_TOKEN_TTL_SECONDS: '0' })).toThrow('FILE_TOKEN_TTL_SECONDS must be at least 60 (seconds), got "0"');
  });

  it('keeps files in an S3-compatible bucket when S3_BUCKET is set', () => {
    const env = { ENCRYPTION_KEY: key, S3_BUCKET: 'files', S3_ENDPOINT: 'http://minio:9000', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret', S3_FORCE_PATH_STYLE: 'true' };
    expect(loadConfig(env).files.s3).toEqual({ bucket: 'files', endpoint: 'http://minio:9000', region: 'us-east-1', accessKeyId: 'id', secretAccessKey: 'secret', forcePathStyle: true });
    expect(loadConfig({ ENCRYPTION_KEY: key, S3_BUCKET: 'files', S3_REGION: 'eu-west-1' }).files.s3).toEqual({
      bucket: 'files',
      endpoint: null,
      region: 'eu-west-1',
      accessKeyId: null,
      secretAccessKey: null,
      forcePathStyle: false,
    });
  });
});
