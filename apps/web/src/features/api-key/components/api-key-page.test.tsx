import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ApiKeyCall, ApiKeyCalls, ApiKeyInfo, PlanType, ServerDetails } from '@ticket/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, type Recorded } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import { ApiKeyPage } from './api-key-page';

const SERVER = '200000000000000001';
const KEY_PATH = `/api/authentication/api/${SERVER}`;
const FULL_KEY = 'tdk_abc123SecretPartThatIsOnlyShownOnce';
const NEXT_KEY = 'tdk_xyz789AnotherSecretShownOnceToo';

const details = (subscription: PlanType): ServerDetails => ({
  serverId: SERVER,
  name: 'Analytical Engine',
  iconUrl: null,
  active: true,
  subscription,
  bannerUrl: null,
  ownerId: '100000000000000001',
  memberCount: 42,
});

const notFound = () => json({ statusCode: 404, error: 'Not Found', code: 'not_found', message: 'This server has no API key yet' }, { status: 404 });
const failure = () => json({ statusCode: 502, error: 'Bad Gateway', code: 'upstream', message: 'down' }, { status: 502 });
const CALLS_PATH = `${KEY_PATH}/calls`;
const noCalls: ApiKeyCalls = { page: 1, maxPage: 1, elements: [], limit: { max: 300, windowMs: 60_000 } };
const masked = (key: string): ApiKeyInfo => ({ key: `${key.slice(0, 10)}…`, createdAt: '2026-03-01T10:00:00.000Z', lastUsedAt: null });

/**
 * The server's details on `plan`, and an authentication service that keeps one key: GET answers it
 * masked (404 without one), POST makes the next of `keys`, DELETE removes it. `override` answers
 * a request first when it returns a response.
 */
function backend({
  plan = 'enterprise',
  key = null,
  keys = [FULL_KEY],
  calls = () => noCalls,
  override,
}: {
  plan?: PlanType;
  key?: string | null;
  keys?: string[];
  calls?: (query: URLSearchParams) => ApiKeyCalls;
  override?: (request: Recorded) => Response | undefined;
} = {}) {
  let stored = key;
  const made = [...keys];
  return mockFetch((request) => {
    const answer = override?.(request);
    if (answer) return answer;
    const path = request.url.split('?')[0] ?? '';
    if (path === `/api/server/servers/${SERVER}`) return json(details(plan));
    if (path === CALLS_PATH && request.method === 'GET') return json(calls(new URL(request.url, 'http://localhost').searchParams));
    if (path === KEY_PATH) {
      if (request.method === 'GET') return stored ? json(masked(stored)) : notFound();
      if (request.method === 'POST') {
        stored = made.shift() ?? 'tdk_spare';
        return json({ key: stored }, { status: 201 });
      }
      if (request.method === 'DELETE') {
        const had = stored;
        stored = null;
        return had ? new Response(null, { status: 204 }) : notFound();
      }
    }
    return notFound();
  });
}

function open() {
  signIn(testUser());
  return renderPage(<ApiKeyPage />, { pattern: '/staff/:serverId/api-key', path: `/staff/${SERVER}/api-key` });
}

/** A clipboard whose writeText does what `write` does; jsdom has none. */
function stubClipboard(write: (text: string) => Promise<void>) {
  const writeText = vi.fn(write);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  return writeText;
}

const keyCalls = (calls: Recorded[]) =>
  calls.filter((call) => call.url.split('?')[0] === KEY_PATH).map((call) => call.method);

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
});

