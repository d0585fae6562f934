import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { now, type Database } from '../../db/database';
import { engines, freshDatabase } from '../../test/harness';
import { applyPlan } from './apply-plan';
import { carbonRemovalCents, priceCents } from './prices';
import * as repo from './repository';

const SERVER = '1300000000000000001';

describe.each(engines)('plans from subscriptions on %s', (engine) => {
  let database: Database;
  beforeEach(async () => {
    database = await freshDatabase(engine);
    const at = now();
    await database.db.insertInto('servers').values({ id: SERVER, name: 'Pixel Forge', icon: null, owner_id: null, active: 1, plan: 'free', created_at: at, updated_at: at }).execute();
    for (let i = 0; i < 30; i++) {
      await database.db
        .insertInto('subjects')
        .values({ id: `s${String(i).padStart(2, '0')}`, server_id: SERVER, name: `Subject ${i}`, name_key: `subject ${i}`, deleted: 0, active: 1, position: i, inherits_from: null, settings: '{}', created_at: at, updated_at: at })
        .execute();
    }
  });
  afterEach(async () => {
    await database.destroy();
  });

  const subscribe = async (fields: { state?: string; plan?: string; server?: string | null } = {}) => {
    const id = randomUUID();
    await repo.insertSubscription(database.db, {
      id,
      user_id: '1200000000000000001',
      provider: 'stripe',
      provider_subscription_id: `sub_${id}`,
      state: fields.state ?? 'active',
      plan_type: fields.plan ?? 'premium',
      plan_interval: 'monthly',
      server_id: fields.server === undefined ? SERVER : fields.server,
      applied: 0,
      cancel_at_period_end: 0,
    });
    return id;
  };
  const apply = () => database.db.transaction().execute((trx) => applyPlan(trx, SERVER));
  const plan = async () => (await database.db.selectFrom('servers').select('plan').where('id', '=', SERVER).executeTakeFirstOrThrow()).plan;
  const active = async () =>
    (await database.db.selectFrom('subjects').select(['id', 'active']).where('server_id', '=', SERVER).orderBy('position').execute()).filter((s) => s.active === 1).map((s) => s.id);

  it('gives the server the plan of its best active subscription, and marks which one is applied', async () => {
    const premium = await subscribe({ plan: 'premium' });
    const enterprise = await subscribe({ plan: 'enterprise' });
    await subscribe({ plan: 'enterprise', state: 'paused' });
    expect(await apply()).toBe('enterprise');
    expect(await plan()).toBe('enterprise');
    const applied = (await repo.listByServer(database.db, SERVER)).filter((s) => s.applied === 1).map((s) => s.id);
    expect(applied).toEqual([enterprise]);
    await repo.updateSubscription(database.db, enterprise, { state: 'canceled' });
    expect(await apply()).toBe('premium');
    expect((await repo.listApplied(database.db, [SERVER])).map((s) => s.id)).toEqual([premium]);
  });

  it('makes the subjects beyond a smaller plan inactive in their order, and brings them back when paid again, deleting nothing', async () => {
    const id = await subscribe({ plan: 'premium' });
    await apply();
    expect(await active()).toHaveLength(25);
    // One subject switched off by hand stays off: it was not the plan that did it.
    await database.db.updateTable('subjects').set({ active: 0 }).where('id', '=', 's01').execute();

    await repo.updateSubscription(database.db, id, { state: 'canceled' });
    expect(await apply()).toBe('free');
    expect(await active()).toEqual(['s00', 's02']);
    const marked = await database.db.selectFrom('subjects').select('id').where('plan_inactive', '=', 1).orderBy('position').execute();
    expect(marked.map((s) => s.id)).toEqual(Array.from({ length: 27 }, (_, i) => `s${String(i + 3).padStart(2, '0')}`));
    const count = await database.db.selectFrom('subjects').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(30);

    await subscribe({ plan: 'premium' });
    expect(await apply()).toBe('premium');
    expect(await active()).toEqual([...Array.from({ length: 25 }, (_, i) => `s${String(i).padStart(2, '0')}`)].filter((s) => s !== 's01'));
    await subscribe({ plan: 'enterprise' });
    await apply();
    expect(await active()).toHaveLength(29);
  });

  it('keeps one receipt per provider payment and kind, numbered in order, with the carbon-removal share', async () => {
    const sub = await subscribe();
    const receipt = (payment: string, kind: 'payment' | 'refund', amount: number) =>
      repo.insertReceipt(database.db, {
        subscription_id: sub,
        user_id: '1200000000000000001',
        server_id: SERVER,
        kind,
        plan_type: 'premium',
        plan_interval: 'monthly',
        period_start: null,
        period_end: null,
        amount_cents: amount,
        currency: 'USD',
        provider: 'stripe',
        provider_payment_id: payment,
        provider_charge_id: null,
        carbon_removal_cents: carbonRemovalCents(amount),
      });
    expect(await receipt('in_1', 'payment', 225)).toBe(true);
    expect(await receipt('in_1', 'payment', 225)).toBe(false);
    expect(await receipt('in_1', 'refund', 225)).toBe(true);
    const rows = await repo.listReceipts(database.db, { subscriptionId: sub });
    expect(rows.map((r) => [r.kind, r.amount_cents, r.carbon_removal_cents])).toEqual([
      ['payment', 225, 5],
      ['refund', 225, 5],
    ]);
    expect(rows[1]!.number).toBeGreaterThan(rows[0]!.number);
  });

  it('applies each provider event once', async () => {
    expect(await repo.recordEvent(database.db, 'stripe', 'evt_1', 'invoice.paid')).toBe(true);
    expect(await repo.recordEvent(database.db, 'stripe', 'evt_1', 'invoice.paid')).toBe(false);
    expect(await repo.recordEvent(database.db, 'paypal', 'evt_1', 'PAYMENT.SALE.COMPLETED')).toBe(true);
  });
});

describe('price table', () => {
  it('prices from PLANS with the default savings, annual the cheapest per month', () => {
    const { payment } = loadConfig({ WEB_DIR: '' }, { encryptionKey: Buffer.alloc(32) });
    expect(priceCents(payment, 'premium', 'monthly')).toBe(225);
    expect(priceCents(payment, 'enterprise', 'monthly')).toBe(600);
    expect(priceCents(payment, 'premium', 'quarterly')).toBe(641); // 3 × 225 less 5 %
    expect(priceCents(payment, 'premium', 'biannually')).toBe(1215); // 6 × 225 less 10 %
    expect(priceCents(payment, 'premium', 'annually')).toBe(2160); // 12 × 225 less 20 %
    const perMonth = (['monthly', 'quarterly', 'biannually', 'annually'] as const).map((i, n) => priceCents(payment, 'enterprise', i) / [1, 3, 6, 12][n]!);
    expect([...perMonth].sort((a, b) => b - a)).toEqual(perMonth);
  });

  it('takes prices and savings from the environment, and refuses savings that shrink with a longer period', () => {
    const env = { WEB_DIR: '', PRICE_PREMIUM_MONTHLY_CENTS: '300', DISCOUNT_ANNUALLY_PERCENT: '25' };
    const { payment } = loadConfig(env, { encryptionKey: Buffer.alloc(32) });
    expect(priceCents(payment, 'premium', 'annually')).toBe(2700);
    expect(() => loadConfig({ WEB_DIR: '', DISCOUNT_ANNUALLY_PERCENT: '3' }, { encryptionKey: Buffer.alloc(32) })).toThrow(/annually discount/);
  });
});
