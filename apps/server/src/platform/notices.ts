import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';

/**
 * Notices of a change that other parts of the product must hear promptly: an event of this process,
 * and with REDIS_URL a message on a Redis pub/sub channel, which every process subscribed to it
 * hears (this one included). A notice is a hint, never the truth: a lost one is made up for by
 * whoever listens reading the state again.
 */
export interface Notices<T> {
  /** Whether other processes hear of notices (Redis is configured). */
  readonly shared: boolean;
  publish(notice: T): Promise<void>;
  /** Answers the function that stops listening. */
  subscribe(listener: (notice: T) => void): () => void;
  /** Resolves once listeners hear notices (with Redis: once its subscription is in place). */
  listening(): Promise<void>;
  /** Where a failure to publish, subscribe or read a notice is told (the app's logger); it never fails the change itself. */
  onError(report: (error: unknown) => void): void;
  close(): Promise<void>;
}

export interface NoticesOptions<T> {
  redisUrl: string | null;
  channel: string;
  encode(notice: T): string;
  /** Throws on a message that is not a notice; the error is reported and the message dropped. */
  decode(text: string): T;
  /** Heard in this process at once, besides through Redis, when this process must not wait on it. */
  hereAtOnce?: boolean;
}

const EVENT = 'notice';

export function createNotices<T>(options: NoticesOptions<T>): Notices<T> {
  const local = new EventEmitter();
  let report: (error: unknown) => void = () => undefined;
  const on = (listener: (notice: T) => void) => {
    local.on(EVENT, listener);
    return () => void local.off(EVENT, listener);
  };
  const { redisUrl, channel } = options;
  if (!redisUrl) {
    return {
      shared: false,
      async publish(notice) {
        local.emit(EVENT, notice);
      },
      subscribe: on,
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
    subscriber.on('message', (from: string, text: string) => {
      if (from !== channel) return;
      try {
        local.emit(EVENT, options.decode(text));
      } catch (error) {
        report(error);
      }
    });
    subscription = subscriber.subscribe(channel).then(
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
    shared: true,
    async publish(notice) {
      if (options.hereAtOnce) local.emit(EVENT, notice);
      try {
        await publisher.publish(channel, options.encode(notice));
      } catch (error) {
        report(error);
      }
    },
    subscribe(listener) {
      listen();
      return on(listener);
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
