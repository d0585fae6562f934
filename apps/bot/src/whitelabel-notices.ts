import { WHITELABEL_CHANGES_CHANNEL, WhitelabelChangeNotice } from '@ticket/contracts';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { safeError } from './safe-error';

/**
 * The API's white-label change notices, heard on Redis pub/sub (REDIS_URL, channel
 * 'deployment:whitelabel-changes'): each is handed on as it comes. Answers the function that
 * stops listening. A notice lost (Redis down) is made up for by the runtime's poll.
 */
export function listenToWhitelabelChanges(redisUrl: string, onNotice: (notice: WhitelabelChangeNotice) => void, log: Logger): () => Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null, lazyConnect: false });
  redis.on('error', (error: unknown) => log.warn({ err: safeError(error) }, 'Redis (white-label change notices) unavailable; polling meanwhile'));
  redis.on('message', (channel: string, text: string) => {
    if (channel !== WHITELABEL_CHANGES_CHANNEL) return;
    try {
      onNotice(WhitelabelChangeNotice.parse(JSON.parse(text)));
    } catch (error) {
      log.warn({ err: safeError(error) }, 'a white-label change notice could not be read');
    }
  });
  redis.subscribe(WHITELABEL_CHANGES_CHANNEL).catch((error: unknown) => log.warn({ err: safeError(error) }, 'white-label change notices not subscribed'));
  return async () => {
    await redis.quit().catch(() => redis.disconnect());
  };
}
