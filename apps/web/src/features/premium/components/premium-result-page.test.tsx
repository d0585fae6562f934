import { screen, waitFor } from '@testing-library/react';
import type { StatusResponse } from '@ticket/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, type Recorded } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import { RESULT_POLL_ATTEMPTS, RESULT_POLL_INTERVAL_MS } from '../api/complete-checkout';
import { type PremiumResult, PremiumResultPage } from './premium-result-page';

const SERVER = '200000000000000001';
const PATTERN = { cancel: 'cancel', success: 'success', updateSuccess: 'update/success' } as const;

function backend(answer: (request: Recorded) => Response) {
  return mockFetch((request) => {
    const path = request.url.split('?')[0] ?? '';
    if (path === `/api/server/servers/${SERVER}`)
      return json({ serverId: SERVER, name: 'Analytical Engine', iconUrl: null, active: true, subscription: 'free', bannerUrl: null, ownerId: null, memberCount: 1 });
    if (path.startsWith(`/api/payment/servers/${SERVER}/subscription/`)) return answer(request);
    return json({ statusCode: 404, error: 'Not Found', code: 'not_found', message: 'no' }, { status: 404 });
  });
}

function open(result: PremiumResult, query = '') {
  signIn(testUser());
  const pattern = `/staff/:serverId/premium/${PATTERN[result]}`;
  return renderPage(<PremiumResultPage result={result} />, { pattern, path: `/staff/${SERVER}/premium/${PATTERN[result]}${query}` });
}

const status = (body: StatusResponse) => json(body);

afterEach(() => vi.useRealTimers());

describe('PremiumResultPage', () => {
  it('purchase: verifies the card checkout with the payment service, then says it is active', async () => {
    const { calls } = backend(() => status({ status: 'complete' }));
    open('success', '?provider=stripe&token=cs_test_1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Purchase result' })).toBeTruthy();
    expect(await screen.findByText('Thank you! Your plan is active.')).toBeTruthy();
    const call = calls.find((c) => c.method === 'POST');
    expect(call?.url).toBe(`/api/payment/servers/${SERVER}/subscription/complete?provider=stripe&token=cs_test_1`);
    expect(screen.getByRole('link', { name: 'Back to Premium' }).getAttribute('href')).toBe(`/staff/${SERVER}/premium`);
  });

  it('purchase by PayPal: the token is the subscription id PayPal hands back', async () => {
    const { calls } = backend(() => status({ status: 'complete' }));
    open('success', '?provider=paypal&subscription_id=I-ABC&ba_token=BA-1&token=EC-2');
    await screen.findByText('Thank you! Your plan is active.');
    expect(calls.find((c) => c.method === 'POST')?.url).toContain('provider=paypal&token=I-ABC');
  });

  it('keeps asking while the provider is processing, then shows the result', async () => {
    let answers = 0;
    backend(() => {
      answers += 1;
      return status(answers < 3 ? { status: 'processing' } : { status: 'complete' });
    });
    open('success', '?provider=stripe&token=cs_test_2');
    expect(await screen.findByText('Your purchase is processing.')).toBeTruthy();
    expect(await screen.findByText('Thank you! Your plan is active.', {}, { timeout: RESULT_POLL_INTERVAL_MS * 3 })).toBeTruthy();
    expect(answers).toBe(3);
  }, 15_000);

  it('stops asking after a while and says the status could not be verified', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answers = 0;
    backend(() => {
      answers += 1;
      return status({ status: 'processing' });
    });
    open('updateSuccess', '?provider=stripe&token=in_1');
    await screen.findByText('Your subscription update is processing.');
    for (let i = 0; i < RESULT_POLL_ATTEMPTS + 2; i += 1) await vi.advanceTimersByTimeAsync(RESULT_POLL_INTERVAL_MS);
    expect(await screen.findByText('Status not verified')).toBeTruthy();
    expect(screen.getByText(/Check your e-mail for the confirmation, or contact support/)).toBeTruthy();
    expect(answers).toBe(RESULT_POLL_ATTEMPTS);
  });

  it('update: asks update-complete; "unverified" and a failing service both say check your e-mail', async () => {
    const { calls } = backend(() => status({ status: 'unverified' }));
    open('updateSuccess', '?provider=paypal&subscription_id=I-1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Subscription update result' })).toBeTruthy();
    expect(await screen.findByText('Status not verified')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.url).toContain('/subscription/update-complete?provider=paypal&token=I-1');
  });

  it('without a token there is nothing to verify: it says so rather than waiting', async () => {
    const { calls } = backend(() => status({ status: 'complete' }));
    open('success');
    expect(await screen.findByText('Status not verified')).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(false));
  });

  it('a payment that did not go through says nothing changed', async () => {
    backend(() => status({ status: 'failed', message: 'expired' }));
    open('success', '?provider=stripe&token=cs_3');
    expect(await screen.findByText('The payment did not go through')).toBeTruthy();
  });

  it('cancel: PayPal approval was cancelled', async () => {
    backend(() => status({ status: 'complete' }));
    open('cancel', '?provider=paypal&token=EC-1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment cancelled' })).toBeTruthy();
    expect(screen.getByText('PayPal approval was cancelled')).toBeTruthy();
    expect(screen.getByText('Nothing was charged and your plan has not changed.')).toBeTruthy();
  });

  it('cancel by card: nothing was charged', async () => {
    backend(() => status({ status: 'complete' }));
    open('cancel');
    expect(await screen.findByText('You cancelled the payment, so nothing was charged and the plan has not changed.')).toBeTruthy();
  });
});
