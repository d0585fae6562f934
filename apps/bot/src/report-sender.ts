import type { Logger } from 'pino';
import type { QueuedReport, ReportQueue } from './report-queue';
import type { Report } from './reports';
import { safeError } from './safe-error';
import { ApiAnswerError, ApiUnreachableError, InvalidReportError } from './ticket-api';

/** What happened to one report; `followUps` are queued in its place. */
export type Delivery = { outcome: 'sent'; followUps?: Report[] } | { outcome: 'skipped'; reason: string };

export type Deliver = (report: Report) => Promise<Delivery>;

export interface LastReportError {
  at: string;
  kind: Report['kind'];
  message: string;
  status: number | null;
  /** True when the report was given up (it will not be sent). */
  dropped: boolean;
}

export interface SenderStatus {
  depth: number;
  inFlight: number;
  /** Consecutive failures of the API; 0 when it answers. */
  failureStreak: number;
  /** Nothing is sent before this time while the API is failing. */
  pausedUntil: string | null;
  lastError: LastReportError | null;
}

export interface ReportSenderOptions {
  concurrency?: number;
  baseDelayMs?: number;
  maxDelayMs: number;
  /** Longest Retry-After honoured. */
  maxRetryAfterMs?: number;
  /** An unexpected error (a bug, not the API) gives up the report after this many attempts. */
  maxUnexpectedAttempts?: number;
  log: Logger;
  now?: () => number;
  random?: () => number;
}

/** Exponential backoff with jitter: attempt 1 waits about baseMs, doubling up to maxMs. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

type Failure = { transient: true; status: number | null; retryAfterMs: number | null } | { transient: false; status: number | null; level: 'warn' | 'error' };

/** Whether trying again can help: the API down, overloaded or rate-limiting, or our key refused. */
export function classifyFailure(error: unknown): Failure {
  if (error instanceof ApiUnreachableError) return { transient: true, status: null, retryAfterMs: null };
  if (error instanceof InvalidReportError) return { transient: false, status: null, level: 'error' };
  if (error instanceof ApiAnswerError) {
    const s = error.status;
    // 401: the operator key is wrong or not configured on the API yet; reports wait for the fix.
    if (s === 408 || s === 429 || s === 401 || s >= 500) return { transient: true, status: s, retryAfterMs: error.retryAfterMs };
    return { transient: false, status: s, level: s === 404 ? 'warn' : 'error' };
  }
  return { transient: true, status: null, retryAfterMs: null };
}

/**
 * Sends the queued reports: the first of each lane, several lanes at a time. While the API fails,
 * every lane waits (exponential backoff, or the API's Retry-After) and a single report probes it.
 * A report the API refuses (4xx other than 408/429) is logged and dropped: sending it again would
 * not help.
 */
export class ReportSender {
  private readonly busy = new Set<string>();
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  private pumpScheduled = false;
  private streak = 0;
  private pausedUntil = 0;
  private lastError: LastReportError | null = null;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly concurrency: number;
  private readonly baseDelayMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly maxUnexpectedAttempts: number;

  constructor(
    private readonly queue: ReportQueue,
    private readonly deliver: Deliver,
    private readonly options: ReportSenderOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.concurrency = options.concurrency ?? 8;
    this.baseDelayMs = options.baseDelayMs ?? 500;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 10 * 60_000;
    this.maxUnexpectedAttempts = options.maxUnexpectedAttempts ?? 20;
  }

  start(): void {
    this.running = true;
    this.wake();
  }

  /** Stops sending; resolves when the reports being sent are settled (they stay queued unless done). */
  async stop(): Promise<void> {
    this.running = false;
    this.clearTimer();
    await Promise.allSettled([...this.inFlight]);
  }