describe('ApiKeyPage', () => {
  it('on another plan: says API keys come with Enterprise, names the plan, links to Premium, and asks nothing about a key', async () => {
    const { calls } = backend({ plan: 'premium' });
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'API Key' })).toBeTruthy();
    expect(await screen.findByText('API keys come with Enterprise')).toBeTruthy();
    expect(screen.getByText('This server is on the Premium plan.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe(`/staff/${SERVER}/premium`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.some((call) => call.url.startsWith('/api/authentication/'))).toBe(false);
    expect(screen.queryByRole('button', { name: 'Generate API key' })).toBeNull();
  });

  it('without a key: Generate shows the whole key once, copies it, and after "I have saved it" only its start remains', async () => {
    const { calls } = backend();
    const writeText = stubClipboard(async () => {});
    open();
    expect(await screen.findByText('No API key yet')).toBeTruthy();
    // How to use a key is there before one exists.
    expect(screen.getByText('Authorization: Bearer tdk_…')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'API reference (OpenAPI)' }).getAttribute('href')).toBe(`${window.location.origin}/api/docs`);

    fireEvent.click(screen.getByRole('button', { name: 'Generate API key' }));
    const panel = within(await screen.findByRole('region', { name: 'Your new API key' }));
    const field = panel.getByRole('textbox', { name: 'API key' }) as HTMLInputElement;
    expect(field.value).toBe(FULL_KEY);
    expect(field.readOnly).toBe(true);
    await waitFor(() => expect(document.activeElement).toBe(field));
    expect(panel.getByText('Copy it now and keep it safe: it will not be shown again.')).toBeTruthy();

    fireEvent.click(panel.getByRole('button', { name: 'Copy key' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(FULL_KEY));
    expect(await screen.findByText('API key copied to clipboard')).toBeTruthy();

    // The key the server now has, as it shows it again: its start only.
    expect(await screen.findByText('tdk_abc123…')).toBeTruthy();
    expect(screen.getByText('Never used')).toBeTruthy();
    expect(screen.getByText('Authorization: Bearer tdk_abc123…')).toBeTruthy();
    fireEvent.click(panel.getByRole('button', { name: 'I have saved it' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Your new API key' })).toBeNull());
    expect(document.body.textContent).not.toContain(FULL_KEY);
    expect(keyCalls(calls)).toEqual(['GET', 'POST', 'GET']);
  });

  it("says 'Failed to copy API key to clipboard' when the browser refuses the copy", async () => {
    backend();
    stubClipboard(async () => {
      throw new DOMException('Write permission denied.', 'NotAllowedError');
    });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Generate API key' }));
    const panel = within(await screen.findByRole('region', { name: 'Your new API key' }));
    fireEvent.click(panel.getByRole('button', { name: 'Copy key' }));
    expect(await screen.findByText('Failed to copy API key to clipboard')).toBeTruthy();
    // The key stays on screen, to copy by hand.
    expect((panel.getByRole('textbox', { name: 'API key' }) as HTMLInputElement).value).toBe(FULL_KEY);
  });

  it('and the same where the browser has no clipboard at all', async () => {
    backend();
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Generate API key' }));
    fireEvent.click(within(await screen.findByRole('region', { name: 'Your new API key' })).getByRole('button', { name: 'Copy key' }));
    expect(await screen.findByText('Failed to copy API key to clipboard')).toBeTruthy();
  });

  it('resets only once confirmed, and shows the new key once', async () => {
    const { calls } = backend({ key: FULL_KEY, keys: [NEXT_KEY] });
    open();
    expect(await screen.findByText('tdk_abc123…')).toBeTruthy();
    const created = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date('2026-03-01T10:00:00.000Z'));
    expect(screen.getByText(created)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Generate API key' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Reset key' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Reset the API key?' }));
    expect(dialog.getByText('A new key replaces the current one, which stops working at once.')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(keyCalls(calls)).toEqual(['GET']);

    fireEvent.click(screen.getByRole('button', { name: 'Reset key' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Reset the API key?' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Yes' }));
    const panel = within(await screen.findByRole('region', { name: 'Your new API key' }));
    expect((panel.getByRole('textbox', { name: 'API key' }) as HTMLInputElement).value).toBe(NEXT_KEY);
    expect(await screen.findByText('tdk_xyz789…')).toBeTruthy();
    expect(keyCalls(calls)).toEqual(['GET', 'POST', 'GET']);
  });

  it('says so when a reset fails, and shows no key', async () => {
    backend({ key: FULL_KEY, override: (request) => (request.method === 'POST' ? failure() : undefined) });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Reset key' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Reset the API key?' })).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Could not reset the API key. Please try again.')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Your new API key' })).toBeNull();
  });

  it('deletes only once confirmed, then offers to generate one again', async () => {
    const { calls } = backend({ key: FULL_KEY });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete key' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Delete the API key?' }));
    expect(dialog.getByText('Programs that use it lose access at once. This action cannot be undone.')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(keyCalls(calls)).toEqual(['GET']);

    fireEvent.click(screen.getByRole('button', { name: 'Delete key' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Delete the API key?' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('The API key was deleted.')).toBeTruthy();
    expect(await screen.findByText('No API key yet')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Generate API key' })).toBeTruthy();
    expect(keyCalls(calls)).toEqual(['GET', 'DELETE', 'GET']);
  });

  it('says when the key cannot be loaded, and loads it again on "Try again"', async () => {
    let fail = true;
    // A refusal (4xx) is not retried, so the failure shows at once.
    const refused = () => json({ statusCode: 403, error: 'Forbidden', code: 'forbidden', message: 'no' }, { status: 403 });
    backend({ key: FULL_KEY, override: (request) => (request.url.startsWith(KEY_PATH) && fail ? refused() : undefined) });
    open();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Could not load the API key.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Generate API key' })).toBeNull();
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('tdk_abc123…')).toBeTruthy();
  });

  describe('Recent calls', () => {
    const call = (overrides: Partial<ApiKeyCall>): ApiKeyCall => ({
      at: '2026-03-02T09:30:00.000Z',
      method: 'GET',
      route: '/api/settings/servers/:serverId/panels',
      path: `/api/settings/servers/${SERVER}/panels`,
      status: 200,
      durationMs: 12.5,
      keyPrefix: 'tdk_abc123',
      rateLimited: false,
      ...overrides,
    });
    const ok = call({});
    const refused = call({ method: 'POST', path: `/api/settings/servers/${SERVER}/subjects`, route: '/api/settings/servers/:serverId/subjects', status: 403, durationMs: 3 });
    const limited = call({ status: 429, durationMs: 0.4, rateLimited: true, keyPrefix: 'tdk_xyz789' });
    /** The service's answer for the filter asked for: page 1 of 3 for all calls, one page of each kind otherwise. */
    const answer = (query: URLSearchParams): ApiKeyCalls => {
      const status = query.get('status');
      const elements = status === 'error' ? [limited, refused] : status === 'rateLimited' ? [limited] : [limited, refused, ok];
      return { page: Number(query.get('Page')), maxPage: status ? 1 : 3, elements, limit: { max: 300, windowMs: 60_000 } };
    };
    const rows = () => screen.getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    const callQueries = (calls: Recorded[]) =>
      calls.filter((c) => c.url.startsWith(`${CALLS_PATH}?`)).map((c) => Object.fromEntries(new URL(c.url, 'http://localhost').searchParams));

    it('lists the calls made with the key, with the key’s limit, and filters them to errors or rate limited ones', async () => {
      const { calls } = backend({ key: FULL_KEY, calls: answer });
      open();
      const section = within(await screen.findByRole('region', { name: 'Recent calls' }));
      expect(await section.findByText('300 calls per minute')).toBeTruthy();
      expect(section.getByText('Showing page 1 of 3')).toBeTruthy();
      const time = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ok.at));
      expect(rows()).toEqual([
        [time, 'GET', `/api/settings/servers/${SERVER}/panels`, '429Rate limited', '0.4 ms', 'tdk_xyz789…'],
        [time, 'POST', `/api/settings/servers/${SERVER}/subjects`, '403', '3 ms', 'tdk_abc123…'],
        [time, 'GET', `/api/settings/servers/${SERVER}/panels`, '200', '12.5 ms', 'tdk_abc123…'],
      ]);
      // The route as routed is there for whoever hovers the path.
      expect(section.getAllByText(`/api/settings/servers/${SERVER}/subjects`)[0]?.getAttribute('title')).toBe('/api/settings/servers/:serverId/subjects');

      fireEvent.click(section.getByRole('button', { name: 'Page 2' }));
      await waitFor(() => expect(section.getByText('Showing page 2 of 3')).toBeTruthy());

      fireEvent.click(section.getByRole('radio', { name: 'Errors' }));
      await waitFor(() => expect(rows()).toHaveLength(2));
      expect(rows().map((cells) => cells[3])).toEqual(['429Rate limited', '403']);
      expect(section.getByText('Showing page 1 of 1')).toBeTruthy();

      fireEvent.click(section.getByRole('radio', { name: 'Rate limited' }));
      await waitFor(() => expect(rows()).toHaveLength(1));
      expect(rows()[0]?.[3]).toBe('429Rate limited');
      expect(callQueries(calls)).toEqual([
        { Page: '1', Amount: '20' },
        { Page: '2', Amount: '20' },
        { Page: '1', Amount: '20', status: 'error' },
        { Page: '1', Amount: '20', status: 'rateLimited' },
      ]);
    });

    it('says when the key has made no calls, or none of the kind asked for', async () => {
      backend({ key: FULL_KEY, calls: (query) => (query.get('status') ? noCalls : { ...noCalls, elements: [ok], limit: { max: 50, windowMs: 10_000 } }) });
      open();
      const section = within(await screen.findByRole('region', { name: 'Recent calls' }));
      expect(await section.findByText('50 calls every 10 seconds')).toBeTruthy();
      fireEvent.click(section.getByRole('radio', { name: 'Rate limited' }));
      expect(await section.findByText('No calls match this filter.')).toBeTruthy();
    });

    it('shows no calls before a key exists, and says so when a key has made none', async () => {
      const { calls } = backend();
      open();
      fireEvent.click(await screen.findByRole('button', { name: 'Generate API key' }));
      expect(await screen.findByText('No calls yet')).toBeTruthy();
      expect(screen.getByText('Calls made with the key show here.')).toBeTruthy();
      // Asked for only once the key existed.
      expect(calls.findIndex((c) => c.url.startsWith(CALLS_PATH))).toBeGreaterThan(calls.findIndex((c) => c.method === 'POST'));
    });
  });
});
