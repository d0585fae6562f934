import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  CreateTicketMessageRequest,
  DiscordInteraction,
  RemoveReactionRequest,
  SearchRequest,
  StatsRangeQuery,
  TicketListQuery,
  TopStatsQuery,
  UpdateTicketRequest,
} from './support';

const messagesOf = (r: z.ZodSafeParseResult<unknown>): string[] =>
  r.success ? [] : r.error.issues.map((i) => i.message);
const USER = '123456789012345678';

describe('statistics date ranges', () => {
  it('accepts YYYY-MM-DD ranges with start on or before end', () => {
    expect(StatsRangeQuery.safeParse({ startDate: '2025-01-01', endDate: '2025-01-31' }).success).toBe(true);
    expect(StatsRangeQuery.safeParse({ startDate: '2025-03-05', endDate: '2025-03-05' }).success).toBe(true);
  });

  it('rejects an end before the start, at endDate', () => {
    const r = StatsRangeQuery.safeParse({ startDate: '2025-02-01', endDate: '2025-01-31' });
    expect(messagesOf(r)).toEqual(['endDate must not be before startDate']);
    expect(r.success ? null : r.error.issues[0]?.path).toEqual(['endDate']);
  });

  it('rejects other date formats and impossible dates', () => {
    expect(StatsRangeQuery.safeParse({ startDate: '01/02/2025', endDate: '2025-02-03' }).success).toBe(false);
    expect(StatsRangeQuery.safeParse({ startDate: '2025-02-30', endDate: '2025-03-03' }).success).toBe(false);
    expect(StatsRangeQuery.safeParse({ startDate: '2025-01-01T00:00:00Z', endDate: '2025-01-02' }).success).toBe(false);
    expect(StatsRangeQuery.safeParse({ startDate: '2025-01-01' }).success).toBe(false);
  });

  it('caps the range at 366 days, both ends included', () => {
    expect(StatsRangeQuery.safeParse({ startDate: '2024-01-01', endDate: '2024-12-31' }).success).toBe(true);
    expect(messagesOf(StatsRangeQuery.safeParse({ startDate: '2024-01-01', endDate: '2025-01-01' }))).toEqual([
      'The range covers 367 days; the limit is 366',
    ]);
  });

  it('lets the top lists run over all time, or over a range given whole', () => {
    expect(TopStatsQuery.parse({})).toEqual({ Page: 1, Amount: 100 });
    expect(TopStatsQuery.safeParse({ startDate: '2025-01-01', endDate: '2025-01-07', Page: '2' }).success).toBe(true);
    expect(messagesOf(TopStatsQuery.safeParse({ startDate: '2025-01-01' }))).toEqual([
      'startDate and endDate go together',
    ]);
    expect(messagesOf(TopStatsQuery.safeParse({ startDate: '2025-01-08', endDate: '2025-01-07' }))).toEqual([
      'endDate must not be before startDate',
    ]);
  });
});

describe('ticket list query', () => {
  it('coerces query strings and applies the paging defaults', () => {
    expect(TicketListQuery.parse({})).toEqual({ Page: 1, Amount: 100 });
    expect(TicketListQuery.parse({ Page: '3', Amount: '25', Active: 'false', Author: USER })).toEqual({
      Page: 3,
      Amount: 25,
      Active: false,
      Author: USER,
    });
    expect(TicketListQuery.parse({ Active: 'true' }).Active).toBe(true);
    expect(TicketListQuery.parse({ Active: '1' }).Active).toBe(true);
  });

  it('rejects bad paging, non-boolean flags and malformed ids', () => {
    expect(TicketListQuery.safeParse({ Page: '0' }).success).toBe(false);
    expect(TicketListQuery.safeParse({ Page: 'two' }).success).toBe(false);
    expect(TicketListQuery.safeParse({ Amount: '1001' }).success).toBe(false);
    expect(TicketListQuery.safeParse({ Active: 'yes' }).success).toBe(false);
    expect(TicketListQuery.safeParse({ Author: 'someone' }).success).toBe(false);
  });

  it('needs search text', () => {
    expect(messagesOf(SearchRequest.safeParse({ text: '   ' }))).toEqual(['Search text is required']);
    expect(SearchRequest.parse({ text: ' refund ' })).toEqual({ text: 'refund' });
  });
});

describe('ticket and message bodies', () => {
  it('refuses an update that changes nothing', () => {
    expect(messagesOf(UpdateTicketRequest.safeParse({}))).toEqual(['Nothing to update']);
    expect(UpdateTicketRequest.safeParse({ assigneeId: null }).success).toBe(true);
    expect(UpdateTicketRequest.safeParse({ closure: { closedBy: USER, reason: null, force: false } }).success).toBe(
      true,
    );
  });

  it('needs content, an embed or an attachment in a new message, within the platform’s largest limit', () => {
    const body = (content: string) => ({ message: { content }, messageType: 'Staff' });
    expect(messagesOf(CreateTicketMessageRequest.safeParse(body(' ')))).toEqual([
      'A message needs content, an embed or an attachment',
    ]);
    expect(CreateTicketMessageRequest.parse(body('Hello')).message).toEqual({
      content: 'Hello',
      embeds: [],
      mentions: [],
      attachments: [],
    });
    // Members with the platform's larger allowance write up to 4000 characters.
    expect(CreateTicketMessageRequest.safeParse(body('x'.repeat(4000))).success).toBe(true);
    expect(CreateTicketMessageRequest.safeParse(body('x'.repeat(4001))).success).toBe(false);
  });

  it('knows which reaction removal needs which fields', () => {
    const emoji = { id: null, name: '👍' };
    expect(RemoveReactionRequest.safeParse({ deleteAll: true }).success).toBe(true);
    expect(RemoveReactionRequest.safeParse({ clearEmoji: true, emoji }).success).toBe(true);
    expect(RemoveReactionRequest.safeParse({ reactorId: USER, emoji }).success).toBe(true);
    expect(messagesOf(RemoveReactionRequest.safeParse({ clearEmoji: true }))).toEqual([
      'emoji is required unless deleteAll is set',
    ]);
    expect(messagesOf(RemoveReactionRequest.safeParse({ emoji }))).toEqual([
      'reactorId is required unless deleteAll or clearEmoji is set',
    ]);
  });

  it('keeps platform interactions loose but typed', () => {
    const ping = DiscordInteraction.parse({ type: 1, id: '1', application_id: '2', token: 't', version: 1 });
    expect(ping).toMatchObject({ type: 1, token: 't', version: 1 });
    expect(DiscordInteraction.safeParse({ id: '1' }).success).toBe(false);
  });
});
