import type { FastifyInstance } from 'fastify';
import { invalidRequest } from './stripe-errors.ts';
import { render, stripeRoute } from './stripe-http.ts';
import type { StripeRuntime } from './stripe-http.ts';

type Clause = { path: string[]; value: string; negate: boolean };

/**
 * The part of Stripe's search query language a product uses to find its own objects:
 * `field:'value'` and `metadata['key']:'value'` clauses (`-` negates), joined by AND or by OR.
 */
export function parseSearchQuery(query: string): { clauses: Clause[]; any: boolean } {
  const text = query.trim();
  if (text === '') throw invalidRequest('Missing required param: query.', { param: 'query', code: 'parameter_missing' });
  const hasAnd = / AND /.test(text);
  const hasOr = / OR /.test(text);
  if (hasAnd && hasOr) throw invalidRequest('Search queries cannot mix AND and OR.', { param: 'query' });
  const parts = text.split(hasOr ? / OR / : / AND /);
  const clauses = parts.map((part) => {
    const match = /^(-)?(metadata\[['"]([^'"]+)['"]\]|[a-z_.]+):['"]([^'"]*)['"]$/.exec(part.trim());
    if (!match) throw invalidRequest(`We were unable to parse your search query. Try using the format \`field:'value'\`. (${part.trim()})`, { param: 'query' });
    const [, negate, field = '', metadataKey, value = ''] = match;
    return { path: metadataKey ? ['metadata', metadataKey] : field.split('.'), value, negate: negate === '-' };
  });
  return { clauses, any: hasOr };
}

function valueAt(object: unknown, path: string[]): unknown {
  let value = object;
  for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

function matches(object: unknown, query: { clauses: Clause[]; any: boolean }): boolean {
  const test = (clause: Clause) => (String(valueAt(object, clause.path) ?? '') === clause.value) !== clause.negate;
  return query.any ? query.clauses.some(test) : query.clauses.every(test);
}

export function registerSearchRoutes(api: FastifyInstance, runtime: StripeRuntime): void {
  const { store } = runtime;
  const search = (resource: 'subscriptions' | 'customers' | 'invoices' | 'charges', kind: 'subscription' | 'customer' | 'invoice' | 'charge') =>
    stripeRoute(api, runtime, 'GET', `/${resource}/search`, (call) => {
      const p = call.params;
      const query = parseSearchQuery(p.requiredString('query'));
      const limit = p.int('limit', { min: 1, max: 100 }) ?? 10;
      const page = p.int('page', { min: 0 }) ?? 0;
      const expand = p.expand();
      p.finish();
      const found = store.all(kind).filter((object) => matches(object, query));
      const data = found.slice(page, page + limit);
      const more = page + limit < found.length;
      return render(store, { object: 'search_result', data, has_more: more, next_page: more ? String(page + limit) : null, url: `/v1/${resource}/search` }, expand);
    });
  search('subscriptions', 'subscription');
  search('customers', 'customer');
  search('invoices', 'invoice');
  search('charges', 'charge');
}
