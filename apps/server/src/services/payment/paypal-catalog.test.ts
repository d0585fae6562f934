import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { ChangePlanResponse, SessionResponse, StatusResponse, Subscription } from '@ticket/contracts';
import { buildApp, type BuiltApp } from '../../app';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { bearer, engines, freshDatabase, signIn, startTestSandbox, testConfig, type Sandbox } from '../../test/harness';
import { GUILDS, USERS } from '../../test/demo-world';
import { PaypalClient } from '../../platform/paypal';
import { PlanChangeListeners } from '../../platform/plan-changes';
import { decidePaypal } from '../../test/payment-providers';
import { PaypalPayments } from './paypal-payments';

const A = GUILDS.pixelForge;

interface PaypalState {
  products: { id: string; name: string }[];
  plans: { id: string; product_id: string; status: string; billing_cycles: { pricing_scheme: { fixed_price: { value: string } } }[] }[];
  subscriptions: { id: string; plan_id: string }[];
}

/**
 * The PayPal catalog products and billing plans the product makes are made once per installation:
 * recorded in the database, they outlive a process and are shared by every process over it.
 */
describe.each(engines)('PayPal catalog products and plans on %s', (engine) => {
  /** The PayPal account: a sandbox of the test's own, so what it holds was made by the test. */
  let sandbox: Sandbox;
  let database: Database;
  let base: Config;
  let encryptionKey: Buffer;
  const running: BuiltApp[] = [];
  const sandboxes: Sandbox[] = [];

  const newSandbox = async () => {
    sandbox = await startTestSandbox();
    sandboxes.push(sandbox);
    // One installation: the same database and secrets for every process (or start) of it.
    base = testConfig(sandbox, { encryptionKey });
  };
  beforeEach(async () => {
    encryptionKey = randomBytes(32);
    await newSandbox();
    database = await freshDatabase(engine);
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((built) => built.close()));
    await Promise.all(sandboxes.splice(0).map((s) => s.close()));
    await database.destroy();
  });
  const paypalState = async () => (await (await fetch(`${sandbox.url}/_sandbox/paypal`)).json()) as PaypalState;

  /** A process of the API over the installation's database; `premiumMonthlyCents` is PRICE_PREMIUM_MONTHLY_CENTS. */
  async function start(premiumMonthlyCents?: number) {
    const config = premiumMonthlyCents === undefined ? base : { ...base, payment: { ...base.payment, monthlyCents: { ...base.payment.monthlyCents, premium: premiumMonthlyCents } } };
    const built = await buildApp(config, { database });
    running.push(built);
    const token = (await signIn({ sandbox, built }, USERS.alice)).token;
    const as = (method: InjectOptions['method'], url: string, payload?: unknown) =>
      built.app.inject({ method, url: `/api/payment${url}`, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
    const checkout = async (type = 'premium', interval = 'monthly') => {
      const created = await as('POST', `/servers/${A}/subscription?provider=paypal`, { provider: 'paypal', type, interval });
      expect(created.statusCode, created.body).toBe(201);
      return created.json<SessionResponse>().session;
    };
    return { built, as, checkout };
  }
  const stop = async (built: BuiltApp) => {
    running.splice(running.indexOf(built), 1);
    await built.close();
  };
  const catalogRows = () => database.db.selectFrom('provider_catalog').selectAll().orderBy('kind').orderBy('key').execute();
  const planOf = async (subscriptionId: string) => (await paypalState()).subscriptions.find((s) => s.id === subscriptionId)!.plan_id;

  it('makes one product and one plan for two checkouts of the same plan and period across a restart; another price makes a new plan', async () => {
    const first = await start();
    const one = await first.checkout();
    await stop(first.built);

    const second = await start();
    const two = await second.checkout();
    let state = await paypalState();
    expect(state.products).toHaveLength(1);
    expect(state.plans).toHaveLength(1);
    expect(await planOf(two.id)).toBe(await planOf(one.id));
    const [product] = state.products;
    const [plan] = state.plans;
    expect(plan).toMatchObject({ product_id: product!.id, status: 'ACTIVE' });
    expect(plan!.billing_cycles[0]!.pricing_scheme.fixed_price.value).toBe('2.25');
    expect((await catalogRows()).map((r) => [r.provider, r.kind, r.key, r.provider_id])).toEqual([
      ['paypal', 'plan', `premium:monthly:225:USD:${product!.id}`, plan!.id],
      ['paypal', 'product', 'premium', product!.id],
    ]);
    // Within a process too, the plan is reused.
    await second.checkout();
    expect((await paypalState()).plans).toHaveLength(1);
    await stop(second.built);

    // PRICE_PREMIUM_MONTHLY_CENTS changed: a new plan at the new price, in the same product.
    const third = await start(300);
    const three = await third.checkout();
    state = await paypalState();
    expect(state.products).toHaveLength(1);
    expect(state.plans).toHaveLength(2);
    const repriced = state.plans.find((p) => p.id === state.subscriptions.find((s) => s.id === three.id)!.plan_id)!;
    expect(repriced.id).not.toBe(plan!.id);
    expect(repriced).toMatchObject({ product_id: product!.id });
    expect(repriced.billing_cycles[0]!.pricing_scheme.fixed_price.value).toBe('3.00');

    // Another plan type has its own product; another period its own plan.
    await third.checkout('enterprise', 'monthly');
    await third.checkout('premium', 'annually');
    state = await paypalState();
    expect(state.products.map((p) => p.name).sort()).toEqual(['Enterprise', 'Premium']);
    expect(state.plans).toHaveLength(4);
    expect(await catalogRows()).toHaveLength(6);
  });

  it('shares one product and plan between two processes that check out at the same time', async () => {
    const [first, second] = await Promise.all([start(), start()]);
    const sessions = await Promise.all([first!.checkout(), second!.checkout(), first!.checkout(), second!.checkout()]);
    const rows = await catalogRows();
    expect(rows.map((r) => [r.kind, r.key.split(':').slice(0, 4).join(':')])).toEqual([
      ['plan', 'premium:monthly:225:USD'],
      ['product', 'premium'],
    ]);
    // Whichever process recorded first won; every checkout uses the recorded plan (a loser's plan, if any, stays unused).
    for (const session of sessions) expect(await planOf(session.id)).toBe(rows[0]!.provider_id);
    const state = await paypalState();
    expect(state.plans.find((p) => p.id === rows[0]!.provider_id)).toMatchObject({ product_id: rows[1]!.provider_id });

    // After a restart, neither a product nor a plan is made again.
    const counts = { products: state.products.length, plans: state.plans.length };
    await Promise.all([stop(first!.built), stop(second!.built)]);
    const third = await start();
    expect(await planOf((await third.checkout()).id)).toBe(rows[0]!.provider_id);
    const after = await paypalState();
    expect({ products: after.products.length, plans: after.plans.length }).toEqual(counts);
  });

  /** A process whose PayPal client runs `meanwhile` once, right after PayPal made the first object it asked for at `path`. */
  function racing(path: string, meanwhile: () => Promise<unknown>) {
    let raced = false;
    class Racing extends PaypalClient {
      override async request<T>(method: 'GET' | 'POST', at: string, body?: unknown): Promise<T> {
        const answer = await super.request<T>(method, at, body);
        if (method === 'POST' && at === path && !raced) {
          raced = true;
          await meanwhile();
        }
        return answer;
      }
    }
    return new PaypalPayments(database.db, base, new Racing(base.payment.paypal), new PlanChangeListeners());
  }

  it('lets the process that records first win a race: the other uses its product and plan, and what it made stays unused', async () => {
    const winner = new PaypalPayments(database.db, base, new PaypalClient(base.payment.paypal), new PlanChangeListeners());
    let won = '';
    // The loser has made a product when the winner makes and records its product and plan.
    const loser = racing('/v1/catalogs/products', async () => (won = await winner.planId('premium', 'monthly')));
    expect(await loser.planId('premium', 'monthly')).toBe(won);
    let state = await paypalState();
    expect(state.products).toHaveLength(2);
    expect(state.plans).toHaveLength(1);
    const rows = await catalogRows();
    expect(rows.map((r) => [r.kind, r.provider_id])).toEqual([
      ['plan', won],
      ['product', state.plans[0]!.product_id],
    ]);

    // The loser has made a plan when the winner makes and records the same one.
    const loserOfPlan = racing('/v1/billing/plans', async () => (won = await winner.planId('premium', 'annually')));
    expect(await loserOfPlan.planId('premium', 'annually')).toBe(won);
    state = await paypalState();
    expect(state.plans).toHaveLength(3);
    expect((await catalogRows()).filter((r) => r.kind === 'plan').map((r) => r.provider_id)).toContain(won);
    expect(await catalogRows()).toHaveLength(3);
    // Both go on using the recorded ones.
    expect(await loserOfPlan.planId('premium', 'annually')).toBe(won);
    expect((await paypalState()).plans).toHaveLength(3);
  });

  it('replaces a recorded product and plan that PayPal no longer has (a fresh sandbox over a kept database)', async () => {
    const first = await start();
    await first.checkout();
    await stop(first.built);
    const before = await catalogRows();
    // Demo mode's restart: the sandbox starts empty while the database is kept.
    await newSandbox();

    const second = await start();
    const session = await second.checkout();
    const state = await paypalState();
    expect(state.products).toHaveLength(1);
    expect(state.plans).toHaveLength(1);
    expect(await planOf(session.id)).toBe(state.plans[0]!.id);
    const [product] = state.products;
    const [plan] = state.plans;
    const after = await catalogRows();
    expect(after.find((r) => r.kind === 'product')).toMatchObject({ key: 'premium', provider_id: product!.id });
    expect(after.find((r) => r.key === `premium:monthly:225:USD:${product!.id}`)).toMatchObject({ kind: 'plan', provider_id: plan!.id });
    // The plan recorded under the product PayPal forgot is never asked for again.
    expect(after.filter((r) => r.provider_id === before[0]!.provider_id).map((r) => r.key)).toEqual([`premium:monthly:225:USD:${before[1]!.provider_id}`]);
    expect(after.map((r) => r.provider_id)).not.toContain(before[1]!.provider_id);
  });

  it("makes a revise's plan in the subscription's own product once, across restarts", async () => {
    const first = await start();
    const session = await first.checkout();
    await decidePaypal(sandbox, session.url);
    expect((await first.as('POST', `/servers/${A}/subscription/complete?provider=paypal&token=${session.id}`)).json<StatusResponse>().status).toBe('complete');
    const sub = (await first.as('GET', '/@me/subscriptions')).json<Subscription[]>()[0]!;
    await stop(first.built);

    const second = await start();
    const upgrade = await second.as('PATCH', '/@me/change-plan', { subscriptionId: sub.id, plan: 'enterprise', interval: 'monthly' });
    expect(upgrade.statusCode, upgrade.body).toBe(200);
    const answer = upgrade.json<ChangePlanResponse>();
    expect(answer.status).toBe('confirmation_required');
    let state = await paypalState();
    const [product] = state.products;
    expect(state.products).toHaveLength(1);
    expect(state.plans).toHaveLength(2);
    // The revise stays within the subscription's product.
    expect(state.plans.every((p) => p.product_id === product!.id)).toBe(true);
    expect((await catalogRows()).map((r) => r.key)).toContain(`enterprise:monthly:600:USD:${product!.id}`);
    await stop(second.built);

    // Asked again after a restart, the same revise uses the plan made before.
    const third = await start();
    const again = await third.as('PATCH', '/@me/change-plan', { subscriptionId: sub.id, plan: 'enterprise', interval: 'monthly' });
    expect(again.statusCode, again.body).toBe(200);
    state = await paypalState();
    expect(state.products).toHaveLength(1);
    expect(state.plans).toHaveLength(2);
  });
});
