import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import { ServerProfilePage } from './server-profile-page';

const OWNED = '200000000000000001';
const STAFFED = '200000000000000002';
const notFound = () =>
  json({ statusCode: 404, error: 'Not Found', code: 'not_found', message: 'no' }, { status: 404 });

function open(serverId: string) {
  signIn(testUser());
  return renderPage(<ServerProfilePage />, { pattern: '/staff/:serverId/profile', path: `/staff/${serverId}/profile` });
}

describe('ServerProfilePage', () => {
  it('shows the server: members, owner, plan with its level, the user’s role and the bot', async () => {
    mockFetch((request) => {
      if (request.url === `/api/server/servers/${STAFFED}`) {
        return json({
          serverId: STAFFED,
          name: 'Difference Club',
          iconUrl: null,
          bannerUrl: null,
          active: true,
          subscription: 'enterprise',
          ownerId: '100000000000000009',
          memberCount: 1234,
        });
      }
      if (request.url === `/api/server/users/100000000000000009?serverId=${STAFFED}`) {
        return json({ discordId: '100000000000000009', username: 'charles', displayName: 'Charles Babbage', guildMember: null, avatarUrl: null });
      }
      return notFound();
    });
    open(STAFFED);
    expect(await screen.findByRole('heading', { level: 2, name: 'Difference Club' })).toBeTruthy();
    expect(screen.getByText('1,234')).toBeTruthy();
    expect(await screen.findByText('Charles Babbage')).toBeTruthy();
    expect(screen.getAllByText('Enterprise · level 2').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Staff').length).toBeGreaterThan(0);
    expect(screen.getByText('On this server')).toBeTruthy();
    // Staff manage nothing here: no links to settings, panels or premium.
    expect(screen.queryByRole('link', { name: 'Settings' })).toBeNull();
    expect(screen.getByRole('link', { name: "View this server's tickets" }).getAttribute('href')).toBe(
      `/staff/${STAFFED}/tickets`,
    );
  });

  it('offers Begin setup to an admin when the bot is not there (404)', async () => {
    mockFetch((request) =>
      request.url.endsWith('/login/config')
        ? json({ inviteUrl: 'https://discord.example/oauth2/authorize?client_id=1&scope=bot' })
        : notFound(),
    );
    open(OWNED);
    expect(await screen.findByText('The bot is not on this server')).toBeTruthy();
    const link = await screen.findByRole('link', { name: 'Begin setup' });
    expect(new URL(link.getAttribute('href') ?? '').searchParams.get('guild_id')).toBe(OWNED);
  });
});
