import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEndpoint } from './test-endpoint.ts';
import type { ReceivedRequest, TestEndpoint } from './test-endpoint.ts';
import { createPlans, startStripeSandbox, subscribe } from './stripe-test-support.ts';
import type { StripeHarness } from './stripe-test-support.ts';

let h: StripeHarness;
let receiver: TestEndpoint;
const verifier = new Stripe('sk_test_unused');

beforeAll(async () => {
  h = await startStripeSandbox({ retryDelaysMs: [30, 30] });
  receiver = await startEndpoint(() => ({ status: 200, body: { received: true } }));
});
afterAll(async () => {
  await receiver.close();
  await h.close();
});
beforeEach(async () => {
  await h.control('POST', '/_sandbox/reset');
  await h.control('PUT', '/_sandbox/stripe/config', { webhookSecret: null, forwardTo: null, retryDelaysMs: [30, 30] });
  receiver.requests.length = 0;
  receiver.answer(() => ({ status: 200, body: { received: true } }));
});
afterEach(async () => {
  await h.control('POST', '/_sandbox/stripe/deliveries/resume');
});

interface DeliveryView {
  eventId: string;
  type: string;
  endpointId: string;
  state: string;
  attempts: { status: number | null; error: string | null }[];
}

const flush = async () => (await h.control<{ deliveries: DeliveryView[] }>('POST', '/_sandbox/stripe/deliveries/flush')).body.deliveries;
const typesReceived = () => receiver.requests.map((r) => (r.json as { type: string }).type);
const verify = (request: ReceivedRequest, secret: string) => verifier.webhooks.constructEvent(request.body, String(request.headers['stripe-signature']), secret, 300);

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe('webhook endpoints and signed deliveries', () => {
  it('registers an endpoint with a whsec_ secret shown once, and signs deliveries that constructEvent accepts', async () => {
    const endpoint = await h.stripe.webhookEndpoints.create({ url: `${receiver.url}/webhook`, enabled_events: ['*'] });
    expect(endpoint.id).toMatch(/^we_/);
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect(endpoint).toMatchObject({ object: 'webhook_endpoint', status: 'enabled', enabled_events: ['*'] });
    expect((await h.stripe.webhookEndpoints.retrieve(endpoint.id)).secret).toBeUndefined();

    const plans = await createPlans(h.stripe);
    const sub = await subscribe(h, plans.premiumMonthly.id);
    await flush();

    const completed = receiver.requests.find((r) => (r.json as { type: string }).type === 'checkout.session.completed');
    expect(completed).toBeDefined();
    const request = completed as ReceivedRequest;
    expect(request.url).toBe('/webhook');
    expect(request.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(String(request.headers['stripe-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const event = verify(request, endpoint.secret ?? '');
    expect(event.id).toMatch(/^evt_/);
    expect(event).toMatchObject({ object: 'event', type: 'checkout.session.completed', livemode: false, data: { object: { object: 'checkout.session', status: 'complete', subscription: sub.id } } });
    expect(() => verify(request, 'whsec_wrong')).toThrow(Stripe.errors.StripeSignatureVerificationError);
    expect(() => verifier.webhooks.constructEvent(request.body.replace('complete', 'open'), String(request.headers['stripe-signature']), endpoint.secret ?? '', 300)).toThrow();

    expect(typesReceived().filter((t) => !t.startsWith('product.') && !t.startsWith('price.'))).toEqual([
      'customer.created',
      'invoice.created',
      'invoice.finalized',
      'customer.subscription.created',
      'charge.succeeded',
      'payment_intent.succeeded',
      'invoice.paid',
      'invoice.payment_succeeded',
      'checkout.session.completed',
    ]);
    const retrieved = await h.stripe.events.retrieve(event.id);
    expect(retrieved).toMatchObject({ id: event.id, type: 'checkout.session.completed', pending_webhooks: 0 });
  });

  it('delivers only the enabled events, in the order they happened', async () => {
    await h.stripe.webhookEndpoints.create({ url: receiver.url, enabled_events: ['customer.subscription.created', 'customer.subscription.deleted', 'charge.refunded'] });
    const plans = await createPlans(h.stripe);
    const sub = await subscribe(h, plans.premiumMonthly.id);
    await h.stripe.subscriptions.cancel(sub.id);
    await flush();
    expect(typesReceived()).toEqual(['customer.subscription.created', 'customer.subscription.deleted']);
  });

  it('signs with the configured webhook secret and forwards every event to forwardTo', async () => {
    await h.control('PUT', '/_sandbox/stripe/config', { webhookSecret: 'whsec_demo_fixed', forwardTo: `${receiver.url}/forwarded` });
    const endpoint = await h.stripe.webhookEndpoints.create({ url: `${receiver.url}/registered`, enabled_events: ['customer.created'] });
    expect(endpoint.secret).toBe('whsec_demo_fixed');
    await h.stripe.customers.create({ email: 'x@example.com' });
    await flush();
    expect(receiver.requests.map((r) => r.url).sort()).toEqual(['/forwarded', '/registered']);
    for (const request of receiver.requests) expect(verify(request, 'whsec_demo_fixed').type).toBe('customer.created');
  });

  it('retries a delivery answered non-2xx with backoff, then stops', async () => {
    await h.stripe.webhookEndpoints.create({ url: receiver.url, enabled_events: ['customer.created'] });
    let calls = 0;
    receiver.answer(() => {
      calls += 1;
      return { status: calls === 1 ? 500 : 200 };
    });
    await h.stripe.customers.create({ email: 'retry@example.com' });
    await waitFor(() => calls === 2, 'the retry');
    const [delivery] = (await flush()).filter((d) => d.type === 'customer.created');
    expect(delivery).toMatchObject({ state: 'succeeded', attempts: [{ status: 500 }, { status: 200 }] });
    expect(receiver.requests[0]?.body).toBe(receiver.requests[1]?.body);

    receiver.answer(() => ({ status: 503 }));
    receiver.requests.length = 0;
    await h.stripe.customers.create({ email: 'never@example.com' });
    await waitFor(() => receiver.requests.length === 3, 'every retry');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.requests).toHaveLength(3);
    const failed = (await flush()).filter((d) => d.state === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.attempts.map((a) => a.status)).toEqual([503, 503, 503]);
  });

  it('records an unreachable endpoint as failed after its retries', async () => {
    const closed = await startEndpoint();
    const url = closed.url;
    await closed.close();
    await h.stripe.webhookEndpoints.create({ url, enabled_events: ['customer.created'] });
    await h.stripe.customers.create({});
    let deliveries: DeliveryView[] = [];
    const poll = setInterval(() => void flush().then((d) => (deliveries = d)), 20);
    await waitFor(() => deliveries.some((d) => d.state === 'failed'), 'the failure').finally(() => clearInterval(poll));
    expect(deliveries[0]?.attempts).toHaveLength(3);
    expect(deliveries[0]?.attempts[0]).toMatchObject({ status: null });
    expect(deliveries[0]?.attempts[0]?.error).toBeTruthy();
  });
});

describe('controls for tests', () => {
  it('holds deliveries, then delivers chosen events in a chosen order, then the rest on resume', async () => {
    await h.stripe.webhookEndpoints.create({ url: receiver.url, enabled_events: ['*'] });
    await h.control('POST', '/_sandbox/stripe/deliveries/pause');
    const plans = await createPlans(h.stripe);
    const sub = await subscribe(h, plans.premiumMonthly.id);
    await h.stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    expect(receiver.requests).toHaveLength(0);

    const events = (await h.control<{ events: { id: string; type: string }[] }>('GET', '/_sandbox/stripe/events')).body.events;
    const created = events.find((e) => e.type === 'customer.subscription.created');
    const updated = events.find((e) => e.type === 'customer.subscription.updated');
    const answer = await h.control<{ deliveries: DeliveryView[] }>('POST', '/_sandbox/stripe/events/deliver', { ids: [updated?.id, created?.id] });
    expect(answer.status).toBe(200);
    expect(typesReceived()).toEqual(['customer.subscription.updated', 'customer.subscription.created']);

    await h.control('POST', '/_sandbox/stripe/deliveries/resume');
    const types = typesReceived();
    expect(types.length).toBe(events.length);
    expect(types.filter((t) => t === 'customer.subscription.created')).toHaveLength(1);
  });

  it('resends an event: the same event id, signed afresh', async () => {
    const endpoint = await h.stripe.webhookEndpoints.create({ url: receiver.url, enabled_events: ['customer.created'] });
    await h.stripe.customers.create({});
    await flush();
    const [event] = (await h.stripe.events.list({ type: 'customer.created' })).data;
    const resent = await h.control<{ deliveries: DeliveryView[] }>('POST', `/_sandbox/stripe/events/${event?.id}/resend`);
    expect(resent.body.deliveries).toHaveLength(1);
    expect(receiver.requests).toHaveLength(2);
    expect(verify(receiver.requests[1] as ReceivedRequest, endpoint.secret ?? '').id).toBe(event?.id);
    expect((await h.control('POST', '/_sandbox/stripe/events/evt_nope/resend')).status).toBe(404);
  });

  it('waits for the webhooks of a renewal before the clock route answers, and a reset forgets everything', async () => {
    await h.stripe.webhookEndpoints.create({ url: receiver.url, enabled_events: ['invoice.paid'] });
    const plans = await createPlans(h.stripe);
    await subscribe(h, plans.premiumMonthly.id);
    await flush();
    receiver.requests.length = 0;
    await h.advanceDays(31);
    expect(typesReceived()).toEqual(['invoice.paid']);
    expect((receiver.requests[0]?.json as { data: { object: { billing_reason: string } } }).data.object.billing_reason).toBe('subscription_cycle');

    await h.control('POST', '/_sandbox/reset');
    expect((await h.stripe.webhookEndpoints.list()).data).toHaveLength(0);
    expect((await h.stripe.events.list()).data).toHaveLength(0);
    const state = await h.control<{ subscriptions: unknown[]; deliveries: unknown[] }>('GET', '/_sandbox/stripe/state');
    expect(state.body).toMatchObject({ subscriptions: [], deliveries: [] });
  });

  it('describes the keys and how to point the SDK at the sandbox', async () => {
    const { body } = await h.control<{ secretKey: string; apiBase: string; sdk: { host: string; port: number; protocol: string } }>('GET', '/_sandbox/stripe');
    const url = new URL(h.sandbox.url);
    expect(body).toMatchObject({ secretKey: 'sk_test_sandbox_4eC39HqLyjWDarjtT1zdp7dc', apiBase: `${h.sandbox.url}/v1`, sdk: { host: url.hostname, port: Number(url.port), protocol: 'http' } });
    expect((await h.control('PUT', '/_sandbox/stripe/config', { webhookSecret: '' })).status).toBe(400);
    expect((await h.control('PUT', '/_sandbox/stripe/config', { nope: 1 })).status).toBe(400);
  });
});
