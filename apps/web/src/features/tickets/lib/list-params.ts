import type { TicketListQuery } from '@ticket/contracts';

/**
 * What a ticket list shows, as its address holds it: every filter, the search text and the page
 * live in the query (`?q=refund&subject=s1&page=2`), so a reload or a shared link shows the same
 * list. The names are the user's (`claimedBy`), the call's are the SPEC's (`Assignee`).
 */
export interface TicketListParams {
  page: number;
  /** Full-text search; empty for none. */
  text: string;
  /** Only tickets that are not closed. */
  onlyActive: boolean;
  /** Neither closed tickets nor resolved ones (closing soon). */
  hideResolved: boolean;
  server: string | null;
  subject: string | null;
  author: string | null;
  claimedBy: string | null;
  closedBy: string | null;
}

export type TicketListFilter = 'server' | 'subject' | 'author' | 'claimedBy' | 'closedBy';

export const PARAM_NAMES = {
  page: 'page',
  text: 'q',
  onlyActive: 'active',
  hideResolved: 'hideResolved',
  server: 'server',
  subject: 'subject',
  author: 'author',
  claimedBy: 'claimedBy',
  closedBy: 'closedBy',
} as const satisfies Record<keyof TicketListParams, string>;

const SNOWFLAKE = /^\d{1,20}$/;
const OPAQUE_ID = /^.{1,64}$/s;
const flag = (value: string | null) => value === '1' || value === 'true';

/** An id the call would refuse (a mistyped link) is no filter at all rather than an error. */
const idParam = (search: URLSearchParams, name: string, pattern: RegExp): string | null => {
  const value = search.get(name)?.trim();
  return value && pattern.test(value) ? value : null;
};

export function readListParams(search: URLSearchParams): TicketListParams {
  return {
    page: Math.max(1, Number.parseInt(search.get(PARAM_NAMES.page) ?? '1', 10) || 1),
    text: (search.get(PARAM_NAMES.text) ?? '').slice(0, 200),
    onlyActive: flag(search.get(PARAM_NAMES.onlyActive)),
    hideResolved: flag(search.get(PARAM_NAMES.hideResolved)),
    server: idParam(search, PARAM_NAMES.server, SNOWFLAKE),
    subject: idParam(search, PARAM_NAMES.subject, OPAQUE_ID),
    author: idParam(search, PARAM_NAMES.author, SNOWFLAKE),
    claimedBy: idParam(search, PARAM_NAMES.claimedBy, SNOWFLAKE),
    closedBy: idParam(search, PARAM_NAMES.closedBy, SNOWFLAKE),
  };
}

/**
 * The query with `changes` applied. Anything but a change of page starts again at page 1, and
 * defaults are left out, so the address stays as short as the list is plain. Parameters that are
 * not the list's stay as they are.
 */
export function writeListParams(current: URLSearchParams, changes: Partial<TicketListParams>): URLSearchParams {
  const next = new URLSearchParams(current);
  const merged = { ...readListParams(current), ...changes };
  if (!('page' in changes)) merged.page = 1;
  // Subjects belong to a server: another server's subject would match nothing.
  if ('server' in changes && changes.server !== readListParams(current).server && !('subject' in changes)) merged.subject = null;
  for (const key of Object.keys(PARAM_NAMES) as (keyof TicketListParams)[]) {
    const name = PARAM_NAMES[key];
    const value = merged[key];
    if (value === null || value === false || value === '' || (key === 'page' && value === 1)) next.delete(name);
    else next.set(name, value === true ? '1' : String(value));
  }
  return next;
}

/** Whether anything narrows the list (the page and the search aside). */
export const hasFilters = (params: TicketListParams): boolean =>
  params.onlyActive || params.hideResolved || [params.server, params.subject, params.author, params.claimedBy, params.closedBy].some(Boolean);

/** The search text the service takes: one with no letter or digit finds nothing, so it is no search. */
export const searchTextOf = (params: TicketListParams): string | null => {
  const text = params.text.trim();
  return /[\p{L}\p{N}]/u.test(text) ? text : null;
};

/** The call's query for the list, in the order of SPEC §7. */
export function toTicketQuery(params: TicketListParams, pageSize: number): Partial<TicketListQuery> {
  const query: Partial<TicketListQuery> = {};
  if (params.author) query.Author = params.author;
  if (params.server) query.Server = params.server;
  if (params.subject) query.Subject = params.subject;
  if (params.claimedBy) query.Assignee = params.claimedBy;
  if (params.closedBy) query.ClosedBy = params.closedBy;
  if (params.onlyActive) query.Active = true;
  if (params.hideResolved) query.HideResolved = true;
  query.Page = params.page;
  query.Amount = pageSize;
  return query;
}
