import { X509Certificate, createVerify } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ControlEvents, EventBody, Link, PaypalTestSandbox } from './paypal-test-support.ts';
import { createPlan, createSubscription, decideOnPage, eventually, linkOf, startPaypalSandbox } from './paypal-test-support.ts';
import { startEndpoint } from './test-endpoint.ts';
import type { ReceivedRequest, TestEndpoint } from './test-endpoint.ts';

let t: PaypalTestSandbox;
let endpoint: TestEndpoint;
beforeEach(async () => {
  t = await startPaypalSandbox();
  endpoint = await startEndpoint(() => ({ status: 200 }));
});
afterEach(async () => {
  await t.close();
  await endpoint.close();
});

async function registerWebhook(url = endpoint.url, names = ['*']): Promise<string> {
  const res = await t.call<{ id: string }>('POST', '/v1/notifications/webhooks', { url, event_types: names.map((name) => ({ name })) });
  expect(res.status).toBe(201);
  return res.json.id;
}

function verificationBody(request: ReceivedRequest, webhookId: string, event: unknown = request.json) {
  return {
    auth_algo: request.headers['paypal-auth-algo'],
    cert_url: request.headers['paypal-cert-url'],
    transmission_id: request.headers['paypal-transmission-id'],
    transmission_sig: request.headers['paypal-transmission-sig'],
    transmission_time: request.headers['paypal-transmission-time'],
    webhook_id: webhookId,
    webhook_event: event,
  };
}

async function verify(body: unknown): Promise<string> {
  const res = await t.call<{ verification_status: string }>('POST', '/v1/notifications/verify-webhook-signature', body);
  expect(res.status).toBe(200);
  return res.json.verification_status;
}

async function activeSubscription(): Promise<string> {
  const plan = await createPlan(t);
  const created = await createSubscription(t, plan.id);
  await decideOnPage(linkOf(created, 'approve'), 'approve');
  return created.id;
}

