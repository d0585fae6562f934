import { describe, expect, it } from 'vitest';
import { hasFilters, readListParams, searchTextOf, toTicketQuery, writeListParams } from './list-params';

const read = (query: string) => readListParams(new URLSearchParams(query));
const write = (query: string, changes: Parameters<typeof writeListParams>[1]) =>
  writeListParams(new URLSearchParams(query), changes).toString();

describe('ticket list parameters', () => {
  it('reads the list from the query, ignoring what the call would refuse', () => {
    expect(read('q=refund&active=1&subject=s1&author=100000000000000002&claimedBy=abc&page=3')).toEqual({
      page: 3,
      text: 'refund',
      onlyActive: true,
      hideResolved: false,
      server: null,
      subject: 's1',
      author: '100000000000000002',
      claimedBy: null,
      closedBy: null,
    });
    expect(read('page=-2').page).toBe(1);
    expect(read('page=x').page).toBe(1);
  });

  it('writes a change back to page 1 and leaves defaults and foreign parameters alone', () => {
    expect(write('page=4&tab=x', { onlyActive: true })).toBe('tab=x&active=1');
    expect(write('active=1', { page: 2 })).toBe('active=1&page=2');
    expect(write('active=1&page=2', { onlyActive: false })).toBe('');
    expect(write('', { text: 'late reply' })).toBe('q=late+reply');
  });

  it('drops the subject when the server changes: subjects belong to one server', () => {
    expect(write('server=1&subject=s1', { server: '2' })).toBe('server=2');
    expect(write('server=1&subject=s1', { author: '5' })).toBe('server=1&subject=s1&author=5');
  });

  it('makes the call’s query in the SPEC’s names', () => {
    expect(toTicketQuery(read('claimedBy=7&closedBy=8&server=9&hideResolved=1&page=2'), 25)).toEqual({
      Server: '9',
      Assignee: '7',
      ClosedBy: '8',
      HideResolved: true,
      Page: 2,
      Amount: 25,
    });
    expect(toTicketQuery(read(''), 25)).toEqual({ Page: 1, Amount: 25 });
  });

  it('searches only for text with a letter or digit, and knows when the list is narrowed', () => {
    expect(searchTextOf(read('q=%20%20'))).toBeNull();
    expect(searchTextOf(read('q=%3F%3F'))).toBeNull();
    expect(searchTextOf(read('q=%20late%20'))).toBe('late');
    expect(hasFilters(read('q=late&page=2'))).toBe(false);
    expect(hasFilters(read('closedBy=1'))).toBe(true);
  });
});
