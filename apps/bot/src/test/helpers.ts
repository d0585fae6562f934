import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino, type Logger } from 'pino';
import type { Report } from '../reports';

/** A directory removed after the test. */
export function tempDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'bot-test-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** A logger whose lines the test can read. */
export function memoryLogger(level = 'debug'): { log: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const log = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  return { log, lines };
}

let next = 1000;
export const created = (channelId: string, overrides: Partial<Extract<Report, { kind: 'messageCreated' }>> = {}): Report => ({
  kind: 'messageCreated',
  guildId: '100',
  channelId,
  messageId: String(next++),
  authorId: '5',
  content: 'hello',
  embeds: [],
  mentions: [],
  attachments: [],
  replyTo: null,
  ...overrides,
});

export const waitFor = async (check: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'condition'): Promise<void> => {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};
