import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { PlanType, ServerDetails, WebhookDelivery, WebhookEndpoint } from '@ticket/contracts';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, type Recorded } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import { WEBHOOK_DELIVERIES_POLL_MS } from '../api/get-webhook-deliveries';
import { WebhooksPage } from './webhooks-page';

const SERVER = '200000000000000001';
const BASE = `/api/settings/servers/${SERVER}/webhooks`;
const SECRET = 'whsec_3q2+7wXhZkY2mJqLk9bTn0c4A1sVf8Rr5uHdGe6Pw0o';
const AT = '2026-03-01T10:00:00.000Z';

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

const endpoint = (overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  endpointId: 'whe_1',
  serverId: SERVER,
  url: 'https://hooks.example.com/tickets',
  description: 'Helpdesk sync',
  events: ['ticket.opened', 'ticket.closed'],
  enabled: true,
  secretHint: 'whsec_…Pw0o',
  createdAt: AT,
  updatedAt: AT,
  lastDelivery: null,
  ...overrides,
});

const delivery = (overrides: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  deliveryId: 'whd_1',
  endpointId: 'whe_1',
  eventId: 'evt_1',
  event: 'ticket.opened',
  status: 'delivered',
  statusCode: 200,
  error: null,
  attempts: 1,
  history: [],
  nextAttemptAt: null,
  createdAt: AT,
  lastAttemptAt: AT,
  deliveredAt: AT,
  redeliveryOf: null,
  ...overrides,
});

const notFound = () => json({ statusCode: 404, error: 'Not Found', code: 'not_found', message: 'no' }, { status: 404 });

/** The server's details on `plan`, and a settings service answering from `endpoints`; `override` answers first. */
function backend({
  plan = 'enterprise',
  endpoints = [],
  deliveries = [],
  override,
}: {
  plan?: PlanType;
  endpoints?: WebhookEndpoint[];
  deliveries?: WebhookDelivery[];
  override?: (request: Recorded, path: string) => Response | undefined;
} = {}) {
  let stored = [...endpoints];
  return mockFetch((request) => {
    const path = request.url.split('?')[0] ?? '';
    const answer = override?.(request, path);
    if (answer) return answer;
    if (path === `/api/server/servers/${SERVER}`) return json(details(plan));
    if (path === BASE && request.method === 'GET') return json(stored);
    if (path === BASE && request.method === 'POST') {
      const body = request.body as { url: string; events: WebhookEndpoint['events']; description?: string | null };
      const made = endpoint({ endpointId: 'whe_new', url: body.url, events: body.events, description: body.description ?? null });
      stored.push(made);
      return json({ ...made, secret: SECRET }, { status: 201 });
    }
    const one = /^.*\/webhooks\/([^/]+)$/.exec(path)?.[1];
    if (one && request.method === 'PATCH') {
      stored = stored.map((item) => (item.endpointId === one ? { ...item, ...(request.body as object) } : item));
      return json(stored.find((item) => item.endpointId === one));
    }
    if (one && request.method === 'DELETE') {
      stored = stored.filter((item) => item.endpointId !== one);
      return new Response(null, { status: 204 });
    }
    if (path.endsWith('/deliveries')) return json({ page: 1, maxPage: 1, elements: deliveries });
    return notFound();
  });
}

function open() {
  signIn(testUser());
  return renderPage(<WebhooksPage />, { pattern: '/staff/:serverId/webhooks', path: `/staff/${SERVER}/webhooks` });
}

const webhookCalls = (calls: Recorded[]) => calls.filter((call) => call.url.startsWith(BASE)).map((call) => `${call.method} ${call.url.split('?')[0]}`);

