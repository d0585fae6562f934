import { createNotices, type Notices } from '../../platform/notices';

/** Redis pub/sub channel of translation changes: the message is the changed file's name, or "*" (languages changed). */
export const TRANSLATION_CHANGES_CHANNEL = 'localization:translation-changes';

/**
 * How a change of a translation file reaches every API process: an event of this process, heard at
 * once (this process's answers must not wait on Redis), and with REDIS_URL also a message on Redis
 * pub/sub, which every process hears. Without Redis, other processes learn of it when their copies
 * expire (see TranslationCache).
 */
export type TranslationChanges = Notices<string>;

export function createTranslationChanges(redisUrl: string | null): TranslationChanges {
  return createNotices({ redisUrl, channel: TRANSLATION_CHANGES_CHANNEL, encode: (fileName) => fileName, decode: (text) => text, hereAtOnce: true });
}