  /** New reports are queued: look at the queue soon. */
  wake(): void {
    if (this.pumpScheduled || !this.running) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  status(): SenderStatus {
    return {
      depth: this.queue.depth(),
      inFlight: this.busy.size,
      failureStreak: this.streak,
      pausedUntil: this.pausedUntil > this.now() ? new Date(this.pausedUntil).toISOString() : null,
      lastError: this.lastError,
    };
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Infinity;
  }

  private schedule(at: number): void {
    if (!this.running || at >= this.timerAt) return;
    this.clearTimer();
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.timerAt = Infinity;
        this.pump();
      },
      Math.max(0, at - this.now()),
    );
    this.timer.unref();
  }

  private pump(): void {
    if (!this.running) return;
    const now = this.now();
    if (now < this.pausedUntil) {
      this.schedule(this.pausedUntil);
      return;
    }
    // While the API fails, one report at a time finds out whether it is back.
    const slots = (this.streak > 0 ? 1 : this.concurrency) - this.busy.size;
    for (const item of this.queue.due(now, this.busy, slots)) this.send(item);
    const next = this.queue.nextDueAt(this.busy);
    if (next !== null && next > now) this.schedule(next);
  }

  private send(item: QueuedReport): void {
    this.busy.add(item.lane);
    const task = this.attempt(item).finally(() => {
      this.busy.delete(item.lane);
      this.inFlight.delete(task);
      this.pump();
    });
    this.inFlight.add(task);
  }

  private async attempt(item: QueuedReport): Promise<void> {
    const { report } = item;
    let delivery: Delivery;
    try {
      delivery = await this.deliver(report);
    } catch (error) {
      if (!this.running) return this.settleAfterStop(item, error);
      this.failed(item, error);
      return;
    }
    this.streak = 0;
    this.pausedUntil = 0;
    if (delivery.outcome === 'skipped') this.options.log.debug({ kind: report.kind, reason: delivery.reason }, 'report not sent');
    this.queue.complete(item, delivery.outcome === 'sent' ? (delivery.followUps ?? []) : []);
  }

  /** Stopping: a failed report just stays queued for the next start. */
  private settleAfterStop(item: QueuedReport, error: unknown): void {
    const failure = classifyFailure(error);
    if (!failure.transient) this.queue.complete(item);
  }

  private failed(item: QueuedReport, error: unknown): void {
    const { report } = item;
    const failure = classifyFailure(error);
    const message = error instanceof Error ? error.message : String(error);
    const attempts = item.attempts + 1;
    const known = error instanceof ApiAnswerError || error instanceof ApiUnreachableError || error instanceof InvalidReportError;
    const giveUp = !failure.transient || (!known && attempts >= this.maxUnexpectedAttempts);
    this.lastError = { at: new Date(this.now()).toISOString(), kind: report.kind, message, status: failure.status, dropped: giveUp };
    if (giveUp) {
      const level = failure.transient ? 'error' : failure.level;
      this.options.log[level]({ kind: report.kind, lane: item.lane, status: failure.status, attempts, err: known ? undefined : safeError(error) }, `report dropped: ${message}`);
      this.queue.complete(item);
      return;
    }
    const now = this.now();
    const retryAfter = failure.retryAfterMs === null ? 0 : Math.min(failure.retryAfterMs, this.maxRetryAfterMs);
    const ownDelay = Math.max(retryAfter, backoffDelay(attempts, this.baseDelayMs, this.options.maxDelayMs, this.random));
    this.queue.retry(item, now + ownDelay);
    if (known) {
      // The API (not this report) is the problem: every lane waits. Failures of reports sent
      // together are one failure of the API, not several.
      if (now >= this.pausedUntil) this.streak++;
      const pause = Math.max(retryAfter, backoffDelay(this.streak, this.baseDelayMs, this.options.maxDelayMs, this.random));
      this.pausedUntil = Math.max(this.pausedUntil, now + pause);
    }
    const log = attempts === 1 || attempts % 10 === 0 ? this.options.log.warn.bind(this.options.log) : this.options.log.debug.bind(this.options.log);
    log(
      { kind: report.kind, lane: item.lane, status: failure.status, attempts, retryInMs: ownDelay, depth: this.queue.depth(), err: known ? undefined : safeError(error) },
      `report will be retried: ${message}`,
    );
  }
}
