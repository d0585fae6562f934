import { afterEach, describe, expect, it } from 'vitest';
import { ReportQueue } from './report-queue';
import { backoffDelay, ReportSender, type Deliver } from './report-sender';
import type { Report } from './reports';
import { openStore, type Db } from './store';
import { created, memoryLogger, waitFor } from './test/helpers';
import { ApiAnswerError, ApiUnreachableError } from './ticket-api';

const content = (r: Report) => (r as { content: string }).content;

describe('backoffDelay', () => {
  it('doubles from the base up to the cap, with jitter in the upper half', () => {
    const top = () => 1;
    expect([1, 2, 3, 4, 10, 20].map((n) => backoffDelay(n, 500, 30_000, top))).toEqual([500, 1000, 2000, 4000, 30_000, 30_000]);
    expect(backoffDelay(3, 500, 30_000, () => 0)).toBe(1000);
  });
});

describe('ReportSender', () => {
  let db: Db;
  let sender: ReportSender | null = null;
  afterEach(async () => {
    await sender?.stop();
    sender = null;
    db?.close();
  });

  const setUp = (deliver: Deliver, options: { baseDelayMs?: number; maxDelayMs?: number; concurrency?: number } = {}) => {
    db = openStore(':memory:');
    const logger = memoryLogger();
    const queue = new ReportQueue(db, { max: 1000, log: logger.log });
    sender = new ReportSender(queue, deliver, { maxDelayMs: options.maxDelayMs ?? 1000, baseDelayMs: options.baseDelayMs ?? 20, concurrency: options.concurrency, random: () => 1, log: logger.log });
    sender.start();
    return { queue, sender, lines: logger.lines };
  };

  it('sends each channel’s reports in order, and channels side by side', async () => {
    const log: string[] = [];
    const { queue } = setUp(async (r) => {
      log.push(`start ${content(r)}`);
      await new Promise((resolve) => setTimeout(resolve, content(r) === 'a1' ? 80 : 5));
      log.push(`end ${content(r)}`);
      return { outcome: 'sent' };
    });
    queue.enqueue([created('1', { content: 'a1' }), created('1', { content: 'a2' }), created('2', { content: 'b1' })]);
    sender!.wake();
    await waitFor(() => queue.depth() === 0);
    // b1 did not wait for the slow a1; a2 did.
    expect(log.indexOf('end b1')).toBeLessThan(log.indexOf('end a1'));
    expect(log.indexOf('start a2')).toBeGreaterThan(log.indexOf('end a1'));
  });

  it('retries while the API is unreachable or failing, then delivers each report once', async () => {
    let down = true;
    const delivered: string[] = [];
    let attempts = 0;
    const { queue } = setUp(async (r) => {
      attempts++;
      if (down) throw attempts % 2 ? new ApiUnreachableError('connect ECONNREFUSED') : new ApiAnswerError(503, null, 'unavailable', null);
      delivered.push(content(r));
      return { outcome: 'sent' };
    });
    queue.enqueue([created('1', { content: 'a' }), created('2', { content: 'b' }), created('1', { content: 'c' })]);
    sender!.wake();
    await waitFor(() => attempts >= 4);
    expect(sender!.status().failureStreak).toBeGreaterThan(0);
    expect(sender!.status().lastError).toMatchObject({ dropped: false });
    expect(queue.depth()).toBe(3);
    down = false;
    await waitFor(() => queue.depth() === 0, 5000);
    expect(delivered.sort()).toEqual(['a', 'b', 'c']);
    expect(sender!.status().failureStreak).toBe(0);
  });

  it('while the API fails, probes it with one report at a time and backs off exponentially', async () => {
    const at: number[] = [];
    let inFlight = 0;
    let mostAfterFirstBatch = 0;
    const { queue } = setUp(
      async () => {
        at.push(Date.now());
        inFlight++;
        if (at.length > 4) mostAfterFirstBatch = Math.max(mostAfterFirstBatch, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 1));
        inFlight--;
        throw new ApiUnreachableError('down');
      },
      { baseDelayMs: 40, maxDelayMs: 1000, concurrency: 4 },
    );
    queue.enqueue(['1', '2', '3', '4', '5'].map((c) => created(c)));
    sender!.wake();
    await waitFor(() => at.length >= 7, 5000);
    // The first batch fills the 4 slots; then one probe per pause, each pause twice the last: 40, 80, 160 ms.
    expect(mostAfterFirstBatch).toBe(1);
    const gaps = at.slice(4).map((t, i) => t - at[i + 3]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(35);
    expect(gaps[1]).toBeGreaterThanOrEqual(75);
    expect(gaps[2]).toBeGreaterThanOrEqual(155);
    expect(queue.depth()).toBe(5);
  });

  it('waits as long as Retry-After asks when rate limited', async () => {
    const at: number[] = [];
    const { queue } = setUp(async () => {
      at.push(Date.now());
      if (at.length === 1) throw new ApiAnswerError(429, 'rate_limited', 'Too many requests', 400);
      return { outcome: 'sent' };
    });
    queue.enqueue([created('1')]);
    sender!.wake();
    await waitFor(() => queue.depth() === 0, 5000);
    expect(at).toHaveLength(2);
    // Backoff alone would have retried after 20 ms.
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(390);
  });

  it('drops a report the API refuses (4xx), logs it, and goes on with the next', async () => {
    const delivered: string[] = [];
    const { queue, lines } = setUp(async (r) => {
      if (content(r) === 'bad') throw new ApiAnswerError(400, 'bad_request', 'message.content: too long', null);
      delivered.push(content(r));
      return { outcome: 'sent' };
    });
    queue.enqueue([created('1', { content: 'bad' }), created('1', { content: 'good' })]);
    sender!.wake();
    await waitFor(() => queue.depth() === 0);
    expect(delivered).toEqual(['good']);
    expect(sender!.status().lastError).toMatchObject({ kind: 'messageCreated', status: 400, dropped: true });
    expect(lines.some((l) => l.level === 50 && /report dropped/.test(l.msg))).toBe(true);
  });

  it('keeps a report whose delivery was cut by a stop, for the next start', async () => {
    let release: () => void = () => undefined;
    const { queue } = setUp(
      () =>
        new Promise((_, reject) => {
          release = () => reject(new ApiUnreachableError('aborted'));
        }),
    );
    queue.enqueue([created('1')]);
    sender!.wake();
    await waitFor(() => sender!.status().inFlight === 1);
    const stopped = sender!.stop();
    release();
    await stopped;
    expect(queue.depth()).toBe(1);
  });
});
