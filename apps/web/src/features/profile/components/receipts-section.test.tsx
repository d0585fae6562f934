import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Receipt } from '@ticket/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import { ReceiptsSection } from './receipts-section';

const receipt = (number: number, kind: Receipt['kind'], amountCents: number): Receipt => ({
  number,
  createdAt: `2026-11-0${number}T12:00:00.000Z`,
  kind,
  subscriptionId: 'sub-1',
  userId: '100000000000000001',
  server: { serverId: '200000000000000001', name: 'Analytical Engine' },
  planType: 'premium',
  planInterval: 'annually',
  periodStart: null,
  periodEnd: null,
  amountCents,
  currency: 'USD',
  provider: 'stripe',
  carbonRemovalCents: Math.round(amountCents * 0.02),
});

function open() {
  signIn(testUser());
  return renderPage(<ReceiptsSection />, { pattern: '/profile' });
}

afterEach(() => vi.restoreAllMocks());

describe('ReceiptsSection', () => {
  it('lists payments and refunds, newest first, with amount, plan, server, method and the carbon share', async () => {
    mockFetch(() => json([receipt(1, 'payment', 2160), receipt(2, 'refund', 2160)]));
    open();
    const rows = await screen.findAllByRole('listitem');
    expect(rows.map((row) => row.getAttribute('data-receipt'))).toEqual(['2', '1']);
    const payment = within(rows[1] as HTMLElement);
    expect(payment.getByText('Receipt 1')).toBeTruthy();
    expect(payment.getByText('Payment')).toBeTruthy();
    expect(payment.getByText('$21.60')).toBeTruthy();
    expect(payment.getByText(/Premium · yearly · Analytical Engine · Card/)).toBeTruthy();
    expect(payment.getByText('$0.43 to carbon removal')).toBeTruthy();
    const refund = within(rows[0] as HTMLElement);
    expect(refund.getByText('Refund')).toBeTruthy();
    expect(refund.getByText('-$21.60')).toBeTruthy();
  });

  it('downloads a receipt as a PDF', async () => {
    const { calls } = mockFetch((request) =>
      request.url.endsWith('/pdf') ? new Response('%PDF-1.4', { headers: { 'Content-Type': 'application/pdf' } }) : json([receipt(1, 'payment', 225)]),
    );
    // jsdom has no object URLs.
    const created = vi.fn((_blob: Blob) => 'blob:receipt');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: () => {} });
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Download receipt 1 as PDF' }));
    await waitFor(() => expect(clicked).toHaveBeenCalled());
    expect(calls.at(-1)?.url).toBe('/api/payment/@me/receipts/1/pdf');
    expect(created).toHaveBeenCalledOnce();
    expect(await created.mock.calls[0]?.[0].text()).toBe('%PDF-1.4');
  });

  it('says when there is nothing yet, and when the receipts could not be loaded', async () => {
    mockFetch(() => json([]));
    const { unmount } = open();
    expect(await screen.findByText('No payments yet.')).toBeTruthy();
    unmount();
    mockFetch(() => json({ statusCode: 500, error: 'Internal Server Error', message: 'x' }, { status: 500 }));
    open();
    expect(await screen.findByText('Could not load your receipts.')).toBeTruthy();
  });
});
