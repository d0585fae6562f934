import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { CreateWhitelabelRequest, UpdateWhitelabelRequest, WhitelabelListQuery } from './deployment';

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
  });
});
