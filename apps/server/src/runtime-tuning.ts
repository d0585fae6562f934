import v8 from 'node:v8';

/**
 * V8's allocation-site pretenuring off, set before the API serves anything. V8 watches how many
 * objects of each allocation site outlive a young-generation collection and, past a share, has
 * that site allocate straight into the old generation. Under load a list's rows (node-postgres's
 * parsed rows and their strings) are in flight across collections often enough to cross that
 * share: from then on every row went to the old generation, which filled in about 0.45 s and was
 * marked and compacted each time (4–13 ms pauses that every request in flight waits out). Kept
 * young, nearly all of them die there. Measured with `npm run bench` on PostgreSQL at a million
 * tickets (README, "Tenth run"). Set here rather than on the command line: Node refuses this
 * flag in NODE_OPTIONS, and every way of starting the API (`npm start`, the built file, the bench
 * and the soak) passes through startServer.
 */
export function tuneGarbageCollector(): void {
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
}
