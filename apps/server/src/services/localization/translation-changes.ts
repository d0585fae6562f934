import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';

/** Redis pub/sub channel of translation changes: the message is the changed file's name, or "*" (languages changed). */
export const TRANSLATION_CHANGES_CHANNEL = 'localization:translation-changes';

/**
 * How a change of a translation file reaches every API process: an event of this process, and with
 * REDIS_URL also a message on Redis pub/sub, which every process (this one included) hears.
 * Without Redis, other processes learn of it when their copies expire (see TranslationCache).
 */
export interface TranslationChanges {
  /** Whether other processes hear of changes (Redis is configured). */
  readonly shared: boolean;
  publish(fileName: string): Promise<void>;
  subscribe(listener: (fileName: string) => void): void;
  onError(report: (error: unknown) => void): void;
  close(): Promise<void>;
}

const EVENT = 'change';

export function createTranslationChanges(redisUrl: string | null): TranslationChanges {
  const local = new EventEmitter();
  let report: (error: unknown) => void = () => undefined;
  if (!redisUrl) {
    return {
      shared: false,
      async publish(fileName) {
        local.emit(EVENT, fileName);
      },
      subscribe: (listener) => void local.on(EVENT, listener),
      onError(next) {
        report = next;
      },
      async close() {
        local.removeAllListeners();
      },
    };
  }
  const publisher = new Redis(redisUrl, { maxRetriesPerRequest: 2, lazyConnect: true });
  publisher.on('error', (error) => report(error));
  let subscriber: Redis | null = null;
  const listen = () => {
    if (subscriber) return;
    subscriber = new Redis(redisUrl, { maxRetriesPerRequest: null });
    subscriber.on('error', (error) => report(error));
    subscriber.on('message', (channel: string, fileName: string) => {
      if (channel === TRANSLATION_CHANGES_CHANNEL) local.emit(EVENT, fileName);
    });
    subscriber.subscribe(TRANSLATION_CHANGES_CHANNEL).catch((error: unknown) => report(error));
  };
  const end = async (redis: Redis | null) => {
    if (!redis) return;
    if (redis.status === 'wait' || redis.status === 'end') redis.disconnect();
    else await redis.quit().catch(() => redis.disconnect());
  };
  return {
    shared: true,
    async publish(fileName) {
      // Heard here at once: this process's answers must not wait on Redis.
      local.emit(EVENT, fileName);
      try {
        await publisher.publish(TRANSLATION_CHANGES_CHANNEL, fileName);
      } catch (error) {
        report(error);
      }
    },
    subscribe(listener) {
      listen();
      local.on(EVENT, listener);
    },
    onError(next) {
      report = next;
    },
    async close() {
      local.removeAllListeners();
      await Promise.all([end(publisher), end(subscriber)]);
    },
  };
}
