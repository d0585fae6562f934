/**
 * Reads of one value by key, gathered into one statement for many keys: a key asked while a read
 * is under way waits for the next read, which then reads every key asked in the meantime. Each
 * read starts after every key it reads was asked, so each answer holds what was committed before
 * it was asked, as a read of its own would (joining a read already under way would not: it may
 * have started before a write its caller has seen committed).
 *
 * For a small, hot read asked by nearly every request (a server's change counter, before a reused
 * answer): on PostgreSQL, one round trip for the requests that arrive meanwhile instead of one
 * each. At most one read is under way at a time; when none is, a key is read at once (in the same
 * turn of the event loop, with the keys asked in that turn).
 *
 * `read` gives the value of each key it found; a key it did not is given `missing`. When a read
 * fails, every caller of that read gets its error.
 */
export function gatheredReads<K, V>(read: (keys: K[]) => Promise<Map<K, V>>, missing: V): (key: K) => Promise<V> {
  type Waiter = { resolve: (value: V) => void; reject: (error: unknown) => void };
  let asked = new Map<K, Waiter[]>();
  let reading = false;

  async function readAll(): Promise<void> {
    while (asked.size > 0) {
      const batch = asked;
      asked = new Map();
      try {
        const values = await read([...batch.keys()]);
        for (const [key, waiters] of batch) {
          const value = values.has(key) ? values.get(key)! : missing;
          for (const waiter of waiters) waiter.resolve(value);
        }
      } catch (error) {
        for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
      }
    }
    reading = false;
  }

  return (key) =>
    new Promise<V>((resolve, reject) => {
      const waiters = asked.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else asked.set(key, [{ resolve, reject }]);
      if (!reading) {
        reading = true;
        queueMicrotask(() => void readAll());
      }
    });
}
