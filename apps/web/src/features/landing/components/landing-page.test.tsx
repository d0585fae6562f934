import { configure, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '@/test/fetch';
import { renderApp } from '@/test/render';

// The landing page is its own chunk: under a full parallel run its first import can take a while.
configure({ asyncUtilTimeout: 5000 });

const notFound = () => json({ statusCode: 404, error: 'Not Found', code: 'not_found', message: 'no' }, { status: 404 });

function backend(routes: Record<string, () => Response>) {
  return mockFetch((request) => routes[request.url.split('?')[0] ?? '']?.() ?? notFound());
}

describe('LandingPage', () => {
  it('shows a signed-out visitor at / the live numbers, the testimonials and the way to sign in', async () => {
    backend({
      '/api/support/stats': () => json({ servers: 1234, tickets: 56789, messages: 432100, openTickets: 17 }),
      '/api/server/testimonials': () =>
        json([{ testimonial: 'Our support queue finally makes sense.', author: 'Ada', server: 'Analytical Engine', serverSize: 4200 }]),
    });
    renderApp('/');

    expect(await screen.findByRole('heading', { level: 1, name: 'Ticket Dashboard' })).toBeTruthy();
    const stats = within(screen.getByRole('region', { name: 'Live statistics' }));
    expect(await stats.findByText('1,234')).toBeTruthy();
    for (const [label, value] of [
      ['Servers served', '1,234'],
      ['Tickets handled', '56,789'],
      ['Messages', '432,100'],
      ['Tickets open now', '17'],
    ]) {
      expect(stats.getByText(label as string).nextElementSibling?.textContent).toBe(value);
    }
    const testimonials = within(screen.getByRole('region', { name: 'What server owners say' }));
    expect(await testimonials.findByText('Our support queue finally makes sense.')).toBeTruthy();
    expect(testimonials.getByText('Ada, Analytical Engine (4,200 members)')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'What it does' })).toBeTruthy();
    const signIn = screen.getAllByRole('link', { name: 'Sign in with Discord' });
    expect(signIn.map((link) => link.getAttribute('href'))).toEqual(['/login', '/login']);
    expect(screen.getByRole('main')).toBeTruthy();
  });

  it('says so when the numbers cannot be loaded, and keeps the rest of the page', async () => {
    backend({
      '/api/support/stats': () => json({ statusCode: 500, error: 'x', code: 'x', message: 'x' }, { status: 500 }),
      '/api/server/testimonials': () => json([]),
    });
    renderApp('/');
    const stats = within(await screen.findByRole('region', { name: 'Live statistics' }));
    expect(await stats.findByRole('alert', {}, { timeout: 10_000 })).toBeTruthy();
    expect(stats.getByText('This part of the page could not be loaded.')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'What it does' })).toBeTruthy();
  });
});
