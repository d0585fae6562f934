import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../db/database';
import { freshDatabase } from '../../test/harness';
import { LocalizationService } from './service';
import { createTranslationChanges } from './translation-changes';

/** Two API processes on one database: what one stores, the other serves once it hears of it. */
const document = { greeting: 'Hello {{name}}', farewell: 'Goodbye' };
const upload = (service: LocalizationService, texts: Record<string, string>, sourceLanguage = 'en') =>
  service.upload({ sourceLanguage, fileName: 'help-center', addToLocalazy: false, document: texts });
const greeting = async (service: LocalizationService) =>
  (JSON.parse((await service.read('help-center', 'de')).body) as { translations: Record<string, string> }).translations.greeting;

describe('answers kept in memory by several processes', () => {
  let database: Database | undefined;
  const services: LocalizationService[] = [];
  const open = (redisUrl: string | null, clock?: () => number) => {
    const service = new LocalizationService({ db: database!.db, changes: createTranslationChanges(redisUrl), shipped: () => [], localazy: null, ...(clock ? { clock } : {}) });
    services.push(service);
    return service;
  };
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.close()));
    await database?.destroy();
  });

  it('without Redis, serves another process’s change once its copy is 30 seconds old', async () => {
    database = await freshDatabase('sqlite');
    let now = 1_000_000;
    const [one, two] = [open(null, () => now), open(null, () => now)];
    await upload(one, document);
    expect(await greeting(two)).toBe('Hello {{name}}');
    await upload(one, { greeting: 'Hallo {{name}}' }, 'de');
    expect(await greeting(one)).toBe('Hallo {{name}}');
    expect(await greeting(two)).toBe('Hello {{name}}');
    now += 30_001;
    expect(await greeting(two)).toBe('Hallo {{name}}');
  });

  it.runIf(process.env.TEST_REDIS_URL)('with Redis, every process drops its copy as soon as the file changes', async () => {
    database = await freshDatabase('sqlite');
    const redisUrl = process.env.TEST_REDIS_URL!;
    const [one, two] = [open(redisUrl), open(redisUrl)];
    await upload(one, document);
    expect(await greeting(two)).toBe('Hello {{name}}');
    await upload(one, { greeting: 'Hallo {{name}}' }, 'de');
    await vi.waitFor(async () => expect(await greeting(two)).toBe('Hallo {{name}}'), { timeout: 3000 });
  });
});
