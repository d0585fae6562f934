import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const base = { DISCORD_BOT_TOKEN: 'token', ADMIN_KEYS: 'k1,k2' };

describe('loadConfig', () => {
  it('defaults to one process holding every shard the gateway recommends', () => {
    const config = loadConfig({ ...base, DATA_DIR: '/tmp/d' });
    expect(config).toMatchObject({ shardCount: null, shardIds: null, apiKey: 'k1', port: 3002, ticketApiUrl: 'http://localhost:3000', databaseFile: path.join('/tmp/d', 'bot.db') });
  });

  it('takes BOT_API_KEY over ADMIN_KEYS, and requires a key and a token', () => {
    expect(loadConfig({ ...base, BOT_API_KEY: 'bot' }).apiKey).toBe('bot');
    expect(() => loadConfig({ DISCORD_BOT_TOKEN: 't' })).toThrow(/BOT_API_KEY or ADMIN_KEYS/);
    expect(() => loadConfig({ ADMIN_KEYS: 'k' })).toThrow(/DISCORD_BOT_TOKEN/);
  });

  it('splits shards over processes, each with its own file', () => {
    const config = loadConfig({ ...base, SHARD_COUNT: '4', SHARD_IDS: '3, 1', DATA_DIR: '/tmp/d' });
    expect(config).toMatchObject({ shardCount: 4, shardIds: [1, 3], databaseFile: path.join('/tmp/d', 'bot-shards-1-3.db') });
    expect(() => loadConfig({ ...base, SHARD_IDS: '1' })).toThrow(/SHARD_COUNT/);
    expect(() => loadConfig({ ...base, SHARD_COUNT: '2', SHARD_IDS: '2' })).toThrow(/outside/);
    expect(() => loadConfig({ ...base, SHARD_COUNT: '0' })).toThrow(/SHARD_COUNT/);
  });
});
