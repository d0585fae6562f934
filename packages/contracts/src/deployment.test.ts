import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { CreateWhitelabelRequest, UpdateWhitelabelRequest, WhitelabelChangeNotice, WhitelabelListQuery, WhitelabelStatusReport } from './deployment';

const messagesOf = (r: z.ZodSafeParseResult<unknown>): string[] =>
  r.success ? [] : r.error.issues.map((i) => i.message);
const TOKEN = `${'M'.repeat(26)}.${'G'.repeat(6)}.${'x'.repeat(38)}`;

describe('white-label requests', () => {
  it('accepts a well-formed bot token', () => {
    expect(CreateWhitelabelRequest.safeParse({ token: TOKEN, activity: 'Helping out' }).success).toBe(true);
  });

  it('answers "Invalid token" for anything else', () => {
    for (const token of ['', 'abc', 'not.a.token', `${TOKEN} `, 'x'.repeat(300)]) {
      expect(messagesOf(CreateWhitelabelRequest.safeParse({ token })), token).toContain('Invalid token');
    }
  });

  it('bounds the activity and refuses an empty change', () => {
    expect(CreateWhitelabelRequest.safeParse({ token: TOKEN, activity: 'x'.repeat(129) }).success).toBe(false);
    expect(messagesOf(UpdateWhitelabelRequest.safeParse({}))).toEqual(['Nothing to update']);
    expect(UpdateWhitelabelRequest.safeParse({ activity: null }).success).toBe(true);
  });

  it('coerces the list query', () => {
    expect(WhitelabelListQuery.parse({ includeToken: 'false', shardId: '0' })).toEqual({
      Page: 1,
      Amount: 100,
      includeToken: false,
      shardId: 0,
    });
    expect(WhitelabelListQuery.safeParse({ shardId: '-1' }).success).toBe(false);
    expect(WhitelabelListQuery.parse({ shardId: '2', shardCount: '4' })).toMatchObject({ shardId: 2, shardCount: 4 });
    expect(WhitelabelListQuery.safeParse({ shardCount: '0' }).success).toBe(false);
  });
});

describe('the runner’s status report', () => {
  it('takes a status, a reason and the revision it is about; a failure needs its reason', () => {
    expect(WhitelabelStatusReport.parse({ status: 'Running', revision: 3 })).toEqual({ status: 'Running', revision: 3 });
    expect(WhitelabelStatusReport.parse({ status: 'Failed', reason: ' Disallowed intent(s) ' })).toEqual({ status: 'Failed', reason: 'Disallowed intent(s)' });
    expect(messagesOf(WhitelabelStatusReport.safeParse({ status: 'Failed' }))).toEqual(['A failed bot needs a reason']);
    expect(messagesOf(WhitelabelStatusReport.safeParse({ status: 'Failed', reason: '   ' }))).toEqual(['A failed bot needs a reason']);
    expect(WhitelabelStatusReport.safeParse({ status: 'Crashed' }).success).toBe(false);
    expect(WhitelabelStatusReport.safeParse({ status: 'Running', revision: 0 }).success).toBe(false);
  });

  it('is announced to the runners without a token', () => {
    const notice = { serverId: '1300000000000000001', change: 'started', status: 'Starting', revision: 2, at: '2025-01-15T12:00:00.000Z' };
    expect(WhitelabelChangeNotice.parse(notice)).toEqual(notice);
    expect(Object.keys(WhitelabelChangeNotice.shape)).not.toContain('token');
  });
});
