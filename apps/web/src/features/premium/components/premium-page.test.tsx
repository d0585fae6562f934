import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PlanType, PriceTable, Receipt, ServerDetails, Subscription } from '@ticket/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, type Recorded } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import * as provider from '../leave-for-provider';
import { PremiumPage } from './premium-page';

const SERVER = '200000000000000001';
const OTHER = '200000000000000002';
const ME = '100000000000000001';
const DAY = 86_400_000;

const details = (subscription: PlanType = 'free'): ServerDetails => ({
  serverId: SERVER,
  name: 'Analytical Engine',
  iconUrl: null,
  active: true,
  subscription,
  bannerUrl: null,
  ownerId: ME,
  memberCount: 42,
});

const DISCOUNTS = { monthly: 0, quarterly: 5, biannually: 10, annually: 20 } as const;
const MONTHS = { monthly: 1, quarterly: 3, biannually: 6, annually: 12 } as const;
const prices: PriceTable = {
  currency: 'USD',
  providers: ['stripe', 'paypal'],
  prices: (['premium', 'enterprise'] as const).flatMap((planType) =>
    (['monthly', 'quarterly', 'biannually', 'annually'] as const).map((interval) => {
      const monthly = planType === 'premium' ? 225 : 600;
      const amountCents = Math.round(monthly * MONTHS[interval] * (1 - DISCOUNTS[interval] / 100));
      return { planType, interval, months: MONTHS[interval], amountCents, monthlyCents: Math.round(amountCents / MONTHS[interval]), savingPercent: DISCOUNTS[interval] };
    }),
  ),
};

const subscription = (overrides: Partial<Subscription> = {}): Subscription => ({
  id: 'sub-1',
  userId: ME,
  state: 'active',
  provider: 'stripe',
  planInterval: 'monthly',
  planType: 'premium',
  nextBilling: '2026-12-25T10:00:00.000Z',
  cancelAtPeriodEnd: false,
  applied: true,
  serverId: SERVER,
  server: { serverId: SERVER, name: 'Analytical Engine', iconUrl: null },
  scheduledChange: null,
  ...overrides,
});

const receipt = (createdAt: string): Receipt => ({
  number: 1,
  createdAt,
  kind: 'payment',
  subscriptionId: 'sub-1',
  userId: ME,
  server: { serverId: SERVER, name: 'Analytical Engine' },
  planType: 'premium',
  planInterval: 'monthly',
  periodStart: createdAt,
  periodEnd: null,
  amountCents: 225,
  currency: 'USD',
  provider: 'stripe',
  carbonRemovalCents: 5,
});

type Routes = Record<string, (request: Recorded) => Response>;

function backend({ plan = 'free', here = [], mine = here, receipts = [], routes = {} }: { plan?: PlanType; here?: Subscription[]; mine?: Subscription[]; receipts?: Receipt[]; routes?: Routes } = {}) {
  return mockFetch((request) => {
    const path = request.url.split('?')[0] ?? '';
    const key = `${request.method} ${path}`;
    if (routes[key]) return routes[key](request);
    if (path === `/api/server/servers/${SERVER}`) return json(details(plan));
    if (path === '/api/payment/prices') return json(prices);
    if (path === `/api/payment/servers/${SERVER}/subscription`) return json(here);
    if (path === '/api/payment/@me/subscriptions') return json(mine);
    if (path === '/api/payment/@me/receipts') return json(receipts);
    return json({ statusCode: 404, error: 'Not Found', code: 'not_found', message: 'no' }, { status: 404 });
  });
}

function open() {
  signIn(testUser());
  return renderPage(<PremiumPage />, { pattern: '/staff/:serverId/premium', path: `/staff/${SERVER}/premium` });
}

const failure = () => json({ statusCode: 502, error: 'Bad Gateway', code: 'upstream', message: 'provider down' }, { status: 502 });

afterEach(() => vi.restoreAllMocks());

