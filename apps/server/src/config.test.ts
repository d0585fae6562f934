import { describe, expect, it } from 'vitest';
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
});
