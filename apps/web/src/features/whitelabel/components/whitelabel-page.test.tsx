import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { PlanType, ServerDetails, WhitelabelEntry } from '@ticket/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, type Recorded } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import { WHITELABEL_POLL_INTERVAL_MS } from '../api/get-whitelabel';
import { SLOW_DEPLOYMENT_MS } from '../whitelabel-state';
import { WhitelabelPage } from './whitelabel-page';

const SERVER = '200000000000000001';
const BOT_PATH = `/api/deployment/whitelabel/${SERVER}`;
const TOKEN = 'MTAwMDAwMDAwMDAwMDAwMDAx.GhIjKl.abcdefghijklmnopqrstuvwxyz0123';
const INVITE = 'https://discord.example/oauth2/authorize?client_id=1&scope=bot+applications.commands&permissions=8';

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

const bot = (overrides: Partial<WhitelabelEntry> = {}): WhitelabelEntry => ({
  serverId: SERVER,
  activity: 'Answering tickets',
  userId: '400000000000000001',
  name: 'Lovelace Helper',
  avatarUrl: 'https://cdn.example/avatars/400000000000000001/abc.png',
  status: 'NotRunning',
  statusMessage: null,
  clientId: '400000000000000002',
  revision: 1,
  ...overrides,
});

const notFound = () => json({ statusCode: 404, error: 'Not Found', code: 'not_found', message: 'This server has no white-label bot' }, { status: 404 });
const failure = () => json({ statusCode: 502, error: 'Bad Gateway', code: 'upstream', message: 'down' }, { status: 502 });

type Override = (request: Recorded) => Response | undefined | Promise<Response | undefined>;

/**
 * The server's details on `plan`, and a deployment service that keeps one bot: GET answers it (404
 * without one), POST sets one up (stopped), PATCH changes it, DELETE removes it, start makes it
 * Starting. `set` changes what the service reports, as the runner's reports would. `override`
 * answers a request first when it returns a response.
 */
function backend({ plan = 'enterprise', initial = null, override }: { plan?: PlanType; initial?: WhitelabelEntry | null; override?: Override } = {}) {
  let stored = initial;
  const recorded = mockFetch(async (request) => {
    const answer = await override?.(request);
    if (answer) return answer;
    const path = request.url.split('?')[0] ?? '';
    if (path === `/api/server/servers/${SERVER}`) return json(details(plan));
    if (path.endsWith('/login/config')) return json({ inviteUrl: INVITE });
    const body = (request.body ?? {}) as { token?: string; activity?: string | null };
    if (path === BOT_PATH) {
      if (request.method === 'GET') return stored ? json(stored) : notFound();
      if (request.method === 'POST') {
        stored = bot({ activity: body.activity ?? null });
        return json(stored, { status: 201 });
      }
      if (request.method === 'PATCH' && stored) {
        stored = { ...stored, ...(body.activity !== undefined ? { activity: body.activity } : {}) };
        return json(stored);
      }
      if (request.method === 'DELETE' && stored) {
        stored = null;
        return new Response(null, { status: 204 });
      }
    }
    if (path === `${BOT_PATH}/start` && request.method === 'POST' && stored) {
      stored = { ...stored, status: 'Starting', statusMessage: null, revision: (stored.revision ?? 1) + 1 };
      return json(stored, { status: 202 });
    }
    return notFound();
  });
  return {
    ...recorded,
    set: (next: Partial<WhitelabelEntry>) => {
      stored = stored ? { ...stored, ...next } : stored;
    },
  };
}

function open() {
  signIn(testUser());
  return renderPage(<WhitelabelPage />, { pattern: '/staff/:serverId/whitelabel', path: `/staff/${SERVER}/whitelabel` });
}

const botCalls = (calls: Recorded[]) =>
  calls.filter((call) => call.url.startsWith(BOT_PATH)).map((call) => `${call.method} ${call.url.slice(BOT_PATH.length) || '/'}`);
const tokenField = () => screen.getByLabelText(/^Bot token/) as HTMLInputElement;
const stateBadge = () => within(screen.getByRole('status')).getByText((_, element) => element?.hasAttribute('data-state') ?? false);
/** The messages the field points at with aria-describedby (its description and its error). */
const describedBy = (field: HTMLElement) =>
  (field.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' | ');

afterEach(() => {
  vi.useRealTimers();
});

