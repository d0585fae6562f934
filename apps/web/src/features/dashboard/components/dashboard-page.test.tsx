import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BearerUser, Panel, Subject } from '@ticket/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { useRecentServersStore } from '@/lib/recent-servers';
import { json, mockFetch, type Recorded } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import { DashboardPage } from './dashboard-page';

const OWNED = '200000000000000001';
const STAFFED = '200000000000000002';
const MEMBER_OF = '200000000000000003';
const loginConfig = {
  clientId: '123',
  authorizeUrl: 'https://discord.example/oauth2/authorize',
  scope: 'identify guilds',
  responseType: 'code',
  prompt: 'none',
  inviteUrl: 'https://discord.example/oauth2/authorize?client_id=123&scope=bot&permissions=8',
};

const notFound = () =>
  json({ statusCode: 404, error: 'Not Found', code: 'not_found', message: 'no' }, { status: 404 });
const forbidden = () =>
  json({ statusCode: 403, error: 'Forbidden', code: 'forbidden', message: 'no' }, { status: 403 });

// Only what the checklist reads; the rest of a subject does not change its answers.
const subject = (overrides: Partial<Subject> = {}) =>
  ({
    subjectId: 's1',
    serverId: OWNED,
    name: 'Billing',
    deleted: false,
    active: true,
    index: 0,
    questions: [],
    staffRoles: { value: [], inherits: false },
    ...overrides,
  }) as unknown as Subject;
const panel = { id: 'p1', serverId: OWNED, type: 'BUTTON', subjects: [], name: 'Support' } as unknown as Panel;
const ticketPage = (count: number) => ({
  page: 1,
  maxPage: count,
  elements: Array.from({ length: count }, (_, index) => ({ ticketId: `t${index}` })),
});

/** A server with the bot and nothing set up yet answers empty lists. */
const none = () => json([]);

type Answers = Partial<Record<'subjects' | 'panels' | 'tickets', (request: Recorded) => Response>>;

/** The login config, and the checklist's three calls for the owned server as `answers` say (nothing yet by default). */
function server(answers: Answers = {}) {
  return mockFetch((request) => {
    const url = request.url;
    if (url.endsWith('/login/config')) return json(loginConfig);
    if (url.endsWith(`/settings/servers/${OWNED}/subjects`)) return (answers.subjects ?? none)(request);
    if (url.endsWith(`/settings/servers/${OWNED}/panels`)) return (answers.panels ?? none)(request);
    if (url.includes(`/support/servers/${OWNED}/tickets`)) return (answers.tickets ?? (() => json(ticketPage(0))))(request);
    return notFound();
  });
}

const card = (serverId: string) => {
  const element = document.querySelector<HTMLElement>(`[data-server-id="${serverId}"]`);
  if (!element) throw new Error(`no card for ${serverId}`);
  return within(element);
};
const item = (id: string) => {
  const element = document.querySelector<HTMLElement>(`[data-checklist-item="${id}"]`);
  if (!element) throw new Error(`no checklist item ${id}`);
  return element;
};
const hrefOf = (element: HTMLElement) => element.getAttribute('href');
const settled = () =>
  waitFor(() => expect(document.querySelector('[data-checklist-item][data-status="loading"]')).toBeNull());

beforeEach(() => {
  useRecentServersStore.setState({ users: {} });
});

