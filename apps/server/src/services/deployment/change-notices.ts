import { EventEmitter } from 'node:events';
import { WHITELABEL_CHANGES_CHANNEL, WhitelabelChangeNotice } from '@ticket/contracts';
import { Redis } from 'ioredis';

export type ChangeListener = (notice: WhitelabelChangeNotice) => void;

/**
 * How a change of a white-label bot reaches the bot runners promptly: published once per change,
 * after it is stored. Without Redis it is an event of this process (a runner started in process
 * listens with `subscribe`). With REDIS_URL it is published on Redis pub/sub, channel
 * `WHITELABEL_CHANGES_CHANNEL` ('deployment:whitelabel-changes'), as the JSON of a
 * `WhitelabelChangeNotice`: `{serverId, change, status, revision, at}`, never a token. Runners in
 * other processes subscribe there; listeners here hear every API process's notices through it too.
 * A notice lost (Redis down, a runner restarting) is made up for by the runner's list of bots
 * (`GET /whitelabel?shardId=&shardCount=`), which stays the truth.
 */
export interface ChangeNotices {
  publish(notice: WhitelabelChangeNotice): Promise<void>;
  /** Answers the function that stops listening. */
  subscribe(listener: ChangeListener): () => void;
  /** Resolves once listeners hear notices (with Redis: once its subscription is in place). */
  listening(): Promise<void>;
  /** Where a failure to publish or subscribe is told (the app's logger); it never fails the change itself. */
  onError(report: (error: unknown) => void): void;
  close(): Promise<void>;
}

const EVENT = 'change';

export function createChangeNotices(redisUrl: string | null): ChangeNotices {
  const local = new EventEmitter();
  let report: (error: unknown) => void = () => undefined;
  if (!redisUrl) {
    return {
      async publish(notice) {
        local.emit(EVENT, notice);
      },
      subscribe(listener) {
        local.on(EVENT, listener);
        return () => local.off(EVENT, listener);
      },
      listening: async () => undefined,
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
  // A connection that subscribes can do nothing else: its own, made for the first listener.
  let subscriber: Redis | null = null;
  let subscription: Promise<void> = Promise.resolve();
  const listen = () => {
    if (subscriber) return;
    subscriber = new Redis(redisUrl, { maxRetriesPerRequest: null });
    subscriber.on('error', (error) => report(error));
    subscriber.on('message', (channel: string, text: string) => {
      if (channel !== WHITELABEL_CHANGES_CHANNEL) return;
      try {
        local.emit(EVENT, WhitelabelChangeNotice.parse(JSON.parse(text)));
      } catch (error) {
        report(error);
      }
    });
    subscription = subscriber.subscribe(WHITELABEL_CHANGES_CHANNEL).then(
      () => undefined,
      (error: unknown) => report(error),
    );
  };
  const end = async (redis: Redis | null) => {
    if (!redis) return;
    // A client that never connected (lazy, nothing published yet) has nothing to say goodbye to.
    if (redis.status === 'wait' || redis.status === 'end') redis.disconnect();
    else await redis.quit().catch(() => redis.disconnect());
  };
  return {
    async publish(notice) {
      try {
        await publisher.publish(WHITELABEL_CHANGES_CHANNEL, JSON.stringify(notice));
      } catch (error) {
        report(error);
      }
    },
    subscribe(listener) {
      listen();
      local.on(EVENT, listener);
      return () => local.off(EVENT, listener);
    },
    listening: () => subscription,
    onError(next) {
      report = next;
    },
    async close() {
      local.removeAllListeners();
      await Promise.all([end(publisher), end(subscriber)]);
    },
  };
}
