import type { StatsRangeQuery } from '@ticket/contracts';

export type StatsRange = 'week' | 'month';

const DAYS: Record<StatsRange, number> = { week: 7, month: 30 };

/** A calendar day in the user's own time zone, as the statistics calls take it (YYYY-MM-DD). */
export function isoDay(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The last 7 or 30 days, today included. */
export function rangeDates(range: StatsRange, today = new Date()): StatsRangeQuery {
  const start = new Date(today.getFullYear(), today.getMonth(), today.getDate() - (DAYS[range] - 1));
  return { startDate: isoDay(start), endDate: isoDay(today) };
}
