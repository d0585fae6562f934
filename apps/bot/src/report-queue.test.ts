import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ReportQueue } from './report-queue';
import { openStore, type Db } from './store';
import { created, memoryLogger, tempDir } from './test/helpers';

describe('ReportQueue', () => {
  const dirs: { remove(): void }[] = [];
  const dbs: Db[] = [];
  const open = (file: string) => {
    const db = openStore(file);
    dbs.push(db);
    return db;
  };
  afterEach(() => {
    for (const db of dbs.splice(0)) if (db.open) db.close();
    for (const d of dirs.splice(0)) d.remove();
  });
  const file = () => {
    const d = tempDir();
    dirs.push(d);
    return path.join(d.dir, 'bot.db');
  };

  it('keeps its reports across a restart, with their retry times', () => {
    const f = file();
    const { log } = memoryLogger();
    const db = open(f);
    const queue = new ReportQueue(db, { max: 100, log });
    queue.enqueue([created('1', { content: 'first' }), created('2', { content: 'second' })]);
    const [head] = queue.due(Date.now(), new Set(), 1);
    queue.retry(head!, Date.now() + 60_000);
    db.close();

    const again = new ReportQueue(open(f), { max: 100, log });
    expect(again.depth()).toBe(2);
    // The first waits for its retry; the other lane's report is due.
    const due = again.due(Date.now(), new Set(), 10);
    expect(due.map((d) => (d.report as { content: string }).content)).toEqual(['second']);
    expect(again.due(Date.now() + 61_000, new Set(), 10).map((d) => d.attempts)).toEqual([1, 0]);
  });

  it('hands out one report per channel at a time, in the order they came', () => {
    const queue = new ReportQueue(open(file()), { max: 100, log: memoryLogger().log });
    queue.enqueue([created('1', { content: 'a1' }), created('2', { content: 'b1' }), created('1', { content: 'a2' })]);
    const contents = (items: ReturnType<typeof queue.due>) => items.map((d) => (d.report as { content: string }).content);
    const first = queue.due(Date.now(), new Set(), 10);
    expect(contents(first)).toEqual(['a1', 'b1']);
    // While a1 is being sent its channel is busy: a2 waits even though a slot is free.
    expect(contents(queue.due(Date.now(), new Set(['channel:1', 'channel:2']), 10))).toEqual([]);
    // a1 failed and waits: a2 must not overtake it.
    queue.retry(first[0]!, Date.now() + 10_000);
    expect(contents(queue.due(Date.now(), new Set(['channel:2']), 10))).toEqual([]);
    expect(queue.nextDueAt(new Set(['channel:2']))).toBeGreaterThan(Date.now() + 9000);
    queue.complete(queue.due(Date.now() + 20_000, new Set(), 10)[0]!);
    expect(contents(queue.due(Date.now(), new Set(['channel:2']), 10))).toEqual(['a2']);
  });

  it('queues follow-ups in the same step as it completes a report', () => {
    const queue = new ReportQueue(open(file()), { max: 100, log: memoryLogger().log });
    queue.enqueue([created('1')]);
    const [item] = queue.due(Date.now(), new Set(), 1);
    queue.complete(item!, [{ kind: 'fileCloned', guildId: '100', channelId: '1', fileName: 'a.png', url: 'http://x/a.png' }]);
    expect(queue.depth()).toBe(1);
    expect(queue.due(Date.now(), new Set(), 1)[0]!.report.kind).toBe('fileCloned');
  });

  it('is bounded: when full the oldest report is dropped, and that is logged as an error', () => {
    const f = file();
    const { log, lines } = memoryLogger();
    const queue = new ReportQueue(open(f), { max: 3, log });
    queue.enqueue([created('1', { content: 'm1' }), created('2', { content: 'm2' }), created('3', { content: 'm3' })]);
    queue.enqueue([created('4', { content: 'm4' }), created('1', { content: 'm5' })]);
    expect(queue.depth()).toBe(3);
    const left = queue.due(Date.now(), new Set(), 10).map((d) => (d.report as { content: string }).content);
    expect(left).toEqual(['m3', 'm4', 'm5']);
    const errors = lines.filter((l) => l.level === 50);
    expect(errors).toHaveLength(2);
    expect(errors[0]!.msg).toMatch(/queue full/);
    // Memory and file agree.
    expect(dbs[0]!.prepare('SELECT count(*) AS n FROM reports').get()).toEqual({ n: 3 });
  });

  it('belongs to one runtime: a second one cannot open the same file', () => {
    const f = file();
    open(f);
    expect(() => open(f)).toThrow(/in use by another bot runtime/);
  });
});