describe('WhitelabelPage', () => {
  it('is framed like every staff screen: title, server, breadcrumb back to the dashboard and the server', async () => {
    backend({ initial: bot({ status: 'Running' }) });
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Whitelabel' })).toBeTruthy();
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(crumbs.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/');
    expect(crumbs.getByRole('link', { name: 'Analytical Engine' }).getAttribute('href')).toBe(`/staff/${SERVER}`);
    expect(crumbs.getByText('Whitelabel').getAttribute('aria-current')).toBe('page');
    expect(await screen.findByText('Enterprise · level 2')).toBeTruthy();
  });

  it('a server without the bot (404) offers to add it instead of the screen, and asks nothing about a white-label bot', async () => {
    const { calls } = mockFetch((request) =>
      request.url.endsWith('/login/config') ? json({ inviteUrl: INVITE }) : notFound(),
    );
    open();
    expect(await screen.findByText('The bot is not on this server')).toBeTruthy();
    const link = await screen.findByRole('link', { name: 'Begin setup' });
    expect(new URL(link.getAttribute('href') ?? '').searchParams.get('guild_id')).toBe(SERVER);
    expect(screen.queryByText('Ready to Setup')).toBeNull();
    expect(calls.some((call) => call.url.startsWith('/api/deployment/'))).toBe(false);
  });

  it('on another plan: says white-label bots come with Enterprise, names the plan, links to Premium, and asks nothing about a bot', async () => {
    const { calls } = backend({ plan: 'premium' });
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Whitelabel' })).toBeTruthy();
    expect(await screen.findByText('White-label bots come with Enterprise')).toBeTruthy();
    expect(screen.getByText('This server is on the Premium plan.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe(`/staff/${SERVER}/premium`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.some((call) => call.url.startsWith('/api/deployment/'))).toBe(false);
    expect(screen.queryByLabelText(/^Bot token/)).toBeNull();
  });

  it('without a bot (404): Ready to Setup, the setup guide and a required password field for the token', async () => {
    backend();
    open();
    expect(await screen.findByText('Ready to Setup')).toBeTruthy();
    expect(screen.getByText('No white-label bot is set up for this server.')).toBeTruthy();
    const guide = within(screen.getByRole('region', { name: 'Before you set it up' }));
    const steps = guide.getAllByRole('listitem').map((item) => item.textContent);
    expect(steps).toHaveLength(6);
    expect(steps[0]).toContain('create an application');
    expect(steps[1]).toContain('add a bot');
    expect(steps[2]).toContain('copy it');
    expect(steps[3]).toContain('Server Members and Message Content');
    expect(steps[4]).toContain('Invite the bot to this server with the permissions it needs');
    expect(guide.getByRole('link', { name: /Open the Discord Developer Portal/ }).getAttribute('href')).toBe('https://discord.com/developers/applications');
    const field = tokenField();
    expect(field.type).toBe('password');
    expect(field.required).toBe(true);
    expect(screen.getByLabelText('Activity')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Start bot' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove bot' })).toBeNull();
  });

  it('asks for the token before sending anything', async () => {
    const { calls } = backend();
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(() => expect(describedBy(tokenField())).toContain('Enter the bot token.'));
    expect(botCalls(calls)).toEqual(['GET /']);
  });

  it("a token the service refuses (400) says 'Invalid token' on the token field, and nothing else changes", async () => {
    const { calls } = backend({
      override: (request) =>
        request.url === BOT_PATH && request.method === 'POST' ? json({ message: 'Invalid token' }, { status: 400 }) : undefined,
    });
    open();
    await screen.findByText('Ready to Setup');
    fireEvent.change(tokenField(), { target: { value: TOKEN } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(tokenField().getAttribute('aria-invalid')).toBe('true'));
    expect(describedBy(tokenField())).toContain('Invalid token');
    expect(stateBadge().textContent).toBe('Ready to Setup');
    expect(screen.queryByText(/Failed to create the bot/)).toBeNull();
    expect(botCalls(calls)).toEqual(['GET /', 'POST /']);
    // Typing a new token clears the message.
    fireEvent.change(tokenField(), { target: { value: `${TOKEN}x` } });
    await waitFor(() => expect(tokenField().getAttribute('aria-invalid')).not.toBe('true'));
  });

  it('says the bot could not be created, and to verify the token, when the service fails otherwise', async () => {
    backend({ override: (request) => (request.url === BOT_PATH && request.method === 'POST' ? failure() : undefined) });
    open();
    await screen.findByText('Ready to Setup');
    fireEvent.change(tokenField(), { target: { value: TOKEN } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to create the bot. Please verify the bot token and try again.')).toBeTruthy();
    expect(stateBadge().textContent).toBe('Ready to Setup');
  });

  it('saving sets the bot up and starts it: Deployment in Progress, then Starting and Active as the service reports them', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let releaseStart = () => {};
    const startGate = new Promise<void>((resolve) => {
      releaseStart = resolve;
    });
    const service = backend({
      override: async (request) => {
        if (request.url === `${BOT_PATH}/start`) await startGate;
        return undefined;
      },
    });
    open();
    await screen.findByText('Ready to Setup');
    fireEvent.change(tokenField(), { target: { value: TOKEN } });
    fireEvent.change(screen.getByLabelText('Activity'), { target: { value: '  Answering tickets ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Deployment in Progress')).toBeTruthy();
    const create = service.calls.find((call) => call.url === BOT_PATH && call.method === 'POST');
    expect(create?.body).toEqual({ token: TOKEN, activity: 'Answering tickets' });
    releaseStart();

    await waitFor(() => expect(stateBadge().textContent).toBe('Starting'));
    expect(screen.getByText('Lovelace Helper')).toBeTruthy();
    // The token was sent and is gone: not in the field, nowhere on the page.
    expect(tokenField().value).toBe('');
    expect(document.body.innerHTML).not.toContain(TOKEN);

    // The runner reports the bot running; the page, asking every few seconds, follows.
    service.set({ status: 'Running' });
    await vi.advanceTimersByTimeAsync(WHITELABEL_POLL_INTERVAL_MS);
    await waitFor(() => expect(stateBadge().textContent).toBe('Active'));
    expect(screen.getByText("The bot is online and handles this server's tickets.")).toBeTruthy();
    expect(botCalls(service.calls).slice(0, 3)).toEqual(['GET /', 'POST /', 'POST /start']);

    // Running: no more asking.
    const asked = botCalls(service.calls).length;
    await vi.advanceTimersByTimeAsync(WHITELABEL_POLL_INTERVAL_MS * 4);
    expect(botCalls(service.calls)).toHaveLength(asked);
  });

  it('keeps showing Deployment in Progress, asking again, until the service says Starting, then follows it to Active', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    // A service whose start answers before it records Starting (the contract says Starting; the page does not rely on it).
    const service = backend({
      initial: bot(),
      override: (request) => (request.url === `${BOT_PATH}/start` ? json(bot(), { status: 202 }) : undefined),
    });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Start bot' }));
    await waitFor(() => expect(stateBadge().textContent).toBe('Deployment in Progress'));
    await vi.advanceTimersByTimeAsync(WHITELABEL_POLL_INTERVAL_MS);
    expect(stateBadge().textContent).toBe('Deployment in Progress');

    service.set({ status: 'Starting' });
    await vi.advanceTimersByTimeAsync(WHITELABEL_POLL_INTERVAL_MS);
    await waitFor(() => expect(stateBadge().textContent).toBe('Starting'));
    service.set({ status: 'Running' });
    await vi.advanceTimersByTimeAsync(WHITELABEL_POLL_INTERVAL_MS);
    await waitFor(() => expect(stateBadge().textContent).toBe('Active'));
    expect(botCalls(service.calls).slice(0, 4)).toEqual(['GET /', 'POST /start', 'GET /', 'GET /']);
  });

  it('says starting is taking longer than expected after a minute in Starting, and keeps following it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const service = backend({ initial: bot({ status: 'Starting' }) });
    open();
    await waitFor(() => expect(stateBadge().textContent).toBe('Starting'));
    await vi.advanceTimersByTimeAsync(SLOW_DEPLOYMENT_MS - 5_000);
    expect(screen.queryByText('Deployment is taking longer than expected')).toBeNull();
    await vi.advanceTimersByTimeAsync(6_000);
    expect(await screen.findByText('Deployment is taking longer than expected')).toBeTruthy();
    expect(screen.getByText(/has not come online yet/)).toBeTruthy();
    expect(botCalls(service.calls).length).toBeGreaterThan(10);

    service.set({ status: 'Running' });
    await vi.advanceTimersByTimeAsync(WHITELABEL_POLL_INTERVAL_MS);
    await waitFor(() => expect(stateBadge().textContent).toBe('Active'));
    expect(screen.queryByText('Deployment is taking longer than expected')).toBeNull();
  });

  it('Failed: says the deployment failed with the reason the service gives, and offers to start again', async () => {
    const reason = 'Disallowed intents: turn on Server Members and Message Content';
    const { calls } = backend({ initial: bot({ status: 'Failed', statusMessage: reason }) });
    open();
    await waitFor(() => expect(stateBadge().textContent).toBe('Failed'));
    expect(screen.getByText('Deployment failed')).toBeTruthy();
    expect(screen.getByText(`Reason: ${reason}`)).toBeTruthy();
    // The guide is back, to check the intents.
    expect(screen.getByRole('region', { name: 'Before you set it up' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Start bot' }));
    await waitFor(() => expect(stateBadge().textContent).toBe('Starting'));
    expect(screen.queryByText('Deployment failed')).toBeNull();
    expect(botCalls(calls)).toEqual(['GET /', 'POST /start']);
  });

  it("shows the bot's name, avatar, client id, activity and invite, never its token", async () => {
    backend({ initial: bot({ status: 'Running', token: TOKEN }) });
    const { container } = open();
    await waitFor(() => expect(stateBadge().textContent).toBe('Active'));
    const card = within(screen.getByRole('region', { name: 'Your bot' }));
    expect(card.getByText('Lovelace Helper')).toBeTruthy();
    expect(card.getByText('400000000000000002')).toBeTruthy();
    expect(card.getByText('Answering tickets')).toBeTruthy();
    expect(container.querySelector('img')?.getAttribute('src')).toBe('https://cdn.example/avatars/400000000000000001/abc.png');
    const invite = new URL((await card.findByRole('link', { name: /Invite the bot/ })).getAttribute('href') ?? '');
    expect(invite.searchParams.get('client_id')).toBe('400000000000000002');
    expect(invite.searchParams.get('guild_id')).toBe(SERVER);
    expect(invite.searchParams.get('permissions')).toBe('8');
    expect(card.getByRole('button', { name: 'Restart bot' })).toBeTruthy();
    expect(document.body.innerHTML).not.toContain(TOKEN);
    expect(tokenField().value).toBe('');
    expect(tokenField().required).toBe(false);
  });

  it('saves a new activity alone (PATCH), and says so', async () => {
    const { calls } = backend({ initial: bot() });
    open();
    await waitFor(() => expect(stateBadge().textContent).toBe('Not Running'));
    fireEvent.change(screen.getByLabelText('Activity'), { target: { value: 'Here to help' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The bot settings were saved.')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ activity: 'Here to help' });
    expect(await screen.findByText('Here to help')).toBeTruthy();
  });

  it('says when the settings could not be updated, and keeps what was typed', async () => {
    backend({ initial: bot(), override: (request) => (request.method === 'PATCH' ? failure() : undefined) });
    open();
    await waitFor(() => expect(stateBadge().textContent).toBe('Not Running'));
    fireEvent.change(screen.getByLabelText('Activity'), { target: { value: 'Here to help' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to update the bot settings. Please try again.')).toBeTruthy();
    expect((screen.getByLabelText('Activity') as HTMLInputElement).value).toBe('Here to help');
  });

  it('a new token the service refuses on update says Invalid token on the field', async () => {
    backend({
      initial: bot({ status: 'Running' }),
      override: (request) =>
        request.method === 'PATCH'
          ? json({ statusCode: 400, error: 'Bad Request', code: 'bad_request', message: 'Invalid token', field: 'token' }, { status: 400 })
          : undefined,
    });
    open();
    await waitFor(() => expect(stateBadge().textContent).toBe('Active'));
    fireEvent.change(tokenField(), { target: { value: TOKEN } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(describedBy(tokenField())).toContain('Invalid token'));
    expect(stateBadge().textContent).toBe('Active');
  });

  it('removes the bot only once confirmed, then is Ready to Setup again', async () => {
    const { calls } = backend({ initial: bot({ status: 'Running' }) });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Remove bot' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Remove the white-label bot?' }));
    expect(dialog.getByText('The bot stops and its token is deleted. This action cannot be undone.')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(botCalls(calls)).toEqual(['GET /']);

    fireEvent.click(screen.getByRole('button', { name: 'Remove bot' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Remove the white-label bot?' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('The white-label bot was removed.')).toBeTruthy();
    await waitFor(() => expect(stateBadge().textContent).toBe('Ready to Setup'));
    expect(screen.queryByText('Lovelace Helper')).toBeNull();
    expect(botCalls(calls).slice(0, 2)).toEqual(['GET /', 'DELETE /']);
  });

  it('says when the bot could not be removed, and keeps showing it', async () => {
    backend({ initial: bot({ status: 'Running' }), override: (request) => (request.method === 'DELETE' ? failure() : undefined) });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Remove bot' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Remove the white-label bot?' })).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Failed to remove the bot. Please try again.')).toBeTruthy();
    expect(stateBadge().textContent).toBe('Active');
    expect(screen.getByText('Lovelace Helper')).toBeTruthy();
  });

  it('says when the bot cannot be loaded, and loads it again on "Try again"', async () => {
    let fail = true;
    // A refusal (4xx) is not retried, so the failure shows at once.
    const refused = () => json({ statusCode: 403, error: 'Forbidden', code: 'forbidden', message: 'no' }, { status: 403 });
    backend({ initial: bot({ status: 'Running' }), override: (request) => (request.url === BOT_PATH && fail ? refused() : undefined) });
    open();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Could not load the white-label bot.')).toBeTruthy();
    expect(screen.queryByLabelText(/^Bot token/)).toBeNull();
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(stateBadge().textContent).toBe('Active'));
  });
});