describe('WebhooksPage', () => {
  it('on another plan: says webhooks come with Enterprise, links to Premium, and asks nothing of the webhooks service', async () => {
    const { calls } = backend({ plan: 'premium' });
    open();
    expect(await screen.findByText('Webhooks come with Enterprise')).toBeTruthy();
    expect(screen.getByText('This server is on the Premium plan.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe(`/staff/${SERVER}/premium`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(webhookCalls(calls)).toEqual([]);
  });

  it('without endpoints: adds one and shows its signing secret once, with how to verify', async () => {
    const { calls } = backend();
    open();
    expect(await screen.findByText('No endpoints yet')).toBeTruthy();
    expect(screen.getByText(/Webhook-Signature: v1=/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const form = within(await screen.findByRole('region', { name: 'New endpoint' }));
    fireEvent.change(form.getByRole('textbox', { name: /Endpoint URL/ }), { target: { value: 'https://hooks.example.com/new' } });
    fireEvent.click(form.getByRole('checkbox', { name: 'Ticket opened' }));
    fireEvent.click(form.getByRole('checkbox', { name: 'Message posted' }));
    fireEvent.change(form.getByRole('textbox', { name: 'Description (optional)' }), { target: { value: 'CRM' } });
    fireEvent.click(form.getByRole('button', { name: 'Add endpoint' }));

    const panel = within(await screen.findByRole('region', { name: 'Your new signing secret' }));
    expect((panel.getByRole('textbox', { name: 'Signing secret' }) as HTMLInputElement).value).toBe(SECRET);
    const post = calls.find((call) => call.method === 'POST' && call.url === BASE);
    expect(post?.body).toEqual({ url: 'https://hooks.example.com/new', events: ['ticket.opened', 'message.created'], description: 'CRM' });
    expect(await screen.findByRole('heading', { name: 'CRM' })).toBeTruthy();

    fireEvent.click(panel.getByRole('button', { name: 'I have saved it' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Your new signing secret' })).toBeNull());
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it("shows the server's refusal of a non-https URL under the field", async () => {
    backend({
      override: (request, path) =>
        path === BASE && request.method === 'POST'
          ? json(
              { statusCode: 400, error: 'Bad Request', code: 'validation_failed', message: 'body.url: Must be an https:// URL', field: 'body.url' },
              { status: 400 },
            )
          : undefined,
    });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    const form = within(await screen.findByRole('region', { name: 'New endpoint' }));
    fireEvent.change(form.getByRole('textbox', { name: /Endpoint URL/ }), { target: { value: 'http://hooks.example.com/x' } });
    fireEvent.click(form.getByRole('checkbox', { name: 'Ticket closed' }));
    fireEvent.click(form.getByRole('button', { name: 'Add endpoint' }));
    expect(await form.findByText('This address cannot be used: it must be a public https:// URL.')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Your new signing secret' })).toBeNull();
  });

  it('switching an endpoint off sends PATCH {enabled: false}', async () => {
    const { calls } = backend({ endpoints: [endpoint()] });
    open();
    const toggle = (await screen.findByRole('switch', { name: 'Send events to Helpdesk sync' })) as HTMLInputElement;
    expect(toggle.checked).toBe(true);
    fireEvent.click(toggle);
    await waitFor(() => expect(calls.some((call) => call.method === 'PATCH')).toBe(true));
    const patch = calls.find((call) => call.method === 'PATCH');
    expect(patch?.url).toBe(`${BASE}/whe_1`);
    expect(patch?.body).toEqual({ enabled: false });
    await waitFor(() => expect((screen.getByRole('switch', { name: 'Send events to Helpdesk sync' }) as HTMLInputElement).checked).toBe(false));
  });

  it('sends a test event and shows its result', async () => {
    const { calls } = backend({
      endpoints: [endpoint()],
      override: (request, path) =>
        path === `${BASE}/whe_1/test`
          ? json(delivery({ deliveryId: 'whd_t', event: 'webhook.test', status: 'pending', statusCode: 500, error: 'HTTP 500 Internal Server Error' }), { status: 201 })
          : undefined,
    });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Send test event' }));
    expect(await screen.findByText('The test event was not delivered')).toBeTruthy();
    expect(screen.getByText('HTTP 500')).toBeTruthy();
    expect(screen.getByText('HTTP 500 Internal Server Error')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.url)).toEqual([`${BASE}/whe_1/test`]);
  });

  it('lists deliveries with a failed one, and resends it to its own path', async () => {
    const failed = delivery({ deliveryId: 'whd_f', event: 'ticket.closed', status: 'failed', statusCode: null, error: 'Timed out after 10 s', attempts: 7 });
    const { calls } = backend({
      endpoints: [endpoint({ lastDelivery: { deliveryId: 'whd_f', event: 'ticket.closed', status: 'failed', statusCode: null, at: AT } })],
      deliveries: [failed, delivery()],
      override: (request, path) => (path.endsWith('/resend') ? json(delivery({ deliveryId: 'whd_r', status: 'pending', attempts: 0 }), { status: 201 }) : undefined),
    });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Deliveries' }));
    const table = within(await screen.findByRole('table', { name: 'Deliveries to Helpdesk sync' }));
    const rows = table.getAllByRole('row');
    expect(rows).toHaveLength(3);
    const failedRow = within(rows[1] as HTMLElement);
    expect(failedRow.getByText('Failed')).toBeTruthy();
    expect(failedRow.getByText('No answer')).toBeTruthy();
    expect(failedRow.getByText('Timed out after 10 s')).toBeTruthy();
    expect(failedRow.getByText('7')).toBeTruthy();
    expect(within(rows[2] as HTMLElement).getByText('HTTP 200')).toBeTruthy();
    // Only the failed one can be sent again.
    expect(table.getAllByRole('button', { name: 'Resend' })).toHaveLength(1);
    fireEvent.click(failedRow.getByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('The delivery is being sent again.')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.url)).toEqual([`${BASE}/whe_1/deliveries/whd_f/resend`]);
  });

  it('reads the deliveries again while one is pending, until its retry is in', async () => {
    const retried = [
      delivery({ deliveryId: 'whd_p', event: 'webhook.test', status: 'pending', statusCode: 500, attempts: 1, deliveredAt: null }),
      delivery({ deliveryId: 'whd_p', event: 'webhook.test', status: 'delivered', statusCode: 200, attempts: 2 }),
    ];
    let reads = 0;
    const { calls } = backend({
      endpoints: [endpoint()],
      override: (_request, path) => (path.endsWith('/deliveries') ? json({ page: 1, maxPage: 1, elements: [retried[Math.min(reads++, 1)]] }) : undefined),
    });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Deliveries' }));
    const table = within(await screen.findByRole('table', { name: 'Deliveries to Helpdesk sync' }));
    expect(table.getByText('Pending')).toBeTruthy();
    expect(table.getByText('HTTP 500')).toBeTruthy();
    expect(await table.findByText('Delivered', undefined, { timeout: WEBHOOK_DELIVERIES_POLL_MS + 3000 })).toBeTruthy();
    expect(table.getByText('HTTP 200')).toBeTruthy();
    expect(calls.filter((call) => call.url.split('?')[0]?.endsWith('/deliveries'))).toHaveLength(2);
  }, 15_000);

  it('deletes an endpoint only once confirmed', async () => {
    const { calls } = backend({ endpoints: [endpoint()] });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Delete this endpoint?' }));
    fireEvent.click(dialog.getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Delete this endpoint?' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('The endpoint was deleted.')).toBeTruthy();
    expect(await screen.findByText('No endpoints yet')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.url)).toEqual([`${BASE}/whe_1`]);
  });

  it('says when the endpoints cannot be loaded, and loads them again on "Try again"', async () => {
    let fail = true;
    backend({
      endpoints: [endpoint()],
      override: (_request, path) =>
        path === BASE && fail ? json({ statusCode: 403, error: 'Forbidden', code: 'forbidden', message: 'no' }, { status: 403 }) : undefined,
    });
    open();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Could not load the webhook endpoints.')).toBeTruthy();
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Helpdesk sync' })).toBeTruthy();
  });
});
