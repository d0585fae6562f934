import type { SettingsOperation, SettingsUpdate, UpdateResult } from '@ticket/contracts';
import { isResponseError } from '@/lib/api';
import { notifyError } from '@/lib/notify';
import { elementKey, sameJson } from './setting-paths';

/** SPEC §4, §9: a change waits this long for the next change of the same setting before it is sent. */
export const SETTINGS_UPDATE_DEBOUNCE_MS = 1000;

/** One change of one setting; `subjectId` is '' for a server-level setting. */
export interface SettingChange {
  subjectId: string;
  path: string;
  operation: SettingsOperation;
  value: unknown;
  /** For lists of objects: the field that identifies an element. */
  filterKey?: string;
}

/** A change the queue holds: waiting for its timer (`queued`) or sent and not answered yet (`sending`). */
export interface PendingChange extends SettingChange {
  readonly id: number;
  readonly state: 'queued' | 'sending';
}

export interface UpdateQueueOptions {
  serverId: string;
  /** Sends one bulk update (`PATCH /servers/:serverId/subjects/bulk`) and answers one result per update. */
  send: (updates: SettingsUpdate[]) => Promise<UpdateResult[]>;
  delayMs?: number;
  /** Told the message of a failed request, once per request. Default: an error toast. */
  onError?: (message: string, changes: SettingChange[]) => void;
  /** Told the answer of a successful request, each change with its result, in the order sent. */
  onResults?: (results: { change: SettingChange; result: UpdateResult }[]) => void;
}

export interface UpdateQueue {
  /**
   * Queues a change (SPEC §4). Resolves with the result for its path once sent, or rejects with
   * the error message. A change replaced by a later one settles with the later one.
   */
  enqueue(change: SettingChange): Promise<UpdateResult>;
  /** Sends what is queued now; resolves once nothing is pending any more, with whether all of it was saved. */
  flush(): Promise<boolean>;
  /** Drops the changes not sent yet; their promises reject. */
  discard(): void;
  /** Everything queued or being sent, oldest first. A new array after each change of the queue. */
  pending(): readonly PendingChange[];
  subscribe(listener: () => void): () => void;
}

/** The message a failed update rejects with: the server's own words when it sent some. */
export function updateErrorMessage(error: unknown): string {
  if (isResponseError(error) && error.body?.message) return error.body.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** What a failed change rejects with. */
export class UpdateFailedError extends Error {
  override readonly name = 'UpdateFailedError';
}

interface Waiter {
  resolve: (result: UpdateResult) => void;
  reject: (error: Error) => void;
}

interface Entry extends PendingChange {
  state: 'queued' | 'sending';
  waiters: Waiter[];
}

const keyOf = (change: Pick<SettingChange, 'subjectId' | 'path'>) => `${change.subjectId}\u0000${change.path}`;

/**
 * The debounced queue of settings updates (SPEC §4): each (subject, path) waits `delayMs` after its
 * last change; when a wait ends, everything queued goes out as one bulk update. A `set` replaces
 * every queued change of its path; an `add`/`remove` replaces a queued add/remove of the same
 * element on the same path, and is appended otherwise. A change leaves the queue when its request
 * finishes. Requests go out one after the other, so the server applies them in the order made.
 */
export function createUpdateQueue(options: UpdateQueueOptions): UpdateQueue {
  const delayMs = options.delayMs ?? SETTINGS_UPDATE_DEBOUNCE_MS;
  const onError = options.onError ?? ((message: string) => notifyError(message));
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const listeners = new Set<() => void>();
  let entries: Entry[] = [];
  let snapshot: readonly PendingChange[] = [];
  let nextId = 1;
  // The request under way, if any: the next one waits for it.
  let inFlight: Promise<void> = Promise.resolve();
  let failedRequests = 0;

  const changed = () => {
    snapshot = entries.map(({ waiters: _waiters, ...entry }) => ({ ...entry }));
    for (const listener of listeners) listener();
  };

  const clearTimers = () => {
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
  };

  const replaces = (next: SettingChange, queued: Entry): boolean => {
    if (queued.state !== 'queued' || keyOf(queued) !== keyOf(next)) return false;
    if (next.operation === 'set') return true;
    if (queued.operation === 'set') return false;
    return sameJson(elementKey(queued.value, next.filterKey), elementKey(next.value, next.filterKey));
  };

  async function send(batch: Entry[]): Promise<void> {
    const updates: SettingsUpdate[] = batch.map(({ subjectId, path, operation, value, filterKey }) => ({
      serverId: options.serverId,
      subjectId,
      path,
      operation,
      value,
      ...(filterKey === undefined ? {} : { filterKey }),
    }));
    const changes: SettingChange[] = batch.map(({ subjectId, path, operation, value, filterKey }) => ({
      subjectId,
      path,
      operation,
      value,
      ...(filterKey === undefined ? {} : { filterKey }),
    }));
    let results: UpdateResult[];
    try {
      results = await options.send(updates);
    } catch (error) {
      const message = updateErrorMessage(error);
      failedRequests += 1;
      entries = entries.filter((entry) => !batch.includes(entry));
      changed();
      try {
        onError(message, changes);
      } finally {
        for (const entry of batch) for (const waiter of entry.waiters) waiter.reject(new UpdateFailedError(message));
      }
      return;
    }
    entries = entries.filter((entry) => !batch.includes(entry));
    changed();
    const answered = batch.flatMap((entry, i) => {
      const result = results[i];
      return result ? [{ change: changes[i] as SettingChange, result }] : [];
    });
    try {
      options.onResults?.(answered);
    } finally {
      batch.forEach((entry, i) => {
        const result = results[i];
        for (const waiter of entry.waiters) {
          if (result) waiter.resolve(result);
          else waiter.reject(new UpdateFailedError(`No result for ${entry.path}`));
        }
      });
    }
  }

  /** Sends everything queued as one request, after the request under way. */
  function sendQueued(): Promise<void> {
    clearTimers();
    const batch = entries.filter((entry) => entry.state === 'queued');
    if (batch.length === 0) return inFlight;
    for (const entry of batch) entry.state = 'sending';
    changed();
    // A throwing listener must not stop the requests after it.
    inFlight = inFlight.then(() => send(batch)).catch(() => undefined);
    return inFlight;
  }

  return {
    enqueue(change) {
      return new Promise<UpdateResult>((resolve, reject) => {
        const waiters: Waiter[] = [{ resolve, reject }];
        entries = entries.filter((queued) => {
          if (!replaces(change, queued)) return true;
          waiters.unshift(...queued.waiters);
          return false;
        });
        entries.push({ ...change, id: nextId++, state: 'queued', waiters });
        const key = keyOf(change);
        const timer = timers.get(key);
        if (timer !== undefined) clearTimeout(timer);
        timers.set(
          key,
          setTimeout(() => void sendQueued(), delayMs),
        );
        changed();
      });
    },

    async flush() {
      const failedBefore = failedRequests;
      // Changes made while waiting are sent too: flushing ends with nothing pending.
      do await sendQueued();
      while (entries.length > 0);
      return failedRequests === failedBefore;
    },

    discard() {
      clearTimers();
      const dropped = entries.filter((entry) => entry.state === 'queued');
      if (dropped.length === 0) return;
      entries = entries.filter((entry) => entry.state !== 'queued');
      changed();
      for (const entry of dropped) for (const waiter of entry.waiters) waiter.reject(new UpdateFailedError('Discarded'));
    },

    pending: () => snapshot,

    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