describe('PayPal webhooks', () => {
  it('are registered, listed, shown, changed and deleted', async () => {
    const id = await registerWebhook(endpoint.url, ['BILLING.SUBSCRIPTION.ACTIVATED', 'PAYMENT.SALE.COMPLETED']);
    const listed = await t.call<{ webhooks: { id: string; url: string; event_types: { name: string }[] }[] }>('GET', '/v1/notifications/webhooks');
    expect(listed.json.webhooks).toEqual([expect.objectContaining({ id, url: endpoint.url })]);
    expect(listed.json.webhooks[0]!.event_types.map((e) => e.name)).toEqual(['BILLING.SUBSCRIPTION.ACTIVATED', 'PAYMENT.SALE.COMPLETED']);

    const duplicate = await t.call('POST', '/v1/notifications/webhooks', { url: endpoint.url, event_types: [{ name: '*' }] });
    expect(duplicate.status).toBe(400);
    expect(duplicate.json).toMatchObject({ name: 'WEBHOOK_URL_ALREADY_EXISTS' });
    const badType = await t.call('POST', '/v1/notifications/webhooks', { url: 'http://localhost:9/x', event_types: [{ name: 'NOT.A.TYPE' }] });
    expect(badType.status).toBe(400);

    const patched = await t.call<{ event_types: { name: string }[] }>('PATCH', `/v1/notifications/webhooks/${id}`, [{ op: 'replace', path: '/event_types', value: [{ name: '*' }] }]);
    expect(patched.json.event_types.map((e) => e.name)).toEqual(['*']);
    expect((await t.call('DELETE', `/v1/notifications/webhooks/${id}`)).status).toBe(204);
    expect((await t.call('GET', `/v1/notifications/webhooks/${id}`)).status).toBe(404);
  });

  it('delivers each event with the transmission headers, verifiable through the verification API', async () => {
    const webhookId = await registerWebhook();
    const subscriptionId = await activeSubscription();
    const received = await eventually(() => {
      expect(endpoint.requests).toHaveLength(3);
      return endpoint.requests;
    });
    expect(received.map((r) => (r.json as EventBody).event_type)).toEqual([
      'BILLING.SUBSCRIPTION.CREATED',
      'BILLING.SUBSCRIPTION.ACTIVATED',
      'PAYMENT.SALE.COMPLETED',
    ]);
    const sale = received[2]!;
    expect(sale.headers['content-type']).toBe('application/json');
    expect(sale.headers['paypal-auth-algo']).toBe('SHA256withRSA');
    expect(sale.headers['paypal-transmission-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(sale.headers['paypal-transmission-time']).toBe('2025-01-15T12:00:00Z');
    expect(sale.headers['paypal-cert-url']).toMatch(new RegExp(`^${t.sandbox.url}/paypal/v1/notifications/certs/CERT-`));
    const event = sale.json as EventBody;
    expect(sale.body).toBe(JSON.stringify(event));
    expect(event).toMatchObject({
      id: expect.stringMatching(/^WH-/),
      event_version: '1.0',
      resource_type: 'sale',
      summary: 'A successful sale payment was made for $ 2.25 USD',
      resource: { billing_agreement_id: subscriptionId, amount: { total: '2.25', currency: 'USD' }, state: 'completed', custom: 'server:1300000000000000001' },
    });
    const activated = received[1]!.json as EventBody;
    expect(activated).toMatchObject({ resource_type: 'subscription', resource_version: '2.0', resource: { id: subscriptionId, status: 'ACTIVE' } });

    for (const request of received) expect(await verify(verificationBody(request, webhookId))).toBe('SUCCESS');
  });

  it('answers FAILURE for an altered event, another webhook id, a forged signature or a foreign certificate', async () => {
    const webhookId = await registerWebhook();
    const otherWebhookId = await registerWebhook(`${endpoint.url}/other`);
    await activeSubscription();
    const sale = await eventually(() => {
      const found = endpoint.requests.find((r) => (r.json as EventBody).event_type === 'PAYMENT.SALE.COMPLETED' && r.url === '/');
      expect(found).toBeDefined();
      return found!;
    });
    const event = sale.json as EventBody & { resource: { amount: { total: string } } };
    expect(await verify(verificationBody(sale, webhookId))).toBe('SUCCESS');

    const altered = structuredClone(event);
    altered.resource.amount.total = '0.01';
    expect(await verify(verificationBody(sale, webhookId, altered))).toBe('FAILURE');
    expect(await verify(verificationBody(sale, otherWebhookId))).toBe('FAILURE');
    expect(await verify({ ...verificationBody(sale, webhookId), transmission_sig: Buffer.from('forged').toString('base64') })).toBe('FAILURE');
    expect(await verify({ ...verificationBody(sale, webhookId), transmission_id: 'b2f9c4a0-0000-11ef-0000-000000000000' })).toBe('FAILURE');
    expect(await verify({ ...verificationBody(sale, webhookId), cert_url: 'https://evil.example/v1/notifications/certs/CERT-other' })).toBe('FAILURE');

    const missing = await t.call('POST', '/v1/notifications/verify-webhook-signature', { webhook_id: webhookId });
    expect(missing.status).toBe(400);
  });

  it('serves the signing certificate at the cert URL, which checks the signature locally too', async () => {
    const webhookId = await registerWebhook();
    await activeSubscription();
    const request = await eventually(() => {
      expect(endpoint.requests.length).toBeGreaterThan(0);
      return endpoint.requests[0]!;
    });
    const pem = await (await fetch(String(request.headers['paypal-cert-url']))).text();
    const certificate = new X509Certificate(pem);
    expect(certificate.subject).toContain('CN=messageverificationcerts.sandbox.paypal.com');
    const signed = `${request.headers['paypal-transmission-id']}|${request.headers['paypal-transmission-time']}|${webhookId}|${crc32(request.body)}`;
    const verifier = createVerify('sha256').update(signed);
    expect(verifier.verify(certificate.publicKey, String(request.headers['paypal-transmission-sig']), 'base64')).toBe(true);
  });

  it('delivers only the event types a webhook subscribed to', async () => {
    await registerWebhook(endpoint.url, ['PAYMENT.SALE.COMPLETED']);
    await activeSubscription();
    await t.control('POST', '/paypal/deliveries/wait');
    expect(endpoint.requests.map((r) => (r.json as EventBody).event_type)).toEqual(['PAYMENT.SALE.COMPLETED']);
  });

  it('retries a delivery answered with an error, then gives up after the last retry', async () => {
    let answers = 0;
    endpoint.answer(() => ({ status: ++answers < 3 ? 500 : 200 }));
    await registerWebhook(endpoint.url, ['BILLING.SUBSCRIPTION.CREATED']);
    const plan = await createPlan(t);
    const created = await createSubscription(t, plan.id);
    const events = await eventually(async () => {
      const res = await t.control<ControlEvents>('GET', `/paypal/events?subscriptionId=${created.id}`);
      expect(res.json.events[0]!.deliveries[0]!.status).toBe('SUCCESS');
      return res.json.events;
    });
    expect(events[0]!.deliveries[0]!.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    expect(endpoint.requests).toHaveLength(3);
    // Every attempt carries the same event, each with its own transmission.
    expect(new Set(endpoint.requests.map((r) => r.body)).size).toBe(1);
    expect(new Set(endpoint.requests.map((r) => r.headers['paypal-transmission-id'])).size).toBe(3);

    endpoint.answer(() => ({ status: 503 }));
    const second = await createSubscription(t, plan.id);
    const failed = await eventually(async () => {
      const res = await t.control<ControlEvents>('GET', `/paypal/events?subscriptionId=${second.id}`);
      expect(res.json.events[0]!.deliveries[0]!.status).toBe('FAILURE');
      return res.json.events[0]!.deliveries[0]!;
    });
    expect(failed.attempts).toHaveLength(3);
  });

  it('retries an unreachable endpoint', async () => {
    const closed = await startEndpoint();
    const url = closed.url;
    await closed.close();
    await registerWebhook(url, ['BILLING.SUBSCRIPTION.CREATED']);
    const plan = await createPlan(t);
    const created = await createSubscription(t, plan.id);
    const delivery = await eventually(async () => {
      const res = await t.control<ControlEvents>('GET', `/paypal/events?subscriptionId=${created.id}`);
      expect(res.json.events[0]!.deliveries[0]!.status).toBe('FAILURE');
      return res.json.events[0]!.deliveries[0]!;
    });
    expect(delivery.attempts).toHaveLength(3);
    expect(delivery.attempts.every((a) => a.status === null && a.error)).toBe(true);
  });

  it('holds deliveries while paused, delivers chosen events in the given order, and resends', async () => {
    await registerWebhook();
    await t.control('POST', '/paypal/deliveries/pause');
    const subscriptionId = await activeSubscription();
    await t.control('POST', '/paypal/deliveries/wait');
    expect(endpoint.requests).toHaveLength(0);

    const events = (await t.control<ControlEvents>('GET', `/paypal/events?subscriptionId=${subscriptionId}`)).json.events;
    expect(events.map((e) => e.deliveries[0]!.status)).toEqual(['QUEUED', 'QUEUED', 'QUEUED']);
    const [created, activated, sale] = events.map((e) => e.id);
    const delivered = await t.control<{ deliveries: { status: string }[] }>('POST', '/paypal/events/deliver', { ids: [sale, activated] });
    expect(delivered.json.deliveries.map((d) => d.status)).toEqual(['SUCCESS', 'SUCCESS']);
    expect(endpoint.requests.map((r) => (r.json as EventBody).id)).toEqual([sale, activated]);

    const resumed = await t.control<{ deliveries: unknown[] }>('POST', '/paypal/deliveries/resume');
    expect(resumed.json.deliveries).toHaveLength(1);
    expect(endpoint.requests.map((r) => (r.json as EventBody).id)).toEqual([sale, activated, created]);

    const resent = await t.control<{ deliveries: { status: string }[] }>('POST', `/paypal/events/${sale}/resend`);
    expect(resent.json.deliveries.map((d) => d.status)).toEqual(['SUCCESS']);
    expect(endpoint.requests.map((r) => (r.json as EventBody).id)).toEqual([sale, activated, created, sale]);
    expect(endpoint.requests[3]!.body).toBe(endpoint.requests[0]!.body);
    expect(endpoint.requests[3]!.headers['paypal-transmission-id']).not.toBe(endpoint.requests[0]!.headers['paypal-transmission-id']);

    // PayPal's own resend API does the same, answering 202 at once.
    const api = await t.call<{ id: string }>('POST', `/v1/notifications/webhooks-events/${activated}/resend`, {});
    expect(api.status).toBe(202);
    await eventually(() => expect(endpoint.requests).toHaveLength(5));
    expect((endpoint.requests[4]!.json as EventBody).id).toBe(activated);
    expect((await t.call<EventBody>('GET', `/v1/notifications/webhooks-events/${sale}`)).json.event_type).toBe('PAYMENT.SALE.COMPLETED');
  });

  it('points the webhook with the fixed id at a URL given at run time', async () => {
    const bad = await t.control('PUT', '/paypal/config', { webhookUrl: 'not a url' });
    expect(bad.status).toBe(400);
    const set = await t.control('PUT', '/paypal/config', { webhookUrl: endpoint.url });
    expect(set.json).toEqual({ webhookUrl: endpoint.url, webhookId: '0SANDBOXWEBHOOK1P', publicUrl: null });
    const subscriptionId = await activeSubscription();
    await t.control('POST', '/paypal/deliveries/wait');
    expect(endpoint.requests).toHaveLength(3);
    expect(await verify(verificationBody(endpoint.requests[2]!, '0SANDBOXWEBHOOK1P'))).toBe('SUCCESS');

    t.sandbox.paypal.configure({ webhookUrl: null, publicUrl: 'http://sandbox.test:3001/' });
    expect((await t.call<{ webhooks: unknown[] }>('GET', '/v1/notifications/webhooks')).json.webhooks).toEqual([]);
    expect(() => t.sandbox.paypal.configure({ webhookUrl: 'ftp://x' })).toThrow(/webhookUrl/);
    const shown = await t.call<{ links: Link[] }>('GET', `/v1/billing/subscriptions/${subscriptionId}`);
    expect(linkOf(shown.json, 'self')).toBe(`http://sandbox.test:3001/paypal/v1/billing/subscriptions/${subscriptionId}`);
  });

  it('registers the demo webhook given as an option, and a reset clears everything else', async () => {
    await t.close();
    t = await startPaypalSandbox({ webhookUrl: endpoint.url });
    const state = await t.control<{ webhookId: string; clientId: string; clientSecret: string; apiBase: string }>('GET', '/paypal');
    expect(state.json).toMatchObject({ webhookId: '0SANDBOXWEBHOOK1P', clientId: 'sandbox-paypal-client-id', clientSecret: 'sandbox-paypal-client-secret', apiBase: t.base });
    await activeSubscription();
    await t.control('POST', '/paypal/deliveries/wait');
    expect(endpoint.requests).toHaveLength(3);

    expect((await t.control('POST', '/reset')).status).toBe(200);
    const after = await t.control<{ subscriptions: unknown[]; plans: unknown[]; events: number; webhooks: { id: string }[] }>('GET', '/paypal');
    expect(after.json).toMatchObject({ subscriptions: [], plans: [], events: 0, webhooks: [{ id: '0SANDBOXWEBHOOK1P' }] });
    // The product's cached access token outlives the reset, as its credentials do.
    expect((await t.call('GET', '/v1/billing/plans')).status).toBe(200);
  });
});