describe('PremiumPage', () => {
  it('shows the plans at each period’s price with its saving, the server’s own marked', async () => {
    backend({ plan: 'premium' });
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Premium' })).toBeTruthy();
    await screen.findByText('Current plan');
    const plan = (type: PlanType) => document.querySelector<HTMLElement>(`li[data-plan="${type}"]`) as HTMLElement;
    // Yearly is shown first: the cheapest per month.
    await waitFor(() => expect(plan('premium').querySelector('[data-price]')?.textContent).toBe('$1.80/month'));
    expect(plan('premium').querySelector('[data-billed]')?.textContent).toBe('$21.60 billed every year');
    expect(plan('premium').getAttribute('aria-current')).toBe('true');
    expect(within(plan('enterprise')).getByText('Up to 100 subjects')).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'Monthly' }));
    expect(plan('premium').querySelector('[data-price]')?.textContent).toBe('$2.25/month');
    expect(plan('enterprise').querySelector('[data-price]')?.textContent).toBe('$6.00/month');
    expect(screen.getByRole('radio', { name: /Every 6 months · Save 10%/ })).toBeTruthy();
    expect(screen.getByText('Full refund within 7 days of buying.')).toBeTruthy();
    expect(screen.getByText('No subscription applies to this server, so it is on the Free plan.')).toBeTruthy();
  });

  it('buys in four steps, server → plan → period → method, and goes to the provider’s page', async () => {
    const leave = vi.spyOn(provider, 'leaveForProvider').mockImplementation(() => {});
    const { calls } = backend({
      routes: {
        [`POST /api/payment/servers/${OTHER}/subscription`]: () =>
          json({ status: 'open', session: { id: 'cs_1', url: 'https://checkout.example/cs_1' } }, { status: 201 }),
      },
    });
    open();
    const buy = within(await screen.findByRole('region', { name: 'Buy a plan' }));
    // Only servers where the user is staff can be chosen.
    const user = userEvent.setup();
    await user.click(buy.getByRole('textbox', { name: /Server/ }));
    await user.click(await screen.findByRole('option', { name: 'Difference Club', hidden: true }));
    expect(screen.queryByRole('option', { name: 'Poetry Science', hidden: true })).toBeNull();
    fireEvent.click(buy.getByRole('button', { name: 'Next' }));
    fireEvent.click(buy.getByRole('radio', { name: /Enterprise/ }));
    fireEvent.click(buy.getByRole('button', { name: 'Next' }));
    fireEvent.click(buy.getByRole('radio', { name: /Every 3 months/ }));
    expect(buy.getByText('$17.10 billed every 3 months')).toBeTruthy();
    fireEvent.click(buy.getByRole('button', { name: 'Next' }));
    fireEvent.click(buy.getByRole('radio', { name: /PayPal/ }));
    expect(buy.getByText('Enterprise for Difference Club: $17.10 billed every 3 months.')).toBeTruthy();
    fireEvent.click(buy.getByRole('button', { name: 'Continue to payment' }));
    await waitFor(() => expect(leave).toHaveBeenCalledWith('https://checkout.example/cs_1'));
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.url).toBe(`/api/payment/servers/${OTHER}/subscription?provider=paypal`);
    expect(post?.body).toEqual({ provider: 'paypal', type: 'enterprise', interval: 'quarterly' });
  });

  it('says "Could not process the request" when the checkout cannot start', async () => {
    backend({ routes: { [`POST /api/payment/servers/${SERVER}/subscription`]: failure } });
    open();
    const buy = within(await screen.findByRole('region', { name: 'Buy a plan' }));
    for (let step = 0; step < 3; step += 1) fireEvent.click(buy.getByRole('button', { name: 'Next' }));
    fireEvent.click(buy.getByRole('radio', { name: /Card/ }));
    fireEvent.click(buy.getByRole('button', { name: 'Continue to payment' }));
    expect(await screen.findByText('Could not process the request. Please try again later.')).toBeTruthy();
  });

  it('shows the subscription: price, amount, method, next billing, server; and a scheduled change that can be cancelled', async () => {
    const sub = subscription({ scheduledChange: { planType: 'premium', planInterval: 'annually', effectiveDate: '2026-12-25T10:00:00.000Z' } });
    const { calls } = backend({ plan: 'premium', here: [sub], routes: { 'DELETE /api/payment/@me/scheduled-change': failure } });
    open();
    const card = within((await screen.findByText('Premium · Monthly')).closest('li') as HTMLElement);
    expect(card.getByText('Active')).toBeTruthy();
    expect(card.getByText('$2.25/month')).toBeTruthy();
    expect(card.getByText('$2.25 billed every month')).toBeTruthy();
    expect(card.getByText('Card')).toBeTruthy();
    expect(card.getByText('Next billing')).toBeTruthy();
    expect(card.getByText('Changes to Premium, Yearly, on Dec 25, 2026.')).toBeTruthy();
    fireEvent.click(card.getByRole('button', { name: 'Cancel scheduled change' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Error cancelling scheduled change')).toBeTruthy();
    expect(calls.find((call) => call.method === 'DELETE')?.body).toEqual({ subscriptionId: 'sub-1' });
  });

  it('change plan: an upgrade applies now; a failure says "Error updating plan"', async () => {
    let answer: Response = json({ status: 'applied', requiresConfirmation: false, confirmationSession: null });
    const { calls } = backend({ plan: 'premium', here: [subscription()], routes: { 'PATCH /api/payment/@me/change-plan': () => answer } });
    open();
    const card = within((await screen.findByText('Premium · Monthly')).closest('li') as HTMLElement);
    fireEvent.click(card.getByRole('button', { name: 'Change plan' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Change plan' }));
    expect(dialog.getByText(/The upgrade applies now/)).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('The plan was changed.')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ plan: 'enterprise', interval: 'monthly', subscriptionId: 'sub-1' });
    answer = failure();
    fireEvent.click(card.getByRole('button', { name: 'Change plan' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Change plan' })).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Error updating plan')).toBeTruthy();
  });

  it('change plan: a change that needs the payer’s confirmation goes to the provider', async () => {
    const leave = vi.spyOn(provider, 'leaveForProvider').mockImplementation(() => {});
    backend({
      plan: 'premium',
      here: [subscription({ provider: 'paypal' })],
      routes: {
        'PATCH /api/payment/@me/change-plan': () =>
          json({ status: 'confirmation_required', requiresConfirmation: true, confirmationSession: { id: 'I-1', url: 'https://paypal.example/approve' } }),
      },
    });
    open();
    const card = within((await screen.findByText('Premium · Monthly')).closest('li') as HTMLElement);
    fireEvent.click(card.getByRole('button', { name: 'Change plan' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Change plan' })).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(leave).toHaveBeenCalledWith('https://paypal.example/approve'));
  });

  it('change billing: scheduled for the end of the period; a failure says "Error updating billing period"', async () => {
    let answer: Response = json({ status: 'scheduled', requiresConfirmation: false, confirmationSession: null });
    const { calls } = backend({ plan: 'premium', here: [subscription()], routes: { 'PATCH /api/payment/@me/change-plan': () => answer } });
    open();
    const card = within((await screen.findByText('Premium · Monthly')).closest('li') as HTMLElement);
    fireEvent.click(card.getByRole('button', { name: 'Change billing' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Change billing period' }));
    expect(dialog.getByText('The new billing period starts when the current one ends, on Dec 25, 2026.')).toBeTruthy();
    fireEvent.click(dialog.getByRole('radio', { name: /Every 6 months/ }));
    fireEvent.click(dialog.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('The change is scheduled for Dec 25, 2026.')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ plan: 'premium', interval: 'biannually', subscriptionId: 'sub-1' });
    answer = failure();
    fireEvent.click(card.getByRole('button', { name: 'Change billing' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Change billing period' })).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Error updating billing period')).toBeTruthy();
  });

  it('transfer: to another server where the user is staff; a failure says "Error transferring subscription"', async () => {
    const { calls } = backend({ plan: 'premium', here: [subscription()], routes: { 'POST /api/payment/@me/transfer': failure } });
    open();
    const card = within((await screen.findByText('Premium · Monthly')).closest('li') as HTMLElement);
    fireEvent.click(card.getByRole('button', { name: 'Transfer' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Move the subscription' }));
    const user = userEvent.setup();
    await user.click(dialog.getByRole('textbox', { name: 'Move to' }));
    expect(dialog.queryByRole('option', { name: 'Analytical Engine', hidden: true })).toBeNull();
    await user.click(await dialog.findByRole('option', { name: 'Difference Club', hidden: true }));
    fireEvent.click(dialog.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Error transferring subscription')).toBeTruthy();
    expect(calls.find((call) => call.url.endsWith('/transfer'))?.body).toEqual({ subscriptionId: 'sub-1', serverId: OTHER });
  });

  it('cancel within 7 days of the first payment says it is refunded; a failure shows SPEC’s two messages', async () => {
    backend({ plan: 'premium', here: [subscription()], receipts: [receipt(new Date(Date.now() - 2 * DAY).toISOString())], routes: { 'DELETE /api/payment/@me/cancel': failure } });
    open();
    const card = within((await screen.findByText('Premium · Monthly')).closest('li') as HTMLElement);
    fireEvent.click(card.getByRole('button', { name: 'Cancel subscription' }));
    expect(await screen.findByText(/less than 7 days ago: it is refunded in full and the plan ends now/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Error cancelling subscription')).toBeTruthy();
    expect(screen.getByText('Could not cancel subscription. Please try again later or contact us if the issue persists.')).toBeTruthy();
  });

  it('cancel after 7 days says the plan stays until the end of the period', async () => {
    const { calls } = backend({
      plan: 'premium',
      here: [subscription()],
      receipts: [receipt(new Date(Date.now() - 20 * DAY).toISOString())],
      routes: { 'DELETE /api/payment/@me/cancel': () => json(subscription({ cancelAtPeriodEnd: true })) },
    });
    open();
    const card = within((await screen.findByText('Premium · Monthly')).closest('li') as HTMLElement);
    // The receipts decide the text.
    await waitFor(() => expect(calls.some((call) => call.url.endsWith('/@me/receipts'))).toBe(true));
    fireEvent.click(card.getByRole('button', { name: 'Cancel subscription' }));
    expect(await screen.findByText('The plan stays active until Dec 25, 2026, then ends, and nothing more is charged. This cannot be undone.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('The subscription was cancelled. The plan stays active until Dec 25, 2026.')).toBeTruthy();
  });

  it('someone else’s subscription has no buyer actions; an admin may remove it from the server', async () => {
    backend({ plan: 'premium', here: [subscription({ userId: '100000000000000009' })], mine: [] });
    open();
    const card = within((await screen.findByText('Premium · Monthly')).closest('li') as HTMLElement);
    expect(card.getByText('Paid for by another member of this server’s staff.')).toBeTruthy();
    expect(card.queryByRole('button', { name: 'Cancel subscription' })).toBeNull();
    expect(card.getByRole('button', { name: 'Remove from this server' })).toBeTruthy();
    expect(await screen.findByText('You do not pay for any subscription yet.')).toBeTruthy();
  });

  it('has an FAQ', async () => {
    backend();
    open();
    expect(await screen.findByRole('heading', { name: 'Frequently asked questions' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Can I get my money back?' })).toBeTruthy();
  });
});
