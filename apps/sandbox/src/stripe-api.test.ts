import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseStripeForm } from './stripe-params.ts';
import { STRIPE_SECRET_KEY } from './stripe-store.ts';
import { createPlans, sdkFor, startStripeSandbox } from './stripe-test-support.ts';
import type { StripeHarness } from './stripe-test-support.ts';

let h: StripeHarness;

beforeAll(async () => {
  h = await startStripeSandbox();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.control('POST', '/_sandbox/reset');
});

describe('form encoding', () => {
  it('reads bracket notation into hashes and arrays, in index order', () => {
    const parsed = parseStripeForm('line_items[1][price]=b&line_items[0][price]=a&line_items[0][quantity]=1&metadata[serverId]=42&expand[]=x&expand[]=y&lookup_keys[0]=k');
    expect(parsed).toEqual({
      line_items: [{ price: 'a', quantity: '1' }, { price: 'b' }],
      metadata: { serverId: '42' },
      expand: ['x', 'y'],
      lookup_keys: ['k'],
    });
  });
});

describe('authentication', () => {
  it('answers 401 with Stripe’s message when the key is missing or wrong, and the SDK raises StripeAuthenticationError', async () => {
    const missing = await fetch(`${h.sandbox.url}/v1/customers`);
    expect(missing.status).toBe(401);
    const missingBody = (await missing.json()) as { error: { type: string; message: string } };
    expect(missingBody.error.type).toBe('invalid_request_error');
    expect(missingBody.error.message).toMatch(/^You did not provide an API key/);

    const wrong = sdkFor(h.sandbox.url, 'sk_test_wrong_key_0000000000001234');
    const error = await wrong.customers.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect((error as Stripe.errors.StripeError).statusCode).toBe(401);
    expect((error as Stripe.errors.StripeError).message).toMatch(/^Invalid API Key provided: sk_test_\*+1234$/);
  });

  it('accepts the secret key as Basic auth too, as curl -u sends it', async () => {
    const response = await fetch(`${h.sandbox.url}/v1/customers`, { headers: { authorization: `Basic ${Buffer.from(`${STRIPE_SECRET_KEY}:`).toString('base64')}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    expect(await response.json()).toEqual({ object: 'list', data: [], has_more: false, url: '/v1/customers' });
  });

  it('answers an unknown path with Stripe’s unrecognized URL error', async () => {
    const response = await fetch(`${h.sandbox.url}/v1/nothing-here`, { headers: { authorization: `Bearer ${STRIPE_SECRET_KEY}` } });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'Unrecognized request URL (GET: /v1/nothing-here). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.',
    );
  });
});

describe('products, prices and customers', () => {
  it('creates plans and finds prices by lookup key', async () => {
    const { premium, premiumMonthly, premiumYearly } = await createPlans(h.stripe);
    expect(premium).toMatchObject({ object: 'product', name: 'Premium', active: true, livemode: false });
    expect(premium.id).toMatch(/^prod_/);
    expect(premiumMonthly).toMatchObject({
      object: 'price',
      product: premium.id,
      unit_amount: 225,
      currency: 'usd',
      type: 'recurring',
      lookup_key: 'premium_monthly',
      recurring: { interval: 'month', interval_count: 1 },
    });
    expect(premiumMonthly.id).toMatch(/^price_/);

    const found = await h.stripe.prices.list({ lookup_keys: ['premium_annually', 'premium_monthly'], expand: ['data.product'] });
    expect(found.object).toBe('list');
    expect(found.data.map((p) => p.id).sort()).toEqual([premiumMonthly.id, premiumYearly.id].sort());
    expect((found.data[0]?.product as Stripe.Product).name).toBe('Premium');
  });

  it('refuses a lookup key already in use unless it is transferred', async () => {
    const { premium, premiumMonthly } = await createPlans(h.stripe);
    const error = await h.stripe.prices.create({ product: premium.id, unit_amount: 250, currency: 'usd', recurring: { interval: 'month' }, lookup_key: 'premium_monthly' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect((error as Stripe.errors.StripeError).param).toBe('lookup_key');

    const moved = await h.stripe.prices.create({ product: premium.id, unit_amount: 250, currency: 'usd', recurring: { interval: 'month' }, lookup_key: 'premium_monthly', transfer_lookup_key: true });
    expect(moved.lookup_key).toBe('premium_monthly');
    expect((await h.stripe.prices.retrieve(premiumMonthly.id)).lookup_key).toBeNull();
  });

  it('creates and reads customers; an unknown id answers 404 resource_missing', async () => {
    const customer = await h.stripe.customers.create({ email: 'alice@example.com', name: 'Alice', metadata: { userId: '1200000000000000001' } });
    expect(customer.id).toMatch(/^cus_/);
    expect(await h.stripe.customers.retrieve(customer.id)).toMatchObject({ object: 'customer', email: 'alice@example.com', metadata: { userId: '1200000000000000001' } });

    const error = (await h.stripe.customers.retrieve('cus_doesnotexist').catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error.statusCode).toBe(404);
    expect(error.code).toBe('resource_missing');
    expect(error.param).toBe('id');
    expect(error.message).toBe("No such customer: 'cus_doesnotexist'");
  });

  it('refuses unknown and missing parameters with their names', async () => {
    const unknown = (await h.stripe.customers.create({ emial: 'x@example.com' } as Stripe.CustomerCreateParams).catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(unknown.code).toBe('parameter_unknown');
    expect(unknown.param).toBe('emial');
    expect(unknown.message).toBe('Received unknown parameter: emial');

    const missing = (await h.stripe.prices.create({ currency: 'usd', product_data: { name: 'X' } } as Stripe.PriceCreateParams).catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(missing.code).toBe('parameter_missing');
    expect(missing.param).toBe('unit_amount');
  });

  it('pages lists newest first with starting_after', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i += 1) made.push((await h.stripe.customers.create({ email: `c${i}@example.com` })).id);
    const first = await h.stripe.customers.list({ limit: 2 });
    expect(first.data.map((c) => c.id)).toEqual([made[4], made[3]]);
    expect(first.has_more).toBe(true);
    const all: string[] = [];
    for await (const customer of h.stripe.customers.list({ limit: 2 })) all.push(customer.id);
    expect(all).toEqual([...made].reverse());
  });

  it('takes JSON bodies as well as form bodies', async () => {
    const response = await fetch(`${h.sandbox.url}/v1/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${STRIPE_SECRET_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'json@example.com', metadata: { a: 'b' } }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ object: 'customer', email: 'json@example.com', metadata: { a: 'b' } });
  });

  it('replays a POST with the same Idempotency-Key and refuses the key with other parameters', async () => {
    const first = await h.stripe.customers.create({ email: 'once@example.com' }, { idempotencyKey: 'key-1' });
    const again = await h.stripe.customers.create({ email: 'once@example.com' }, { idempotencyKey: 'key-1' });
    expect(again.id).toBe(first.id);
    expect((await h.stripe.customers.list()).data).toHaveLength(1);
    const error = (await h.stripe.customers.create({ email: 'other@example.com' }, { idempotencyKey: 'key-1' }).catch((e: unknown) => e)) as Stripe.errors.StripeError;
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });
});