describe('DashboardPage', () => {
  it('shows each server as a card with its role and the actions that role allows', async () => {
    signIn(testUser());
    server();
    renderPage(<DashboardPage />);

    expect(await screen.findByRole('heading', { level: 1, name: 'Your servers' })).toBeTruthy();
    // Owner: the server's dashboard and its tickets in staff mode.
    expect(card(OWNED).getByText('Owner')).toBeTruthy();
    expect(hrefOf(card(OWNED).getByRole('link', { name: 'Open dashboard for Analytical Engine' }))).toBe(`/staff/${OWNED}`);
    expect(hrefOf(card(OWNED).getByRole('link', { name: 'View tickets of Analytical Engine' }))).toBe(
      `/staff/${OWNED}/tickets`,
    );
    // Staff: tickets in staff mode, no server dashboard.
    expect(card(STAFFED).getByText('Staff')).toBeTruthy();
    expect(card(STAFFED).queryByRole('link', { name: /Open dashboard/ })).toBeNull();
    expect(hrefOf(card(STAFFED).getByRole('link', { name: 'View tickets of Difference Club' }))).toBe(
      `/staff/${STAFFED}/tickets`,
    );
    // Member: their own tickets on that server.
    expect(card(MEMBER_OF).getByText('Member')).toBeTruthy();
    expect(card(MEMBER_OF).queryByRole('link', { name: /Open dashboard/ })).toBeNull();
    expect(hrefOf(card(MEMBER_OF).getByRole('link', { name: 'View tickets of Poetry Science' }))).toBe(
      `/tickets?server=${MEMBER_OF}`,
    );
    // Without the bot, a member can only ask an admin.
    expect(card('300000000000000002').queryByRole('link')).toBeNull();
    expect(card('300000000000000002').getByText(/owner or an admin can add it/)).toBeTruthy();
  });

  it('Begin setup invites the bot to that server only, and comes back to /invite_callback', async () => {
    signIn(testUser());
    server();
    renderPage(<DashboardPage />);

    const link = await card('300000000000000001').findByRole('link', { name: 'Begin setup for Countess Lounge' });
    const url = new URL(hrefOf(link) ?? '');
    expect(url.origin + url.pathname).toBe('https://discord.example/oauth2/authorize');
    expect(url.searchParams.get('client_id')).toBe('123');
    expect(url.searchParams.get('permissions')).toBe('8');
    expect(url.searchParams.get('guild_id')).toBe('300000000000000001');
    expect(url.searchParams.get('disable_guild_select')).toBe('true');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('redirect_uri')).toBe(`${window.location.origin}/invite_callback`);
  });

  it('links to creating a server on Discord in a new tab', async () => {
    signIn(testUser());
    server();
    renderPage(<DashboardPage />);

    const link = await screen.findByRole('link', { name: /Create a server/ });
    expect(hrefOf(link)).toBe('https://discord.com/channels/@me');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
  });

  it('offers a search box only beyond six servers, and filters the cards by name', async () => {
    const user = testUser();
    signIn(user);
    server();
    const { unmount } = renderPage(<DashboardPage />);
    await screen.findByRole('heading', { level: 1, name: 'Your servers' });
    expect(screen.queryByRole('searchbox')).toBeNull();
    unmount();

    const extra = ['Lovelace Lab', 'Jacquard Looms'].map((name, index) => ({
      integrationType: 'Discord' as const,
      serverId: `40000000000000000${index}`,
      name,
      role: 'Member' as const,
      subjects: [],
    }));
    signIn({ ...user, servers: [...user.servers, ...extra] });
    renderPage(<DashboardPage />);
    await userEvent.type(await screen.findByRole('searchbox', { name: 'Search servers' }), 'lo');
    const names = [...document.querySelectorAll('[data-server-id] h3')].map((heading) => heading.textContent);
    expect(names.sort()).toEqual(['Countess Lounge', 'Jacquard Looms', 'Lovelace Lab']);
    await userEvent.type(screen.getByRole('searchbox'), 'zzz');
    expect(screen.getByText('No server matches “lozzz”.')).toBeTruthy();
  });

  it('computes the checklist from the server: nothing yet is "not yet", data is "done"', async () => {
    signIn(testUser());
    const { calls } = server({ panels: () => json([panel]) });
    renderPage(<DashboardPage />);

    expect(await screen.findByRole('heading', { level: 2, name: 'Getting started' })).toBeTruthy();
    await settled();
    expect(item('subjects').dataset.status).toBe('todo');
    expect(item('panel').dataset.status).toBe('done');
    expect(item('staffRoles').dataset.status).toBe('todo');
    expect(item('testWorkflow').dataset.status).toBe('todo');
    expect(screen.getByText('1 of 4 steps done')).toBeTruthy();
    expect(within(item('panel')).getByText('Done')).toBeTruthy();
    expect(hrefOf(within(item('subjects')).getByRole('link', { name: 'Open settings' }))).toBe(`/staff/${OWNED}/settings`);
    expect(hrefOf(within(item('panel')).getByRole('link', { name: 'Open panels' }))).toBe(`/staff/${OWNED}/panels`);
    expect(hrefOf(within(item('testWorkflow')).getByRole('link', { name: 'Open tickets' }))).toBe(
      `/staff/${OWNED}/tickets`,
    );
    // One ticket is enough to know whether there is any.
    expect(calls.some((call) => call.url === `/api/support/servers/${OWNED}/tickets?Amount=1`)).toBe(true);
  });

  it('counts staff roles only on active subjects, and a ticket as a tested workflow', async () => {
    signIn(testUser());
    server({
      subjects: () =>
        json([
          subject({ subjectId: 'off', active: false, staffRoles: { value: ['900'], inherits: false } }),
          subject({ subjectId: 'gone', deleted: true }),
        ]),
      panels: () => json([]),
      tickets: () => json(ticketPage(1)),
    });
    const { unmount } = renderPage(<DashboardPage />);
    await settled();
    expect(item('subjects').dataset.status).toBe('done');
    expect(item('panel').dataset.status).toBe('todo');
    expect(item('staffRoles').dataset.status).toBe('todo');
    expect(item('testWorkflow').dataset.status).toBe('done');
    unmount();

    server({
      subjects: () => json([subject({ staffRoles: { value: ['900'], inherits: false } })]),
      panels: () => json([panel]),
      tickets: () => json(ticketPage(1)),
    });
    renderPage(<DashboardPage />);
    await settled();
    expect(screen.getByText('All set: Analytical Engine is ready for tickets.')).toBeTruthy();
  });

  it('shows an item it could not check as unknown, with a retry', async () => {
    signIn(testUser());
    let subjectsAnswer = forbidden;
    server({ subjects: () => subjectsAnswer(), panels: () => json([]) });
    renderPage(<DashboardPage />);
    await settled();
    expect(item('subjects').dataset.status).toBe('unknown');
    expect(item('staffRoles').dataset.status).toBe('unknown');
    expect(within(item('subjects')).getByText('Could not check')).toBeTruthy();
    expect(item('panel').dataset.status).toBe('todo');

    subjectsAnswer = () => json([subject({ staffRoles: { value: ['900'], inherits: false } })]);
    await userEvent.click(within(item('subjects')).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(item('subjects').dataset.status).toBe('done'));
    expect(item('staffRoles').dataset.status).toBe('done');
  });

  it('takes a 404 for an item it could not check, not for one not done yet', async () => {
    signIn(testUser());
    server({ tickets: notFound });
    renderPage(<DashboardPage />);
    await settled();
    expect(item('testWorkflow').dataset.status).toBe('unknown');
    expect(within(item('testWorkflow')).getByText('Could not check')).toBeTruthy();
  });

  it('starts on the server visited last, and lets the admin pick another', async () => {
    const user = testUser({
      servers: [
        { integrationType: 'Discord', serverId: OWNED, name: 'Analytical Engine', role: 'Owner', subjects: [] },
        { integrationType: 'Discord', serverId: '200000000000000009', name: 'Second Engine', role: 'Admin', subjects: [] },
      ],
    });
    signIn(user);
    useRecentServersStore.getState().visit(user.userId, '200000000000000009');
    const { calls } = server();
    renderPage(<DashboardPage />);

    const select = await screen.findByRole('combobox', { name: 'Server' });
    expect((select as HTMLSelectElement).value).toBe('200000000000000009');
    await waitFor(() =>
      expect(calls.some((call) => call.url === '/api/settings/servers/200000000000000009/subjects')).toBe(true),
    );
    await userEvent.selectOptions(select, OWNED);
    await waitFor(() => expect(calls.some((call) => call.url === `/api/settings/servers/${OWNED}/subjects`)).toBe(true));
    const nav = screen.getByRole('navigation', { name: 'Quick actions' });
    expect(hrefOf(within(nav).getByRole('link', { name: 'Open dashboard' }))).toBe(`/staff/${OWNED}`);
  });

  it('offers quick actions by role: everything to admins, tickets and the profile to staff, nothing to members', async () => {
    signIn(testUser());
    server();
    renderPage(<DashboardPage />);

    const nav = await screen.findByRole('navigation', { name: 'Quick actions' });
    const links = within(nav)
      .getAllByRole('link')
      .map((link) => [link.textContent, hrefOf(link)]);
    expect(links).toEqual([
      ['Open dashboard', `/staff/${OWNED}`],
      ['Settings', `/staff/${OWNED}/settings`],
      ['Panels', `/staff/${OWNED}/panels`],
      ['Tickets', `/staff/${OWNED}/tickets`],
      ['Premium', `/staff/${OWNED}/premium`],
    ]);
    // Members manage nothing, so the picker only holds servers the user is staff on.
    const select = screen.getByRole('combobox', { name: 'Server' });
    expect([...(select as HTMLSelectElement).options].map((option) => option.value)).toEqual([OWNED, STAFFED]);

    await userEvent.selectOptions(select, STAFFED);
    const staffNav = await screen.findByRole('navigation', { name: 'Quick actions' });
    expect(
      within(staffNav)
        .getAllByRole('link')
        .map((link) => [link.textContent, hrefOf(link)]),
    ).toEqual([
      ['Tickets', `/staff/${STAFFED}/tickets`],
      ['Server profile', `/staff/${STAFFED}/profile`],
    ]);
    expect(document.querySelector('[data-checklist-item]')).toBeNull();
  });

  it('shows no setup panel to someone who manages no server', async () => {
    const user: BearerUser = testUser({
      servers: [
        { integrationType: 'Discord', serverId: MEMBER_OF, name: 'Poetry Science', role: 'Member', subjects: [] },
      ],
    });
    signIn(user);
    const { calls } = server();
    renderPage(<DashboardPage />);
    await screen.findByRole('heading', { level: 1, name: 'Your servers' });
    expect(screen.queryByRole('heading', { name: 'Getting started' })).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Quick actions' })).toBeNull();
    expect(calls.some((call) => call.url.includes('/settings/'))).toBe(false);
  });
});
