import { randomBytes } from 'node:crypto';
import { loadDemoFixtures } from '@ticket/sandbox';
import type { InjectOptions } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Receipt, Subscription } from '@ticket/contracts';
import { buildApp, type BuiltApp } from '../app';
import type { Config } from '../config';
import type { Database } from '../db/database';
import { DemoSubscriptions } from '../services/payment';
import { bearer, engines, freshDatabase, signIn, startTestSandbox, testConfig, type Sandbox } from '../test/harness';
import { GUILDS, USERS } from '../test/demo-world';
import { demoServersOf, seedDemoServers } from './seed';
import { payInSandbox, seedDemoSubscriptions } from './subscriptions';

const fixtures = loadDemoFixtures();
const servers = demoServersOf(fixtures.guilds);
const emails = new Map(fixtures.users.map((u) => [u.id, u.email]));
const QUINN = '1200000000000000115'; // owner of Study Hall in the fixtures (not one of the personas)

interface StripeState {
  subscriptions: { id: string; status: string; metadata: Record<string, string> }[];
  invoices: { id: string; status: string; amount_paid: number }[];
}
interface PaypalState {
  subscriptions: { id: string; status: string; custom_id?: string }[];
  sales: { id: string; subscriptionId: string; amount: string }[];
}

describe.each(engines)('demo subscriptions on %s', (engine) => {
  let database: Database;
  /** One start of `npm start` in demo mode: a sandbox that starts empty, the API over the database that persists. */
  let sandbox: Sandbox;
  let built: BuiltApp;
  let config: Config;
  const stopped: (() => Promise<unknown>)[] = [];

  const start = async () => {
    sandbox = await startTestSandbox();
    config = testConfig(sandbox, { demo: true, encryptionKey: randomBytes(32) });
    built = await buildApp(config, { database });
    stopped.push(() => built.close(), () => sandbox.close());
    await seedDemoServers(database.db, built.services.settings, servers);
    return seedDemoSubscriptions(built, config, servers, { sandboxUrl: sandbox.url, providers: ['stripe', 'paypal'], emailOf: (id) => emails.get(id) ?? null });
  };
  const restart = async () => {
    await Promise.all(stopped.splice(0).map((stop) => stop()));
    return start();
  };

  beforeEach(async () => {
    database = await freshDatabase(engine);
  });
  afterEach(async () => {
    await Promise.all(stopped.splice(0).map((stop) => stop()));
    await database.destroy();
  });

  const token = async (userId: string) => (await signIn({ sandbox, built }, userId)).token;
  const as = (userToken: string, method: InjectOptions['method'], url: string, payload?: unknown) =>
    built.app.inject({ method, url: `/api/payment${url}`, headers: bearer(userToken), ...(payload === undefined ? {} : { payload: payload as object }) });
  const ofServer = async (userToken: string, serverId: string, multiple = false) =>
    (await as(userToken, 'GET', `/servers/${serverId}/subscription${multiple ? '?multiple=true' : ''}`)).json<Subscription[]>();
  const stripeState = async () => (await (await fetch(`${sandbox.url}/_sandbox/stripe/state`)).json()) as StripeState;
  const paypalState = async () => (await (await fetch(`${sandbox.url}/_sandbox/paypal`)).json()) as PaypalState;
  const rows = () => database.db.selectFrom('subscriptions').selectAll().orderBy('created_at').execute();
  const planOf = async (serverId: string) => (await database.db.selectFrom('servers').select('plan').where('id', '=', serverId).executeTakeFirstOrThrow()).plan;

  it('buys Premium by card for Night Owls and Enterprise by PayPal for Study Hall, as their owners, with receipts', async () => {
    const actions = await start();
    expect(actions.map((a) => [a.serverId, a.action])).toEqual([
      [GUILDS.nightOwls, 'bought'],
      [GUILDS.studyHall, 'bought'],
    ]);

    const bruno = await token(USERS.bruno); // owner of Night Owls
    const [nightOwls, ...more] = await ofServer(bruno, GUILDS.nightOwls, true);
    expect(more).toEqual([]);
    expect(nightOwls).toMatchObject({ userId: USERS.bruno, provider: 'stripe', planType: 'premium', planInterval: 'monthly', state: 'active', applied: true, cancelAtPeriodEnd: false });
    const receipts = (await as(bruno, 'GET', '/@me/receipts')).json<Receipt[]>();
    expect(receipts.map((r) => [r.kind, r.provider, r.planType, r.amountCents, r.subscriptionId])).toEqual([['payment', 'stripe', 'premium', 225, nightOwls!.id]]);

    const chen = await token(USERS.chen); // admin of Study Hall, which Quinn owns
    expect(await ofServer(chen, GUILDS.studyHall, true)).toEqual([
      expect.objectContaining({ userId: QUINN, provider: 'paypal', planType: 'enterprise', state: 'active', applied: true }),
    ]);
    expect(await ofServer(await token(USERS.alice), GUILDS.pixelForge, true)).toEqual([]);
    expect([await planOf(GUILDS.pixelForge), await planOf(GUILDS.nightOwls), await planOf(GUILDS.studyHall)]).toEqual(['free', 'premium', 'enterprise']);
    const quinnReceipts = await database.db.selectFrom('receipts').selectAll().where('user_id', '=', QUINN).execute();
    expect(quinnReceipts.map((r) => [r.kind, r.provider, r.plan_type, r.amount_cents])).toEqual([['payment', 'paypal', 'enterprise', 600]]);

    // The providers hold them: paid by card as Bruno (his address from the fixtures), approved on PayPal.
    const [stored, studyHall] = [(await rows()).find((r) => r.provider === 'stripe')!, (await rows()).find((r) => r.provider === 'paypal')!];
    const stripe = await stripeState();
    expect(stripe.subscriptions).toEqual([expect.objectContaining({ id: stored.provider_subscription_id, status: 'active', metadata: expect.objectContaining({ serverId: GUILDS.nightOwls, userId: USERS.bruno, planType: 'premium' }) })]);
    expect(stripe.invoices.map((i) => [i.status, i.amount_paid])).toEqual([['paid', 225]]);
    const paypal = await paypalState();
    expect(paypal.subscriptions).toEqual([expect.objectContaining({ id: studyHall.provider_subscription_id, status: 'ACTIVE', custom_id: GUILDS.studyHall })]);
    expect(paypal.sales.map((s) => [s.subscriptionId, s.amount])).toEqual([[studyHall.provider_subscription_id, '6.00']]);

    // Run again against the same sandbox: nothing new anywhere.
    const again = await seedDemoSubscriptions(built, config, servers, { sandboxUrl: sandbox.url, providers: ['stripe', 'paypal'] });
    expect(again.map((a) => a.action)).toEqual(['kept', 'kept']);
    expect((await rows()).map((r) => r.id).sort()).toEqual([stored.id, studyHall.id].sort());
    expect((await stripeState()).subscriptions).toHaveLength(1);
    expect((await paypalState()).subscriptions).toHaveLength(1);
    expect(await database.db.selectFrom('receipts').select('number').execute()).toHaveLength(2);
  });

  it('after a restart with an empty sandbox, replaces the stale subscriptions once, so cancelling works; a cancelled one is not bought again', async () => {
    await start();
    const before = await rows();
    // A plan change that waited for the buyer at the provider the sandbox has now forgotten.
    const at = new Date().toISOString();
    const stale = before.find((r) => r.provider === 'stripe')!;
    await database.db
      .insertInto('plan_changes')
      .values({ id: 'change-1', provider: 'stripe', token: 'in_gone', subscription_id: stale.id, server_id: stale.server_id, user_id: stale.user_id, plan_type: 'enterprise', plan_interval: 'monthly', provider_plan_id: null, status: 'open', created_at: at, updated_at: at })
      .execute();
    expect(await restart()).toEqual([
      expect.objectContaining({ serverId: GUILDS.nightOwls, action: 'replaced' }),
      expect.objectContaining({ serverId: GUILDS.studyHall, action: 'replaced' }),
    ]);
    const after = await rows();
    expect(after).toHaveLength(2);
    expect(after.map((r) => r.id).filter((id) => before.some((b) => b.id === id))).toEqual([]);
    const card = after.find((r) => r.provider === 'stripe')!;
    const paypalRow = after.find((r) => r.provider === 'paypal')!;
    expect(card).toMatchObject({ user_id: USERS.bruno, server_id: GUILDS.nightOwls, plan_type: 'premium', state: 'active', applied: 1 });
    expect(paypalRow).toMatchObject({ user_id: QUINN, server_id: GUILDS.studyHall, plan_type: 'enterprise', state: 'active', applied: 1 });
    expect((await stripeState()).subscriptions.map((s) => s.id)).toEqual([card.provider_subscription_id]);
    expect((await paypalState()).subscriptions.map((s) => s.id)).toEqual([paypalRow.provider_subscription_id]);
    // The old receipts went with the stale subscriptions: one payment each, at the providers that have it.
    const receipts = await database.db.selectFrom('receipts').selectAll().orderBy('number').execute();
    expect(receipts.map((r) => [r.subscription_id, r.kind])).toEqual(
      expect.arrayContaining([
        [card.id, 'payment'],
        [paypalRow.id, 'payment'],
      ]),
    );
    expect(receipts).toHaveLength(2);
    expect(await database.db.selectFrom('plan_changes').select('id').execute()).toEqual([]);
    expect(await database.db.selectFrom('checkout_sessions').select('subscription_id').execute()).toHaveLength(2);

    // Bruno cancels in the dashboard: the new sandbox has the subscription and its charge, so within the refund window it is refunded and ends.
    const bruno = await token(USERS.bruno);
    const [nightOwls] = await ofServer(bruno, GUILDS.nightOwls);
    expect(nightOwls!.id).toBe(card.id);
    const cancelled = await as(bruno, 'DELETE', '/@me/cancel', { subscriptionId: card.id });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json<Subscription>()).toMatchObject({ state: 'canceled' });
    expect(await planOf(GUILDS.nightOwls)).toBe('free');
    expect((await stripeState()).subscriptions[0]).toMatchObject({ status: 'canceled' });

    // Restarted again: Night Owls had its subscription and Bruno cancelled it, so it gets no second one.
    expect((await restart()).map((a) => [a.serverId, a.action])).toEqual([[GUILDS.studyHall, 'replaced']]);
    expect(await ofServer(await token(USERS.bruno), GUILDS.nightOwls, true)).toEqual([expect.objectContaining({ id: card.id, state: 'canceled' })]);
    expect(await planOf(GUILDS.nightOwls)).toBe('free');
    expect(await planOf(GUILDS.studyHall)).toBe('enterprise');
    expect((await stripeState()).subscriptions).toEqual([]);
  });

  it('keeps a moved subscription where its buyer put it, ends a stale one that was cancelled for the end of its period, and applies plans a database stored directly', async () => {
    await start();
    const bruno = await token(USERS.bruno);
    const [nightOwls] = await ofServer(bruno, GUILDS.nightOwls);
    // Bruno is an admin of Pixel Forge: he moves his Premium there.
    expect((await as(bruno, 'POST', '/@me/transfer', { subscriptionId: nightOwls!.id, serverId: GUILDS.pixelForge })).statusCode).toBe(200);
    // Study Hall's owner cancelled for the end of the period; and an older demo wrote a plan directly.
    await database.db.updateTable('subscriptions').set({ cancel_at_period_end: 1 }).where('provider', '=', 'paypal').execute();
    await database.db.updateTable('servers').set({ plan: 'enterprise' }).where('id', '=', GUILDS.nightOwls).execute();

    const actions = await restart();
    expect(actions.map((a) => [a.serverId, a.action])).toEqual([
      [GUILDS.pixelForge, 'replaced'],
      [GUILDS.studyHall, 'ended'],
    ]);
    const moved = (await rows()).find((r) => r.provider === 'stripe')!;
    expect(moved).toMatchObject({ server_id: GUILDS.pixelForge, applied: 1, state: 'active', user_id: USERS.bruno });
    expect(moved.last_transferred).not.toBeNull();
    expect([await planOf(GUILDS.pixelForge), await planOf(GUILDS.nightOwls), await planOf(GUILDS.studyHall)]).toEqual(['premium', 'free', 'free']);
    expect((await rows()).filter((r) => r.server_id === GUILDS.nightOwls)).toEqual([]);

    // Again: the moved one is known to the sandbox now, nothing is bought for Night Owls or Study Hall.
    expect((await seedDemoSubscriptions(built, config, servers, { sandboxUrl: sandbox.url, providers: ['stripe', 'paypal'] })).map((a) => a.action)).toEqual(['kept']);
  });

  it('leaves plans of providers the sandbox does not play alone, and runs in demo mode only', async () => {
    sandbox = await startTestSandbox();
    config = testConfig(sandbox, { demo: true });
    built = await buildApp(config, { database });
    stopped.push(() => built.close(), () => sandbox.close());
    await seedDemoServers(database.db, built.services.settings, servers);
    const actions = await seedDemoSubscriptions(built, config, servers, { sandboxUrl: sandbox.url, providers: ['paypal'] });
    expect(actions.map((a) => [a.serverId, a.action])).toEqual([[GUILDS.studyHall, 'bought']]);
    expect(await planOf(GUILDS.nightOwls)).toBe('free');

    const live = new DemoSubscriptions(database.db, { ...config, demo: false }, built.services.payments, payInSandbox(sandbox.url), ['stripe', 'paypal']);
    await expect(live.ensure([{ serverId: GUILDS.nightOwls, buyerId: USERS.bruno, planType: 'premium', interval: 'monthly', provider: 'stripe' }])).rejects.toThrow(/demo mode/);
    expect((await stripeState()).subscriptions).toEqual([]);
  });
});
