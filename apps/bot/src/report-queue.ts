import type { Logger } from 'pino';
import { laneOf, type Report } from './reports';
import type { Db } from './store';

export interface QueuedReport {
  id: number;
  lane: string;
  report: Report;
  attempts: number;
  nextAt: number;
  createdAt: number;
}

interface Lane {
  /** Queued report ids, oldest first: only the first is ever being sent. */
  ids: number[];
  /** When the first may be tried (again). */
  headNextAt: number;
}

interface Row {
  id: number;
  lane: string;
  payload: string;
  attempts: number;
  next_at: number;
  created_at: number;
}

export interface ReportQueueOptions {
  max: number;
  log: Logger;
  now?: () => number;
}

/**
 * The reports waiting for the Ticket API, in SQLite so that none is lost when the runtime stops or
 * the API is down. Bounded: when full, the oldest report is dropped (and logged). Reports of one
 * lane (a channel, a server's events) leave in the order they came.
 */
export class ReportQueue {
  private readonly lanes = new Map<string, Lane>();
  private count = 0;
  private readonly now: () => number;
  private readonly statements;

  constructor(
    private readonly db: Db,
    private readonly options: ReportQueueOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.statements = {
      insert: db.prepare<[string, string, number], void>('INSERT INTO reports (lane, payload, created_at) VALUES (?, ?, ?)'),
      remove: db.prepare<[number], void>('DELETE FROM reports WHERE id = ?'),
      oldest: db.prepare<[], Row>('SELECT * FROM reports ORDER BY id LIMIT 1'),
      get: db.prepare<[number], Row>('SELECT * FROM reports WHERE id = ?'),
      retry: db.prepare<[number, number, number], void>('UPDATE reports SET attempts = ?, next_at = ? WHERE id = ?'),
    };
    for (const row of db.prepare<[], Pick<Row, 'id' | 'lane' | 'next_at'>>('SELECT id, lane, next_at FROM reports ORDER BY id').all()) {
      this.remember(row.lane, row.id, row.next_at);
    }
  }

  private remember(lane: string, id: number, nextAt = 0): void {
    const entry = this.lanes.get(lane);
    if (entry) entry.ids.push(id);
    else this.lanes.set(lane, { ids: [id], headNextAt: nextAt });
    this.count++;
  }

  private forget(lane: string, id: number): void {
    const entry = this.lanes.get(lane);
    if (!entry) return;
    const at = entry.ids.indexOf(id);
    if (at === -1) return;
    entry.ids.splice(at, 1);
    this.count--;
    if (entry.ids.length === 0) this.lanes.delete(lane);
    else if (at === 0) entry.headNextAt = 0;
  }

  /** How many reports wait. */
  depth(): number {
    return this.count;
  }

  /**
   * Queues the reports; `alsoInTransaction` runs in the same transaction (the runtime records
   * there that the dispatch is handled, so a crash cannot separate the two).
   */
  enqueue(reports: readonly Report[], alsoInTransaction?: () => void): void {
    const added: { lane: string; id: number }[] = [];
    const dropped: Row[] = [];
    const run = this.db.transaction(() => {
      for (const report of reports) {
        if (this.count + added.length - dropped.length >= this.options.max) {
          const oldest = this.statements.oldest.get();
          if (oldest) {
            this.statements.remove.run(oldest.id);
            dropped.push(oldest);
          }
        }
        const lane = laneOf(report);
        const { lastInsertRowid } = this.statements.insert.run(lane, JSON.stringify(report), this.now());
        added.push({ lane, id: Number(lastInsertRowid) });
      }
      alsoInTransaction?.();
    });
    run();
    // Memory follows only what was committed.
    for (const row of dropped) {
      // A report dropped in this same call was never remembered.
      const own = added.findIndex((a) => a.id === row.id);
      if (own !== -1) added.splice(own, 1);
      else this.forget(row.lane, row.id);
      const report = JSON.parse(row.payload) as Report;
      this.options.log.error(
        { kind: report.kind, lane: row.lane, queuedAt: new Date(row.created_at).toISOString(), max: this.options.max },
        'report queue full: dropped the oldest report',
      );
    }
    for (const { lane, id } of added) this.remember(lane, id);
  }

  /** The first report of each lane that may be sent now and whose lane is not busy, oldest first. */
  due(now: number, busy: ReadonlySet<string>, limit: number): QueuedReport[] {
    if (limit <= 0) return [];
    const heads: { lane: string; id: number }[] = [];
    for (const [lane, entry] of this.lanes) {
      if (busy.has(lane) || entry.headNextAt > now) continue;
      heads.push({ lane, id: entry.ids[0]! });
    }
    heads.sort((a, b) => a.id - b.id);
    const out: QueuedReport[] = [];
    for (const { id } of heads.slice(0, limit)) {
      const row = this.statements.get.get(id);
      if (row) out.push(toQueued(row));
    }
    return out;
  }

  /** When the next report of a lane that is not busy may be sent; null when none waits. */
  nextDueAt(busy: ReadonlySet<string>): number | null {
    let next: number | null = null;
    for (const [lane, entry] of this.lanes) {
      if (busy.has(lane)) continue;
      if (next === null || entry.headNextAt < next) next = entry.headNextAt;
    }
    return next;
  }

  /** The report is done with (delivered, or dropped for good); `followUps` are queued in its place. */
  complete(item: QueuedReport, followUps: readonly Report[] = []): void {
    this.db.transaction(() => {
      this.statements.remove.run(item.id);
      if (followUps.length > 0) this.enqueue(followUps);
    })();
    this.forget(item.lane, item.id);
  }

  /** The report stays first in its lane and is tried again at `nextAt`. */
  retry(item: QueuedReport, nextAt: number): void {
    this.statements.retry.run(item.attempts + 1, nextAt, item.id);
    const entry = this.lanes.get(item.lane);
    if (entry && entry.ids[0] === item.id) entry.headNextAt = nextAt;
  }
}

function toQueued(row: Row): QueuedReport {
  return { id: row.id, lane: row.lane, report: JSON.parse(row.payload) as Report, attempts: row.attempts, nextAt: row.next_at, createdAt: row.created_at };
}
