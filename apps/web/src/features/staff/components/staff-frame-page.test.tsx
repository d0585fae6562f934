import { screen, within } from '@testing-library/react';
import type { PlanType, ServerDetails } from '@ticket/contracts';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, type Recorded } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import { type StaffFrameSection, StaffFramePage } from './staff-frame-page';

const SERVER = '200000000000000001';
const notFound = () =>
  json({ statusCode: 404, error: 'Not Found', code: 'not_found', message: 'no' }, { status: 404 });
const details = (subscription: PlanType = 'free'): ServerDetails => ({
  serverId: SERVER,
  name: 'Analytical Engine',
  iconUrl: null,
  active: true,
  subscription,
  bannerUrl: null,
  ownerId: '100000000000000001',
  memberCount: 42,
});

/** The server answers `getServer` with `server`, `routes` as given, and 404 for everything else. */
function backend(server: ServerDetails | null, routes: Record<string, (request: Recorded) => Response> = {}) {
  return mockFetch((request) => {
    const path = request.url.split('?')[0] ?? '';
    if (path === `/api/server/servers/${SERVER}`) return server ? json(server) : notFound();
    const answer = routes[path];
    return answer ? answer(request) : notFound();
  });
}

const PATTERNS: Partial<Record<StaffFrameSection, [string, string]>> = {
  whitelabel: ['/staff/:serverId/whitelabel', `/staff/${SERVER}/whitelabel`],
};

function open(section: StaffFrameSection, path?: string) {
  signIn(testUser());
  const [pattern, defaultPath] = PATTERNS[section] ?? ['', ''];
  return renderPage(<StaffFramePage section={section} />, { pattern, path: path ?? defaultPath });
}

describe('StaffFramePage', () => {
  it('frames the screen: title, server, breadcrumb back to the dashboard and the server', async () => {
    backend(details());
    open('whitelabel');
    expect(await screen.findByRole('heading', { level: 1, name: 'Whitelabel' })).toBeTruthy();
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(crumbs.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/');
    expect(crumbs.getByRole('link', { name: 'Analytical Engine' }).getAttribute('href')).toBe(`/staff/${SERVER}`);
    expect(crumbs.getByText('Whitelabel').getAttribute('aria-current')).toBe('page');
    expect(await screen.findByText('Free · level 0')).toBeTruthy();
  });

  it('whitelabel: on another plan, says it takes Enterprise and calls nothing for it', async () => {
    const { calls } = backend(details('premium'));
    open('whitelabel');
    expect(await screen.findByText('White-label bots come with Enterprise')).toBeTruthy();
    expect(screen.getByText('This server is on the Premium plan.')).toBeTruthy();
    expect(calls.some((call) => call.url.includes('/deployment/'))).toBe(false);
  });

  it('whitelabel: on Enterprise, a 404 is "no bot yet" with the setup guide', async () => {
    backend(details('enterprise'));
    open('whitelabel');
    expect(await screen.findByText('No white-label bot is set up for this server.')).toBeTruthy();
    expect(screen.getByText('Ready to Setup')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Before you set it up' })).toBeTruthy();
  });

  it('a server without the bot (404) offers to add it instead of the screen', async () => {
    mockFetch((request) =>
      request.url.endsWith('/login/config')
        ? json({ inviteUrl: 'https://discord.example/oauth2/authorize?client_id=1&scope=bot' })
        : notFound(),
    );
    open('whitelabel');
    expect(await screen.findByText('The bot is not on this server')).toBeTruthy();
    const link = await screen.findByRole('link', { name: 'Begin setup' });
    expect(new URL(link.getAttribute('href') ?? '').searchParams.get('guild_id')).toBe(SERVER);
    expect(screen.queryByText('Ready to Setup')).toBeNull();
  });

  it('never says "coming soon"', async () => {
    backend(details());
    for (const section of Object.keys(PATTERNS) as StaffFrameSection[]) {
      const { unmount } = open(section);
      await screen.findByRole('heading', { level: 1 });
      expect(document.body.textContent?.toLowerCase()).not.toContain('coming soon');
      unmount();
    }
  });
});
