import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import { now, supportsRowLocks } from '../../db/database';
import type { CheckoutSessionsTable, DB, PlanChangesTable, ProviderCatalogTable, ReceiptsTable, SubscriptionsTable } from '../../db/schema';
import { carbonRemovalCents } from './prices';

type Db = Kysely<DB> | Transaction<DB>;

export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type CheckoutSessionRow = Selectable<CheckoutSessionsTable>;
export type ReceiptRow = Selectable<ReceiptsTable>;
export type PlanChangeRow = Selectable<PlanChangesTable>;
export type PlanChangeStatus = 'open' | 'complete' | 'failed' | 'replaced';
export type CatalogKind = ProviderCatalogTable['kind'];

// --- Subscriptions ----------------------------------------------------------------------------

export async function insertSubscription(db: Db, row: Omit<Insertable<SubscriptionsTable>, 'created_at' | 'updated_at'>): Promise<void> {
  const at = now();
  await db.insertInto('subscriptions').values({ ...row, created_at: at, updated_at: at }).execute();
}

export async function updateSubscription(db: Db, id: string, fields: Omit<Updateable<SubscriptionsTable>, 'id' | 'created_at' | 'updated_at'>): Promise<void> {
  await db.updateTable('subscriptions').set({ ...fields, updated_at: now() }).where('id', '=', id).execute();
}

export async function findSubscription(db: Db, id: string, lock = false): Promise<SubscriptionRow | undefined> {
  let query = db.selectFrom('subscriptions').selectAll().where('id', '=', id);
  if (lock && supportsRowLocks(db)) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The subscription the provider knows by that id, locked against concurrent writers (PostgreSQL). */
export async function findByProviderId(db: Db, provider: string, providerSubscriptionId: string, lock = false): Promise<SubscriptionRow | undefined> {
  let query = db.selectFrom('subscriptions').selectAll().where('provider', '=', provider).where('provider_subscription_id', '=', providerSubscriptionId);
  if (lock && supportsRowLocks(db)) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function listByUser(db: Db, userId: string): Promise<SubscriptionRow[]> {
  return db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id').execute();
}

export async function listByServer(db: Db, serverId: string): Promise<SubscriptionRow[]> {
  return db.selectFrom('subscriptions').selectAll().where('server_id', '=', serverId).orderBy('created_at', 'desc').orderBy('id').execute();
}

/** The applied subscriptions of these servers (at most one each). */
export async function listApplied(db: Db, serverIds: string[]): Promise<SubscriptionRow[]> {
  if (serverIds.length === 0) return [];
  return db.selectFrom('subscriptions').selectAll().where('server_id', 'in', serverIds).where('applied', '=', 1).orderBy('server_id').execute();
}

/** The subscriptions bought through a checkout on the server, wherever they are now. */
export async function listBoughtOnServer(db: Db, serverId: string): Promise<SubscriptionRow[]> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('id', 'in', db.selectFrom('checkout_sessions').select('subscription_id').where('server_id', '=', serverId).where('subscription_id', 'is not', null).$narrowType<{ subscription_id: string }>())
    .execute();
}

/** PayPal subscriptions cancelled for the end of a period that ended by `at`, still active. */
export async function listLapsedPaypal(db: Db, at: string): Promise<SubscriptionRow[]> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('provider', '=', 'paypal')
    .where('state', '=', 'active')
    .where('cancel_at_period_end', '=', 1)
    .where('current_period_end', '<=', at)
    .execute();
}

/**
 * Ends a PayPal subscription whose cancelled period is over, if it still is one: false when another
 * process ended it first (its update waits for the other's commit on PostgreSQL, then finds the
 * row changed), so each ends once.
 */
export async function endLapsedPaypal(db: Db, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('subscriptions')
    .set({ state: 'canceled', updated_at: now() })
    .where('id', '=', id)
    .where('provider', '=', 'paypal')
    .where('state', '=', 'active')
    .where('cancel_at_period_end', '=', 1)
    .where('current_period_end', '<=', at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The subscription goes with its receipts, checkout sessions and plan changes. */
export async function deleteSubscriptionAndHistory(db: Db, subscriptionId: string): Promise<void> {
  await db.deleteFrom('receipts').where('subscription_id', '=', subscriptionId).execute();
  await db.deleteFrom('checkout_sessions').where('subscription_id', '=', subscriptionId).execute();
  await db.deleteFrom('plan_changes').where('subscription_id', '=', subscriptionId).execute();
  await db.deleteFrom('subscriptions').where('id', '=', subscriptionId).execute();
}

// --- Checkout sessions ------------------------------------------------------------------------

export async function insertCheckoutSession(db: Db, row: Omit<CheckoutSessionRow, 'created_at' | 'updated_at' | 'subscription_id'>): Promise<void> {
  const at = now();
  await db.insertInto('checkout_sessions').values({ ...row, subscription_id: null, created_at: at, updated_at: at }).execute();
}

export async function findCheckoutSession(db: Db, provider: string, sessionId: string, lock = false): Promise<CheckoutSessionRow | undefined> {
  let query = db.selectFrom('checkout_sessions').selectAll().where('provider', '=', provider).where('session_id', '=', sessionId);
  if (lock && supportsRowLocks(db)) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The server of the subscription's first checkout. */
export async function firstCheckoutServer(db: Db, subscriptionId: string): Promise<string | undefined> {
  return (await db.selectFrom('checkout_sessions').select('server_id').where('subscription_id', '=', subscriptionId).orderBy('created_at').executeTakeFirst())?.server_id;
}

export async function updateCheckoutSession(db: Db, provider: string, sessionId: string, fields: { status: string; subscription_id?: string | null }): Promise<void> {
  await db
    .updateTable('checkout_sessions')
    .set({ ...fields, updated_at: now() })
    .where('provider', '=', provider)
    .where('session_id', '=', sessionId)
    .execute();
}

// --- Plan changes waiting for the buyer -------------------------------------------------------

export async function insertPlanChange(db: Db, row: Omit<PlanChangeRow, 'created_at' | 'updated_at'>): Promise<void> {
  const at = now();
  await db.insertInto('plan_changes').values({ ...row, created_at: at, updated_at: at }).execute();
}

/** The newest change the provider knows by that token (a PayPal subscription may be revised more than once). */
export async function findPlanChange(db: Db, provider: string, token: string): Promise<PlanChangeRow | undefined> {
  return db
    .selectFrom('plan_changes')
    .selectAll()
    .where('provider', '=', provider)
    .where('token', '=', token)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export async function findPlanChangeById(db: Db, id: string, lock = false): Promise<PlanChangeRow | undefined> {
  let query = db.selectFrom('plan_changes').selectAll().where('id', '=', id);
  if (lock && supportsRowLocks(db)) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The subscription's changes still waiting for the provider, newest first. */
export async function openPlanChanges(db: Db, subscriptionId: string): Promise<PlanChangeRow[]> {
  return db
    .selectFrom('plan_changes')
    .selectAll()
    .where('subscription_id', '=', subscriptionId)
    .where('status', '=', 'open')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function setPlanChangeStatus(db: Db, id: string, status: PlanChangeStatus): Promise<void> {
  await db.updateTable('plan_changes').set({ status, updated_at: now() }).where('id', '=', id).execute();
}

/** Marks the open change of a provider's token (a Stripe invoice) complete, if there is one. */
export async function completePlanChangeOf(db: Db, provider: string, token: string): Promise<void> {
  await db.updateTable('plan_changes').set({ status: 'complete', updated_at: now() }).where('provider', '=', provider).where('token', '=', token).where('status', '=', 'open').execute();
}

/** A new change of the subscription supersedes those still waiting. */
export async function replaceOpenPlanChanges(db: Db, subscriptionId: string): Promise<void> {
  await db.updateTable('plan_changes').set({ status: 'replaced', updated_at: now() }).where('subscription_id', '=', subscriptionId).where('status', '=', 'open').execute();
}

// --- Objects made once at a provider (PayPal products and plans) -----------------------------

/** The provider's id of the object we know by that key, if one was recorded. */
export async function findCatalogEntry(db: Db, provider: string, kind: CatalogKind, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('provider_catalog').select('provider_id').where('provider', '=', provider).where('kind', '=', kind).where('key', '=', key).executeTakeFirst();
  return row?.provider_id;
}

/** Records the object unless one is recorded for the key already; false then (read that one). */
export async function insertCatalogEntry(db: Db, provider: string, kind: CatalogKind, key: string, providerId: string): Promise<boolean> {
  const result = await db
    .insertInto('provider_catalog')
    .values({ provider, kind, key, provider_id: providerId, created_at: now() })
    .onConflict((oc) => oc.columns(['provider', 'kind', 'key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Puts `providerId` in place of `staleId` (an object the provider no longer has); false when the
 * key no longer names `staleId`, i.e. another process replaced it first (read that one).
 */
export async function replaceCatalogEntry(db: Db, provider: string, kind: CatalogKind, key: string, staleId: string, providerId: string): Promise<boolean> {
  const result = await db
    .updateTable('provider_catalog')
    .set({ provider_id: providerId, created_at: now() })
    .where('provider', '=', provider)
    .where('kind', '=', kind)
    .where('key', '=', key)
    .where('provider_id', '=', staleId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

// --- Provider events --------------------------------------------------------------------------

/** Whether the provider's event was recorded (applied) before. */
export async function isEventRecorded(db: Db, provider: string, eventId: string): Promise<boolean> {
  const row = await db.selectFrom('payment_events').select('event_id').where('provider', '=', provider).where('event_id', '=', eventId).executeTakeFirst();
  return row !== undefined;
}

/** Records the event; false when it was recorded before (it is applied once). */
export async function recordEvent(db: Db, provider: string, eventId: string, type: string): Promise<boolean> {
  const result = await db
    .insertInto('payment_events')
    .values({ provider, event_id: eventId, type, received_at: now() })
    .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

// --- Receipts ---------------------------------------------------------------------------------

/** Adds the receipt unless the provider's payment (or refund) already has one; true when added. */
/** A refund of one of the subscription's payments, as the provider made it. */
export interface RefundMade {
  /** The provider's refund id. */
  id: string;
  amountCents: number;
  currency: string;
  /** The receipt of the payment it gives back. */
  payment: ReceiptRow;
}

/** A refund receipt for each refund, with the plan and period of the payment it gives back. */
export async function insertRefundReceipts(db: Db, subscription: { id: string; user_id: string }, provider: 'stripe' | 'paypal', refunds: RefundMade[]): Promise<void> {
  for (const refund of refunds) {
    await insertReceipt(db, {
      subscription_id: subscription.id,
      user_id: subscription.user_id,
      server_id: refund.payment.server_id,
      kind: 'refund',
      plan_type: refund.payment.plan_type,
      plan_interval: refund.payment.plan_interval,
      period_start: refund.payment.period_start,
      period_end: refund.payment.period_end,
      amount_cents: refund.amountCents,
      currency: refund.currency.toUpperCase(),
      provider,
      provider_payment_id: refund.id,
      provider_charge_id: refund.payment.provider_charge_id,
      carbon_removal_cents: carbonRemovalCents(refund.amountCents),
    });
  }
}

export async function insertReceipt(db: Db, row: Omit<Insertable<ReceiptsTable>, 'number' | 'created_at'>): Promise<boolean> {
  const result = await db
    .insertInto('receipts')
    .values({ ...row, created_at: now() })
    .onConflict((oc) => oc.columns(['provider', 'kind', 'provider_payment_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function listReceipts(db: Db, filter: { userId?: string; subscriptionId?: string }): Promise<ReceiptRow[]> {
  let query = db.selectFrom('receipts').selectAll();
  if (filter.userId) query = query.where('user_id', '=', filter.userId);
  if (filter.subscriptionId) query = query.where('subscription_id', '=', filter.subscriptionId);
  return query.orderBy('number').execute();
}

/** The payments of a subscription that no refund receipt covers yet: what cancelling within the refund window gives back. */
export async function unrefundedPayments(db: Db, subscriptionId: string): Promise<ReceiptRow[]> {
  const receipts = await listReceipts(db, { subscriptionId });
  const refunded = new Set(receipts.filter((r) => r.kind === 'refund').map((r) => r.provider_charge_id));
  return receipts.filter((r) => r.kind === 'payment' && r.provider_charge_id && !refunded.has(r.provider_charge_id));
}

// --- Servers, their buyers and their subjects ------------------------------------------------

/** Whether the bot is in the server. */
export async function isServerActive(db: Db, serverId: string): Promise<boolean> {
  const row = await db.selectFrom('servers').select('active').where('id', '=', serverId).executeTakeFirst();
  return row?.active === 1;
}

export async function findUserNames(db: Db, userId: string): Promise<{ username: string; global_name: string | null } | undefined> {
  return db.selectFrom('users').select(['username', 'global_name']).where('id', '=', userId).executeTakeFirst();
}

export async function serverNames(db: Db, ids: string[]): Promise<Map<string, { name: string; icon: string | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('servers').select(['id', 'name', 'icon']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, { name: r.name, icon: r.icon }]));
}

/** The plan the server is on now; null when the dashboard does not know the server. */
export async function serverPlan(db: Db, serverId: string): Promise<string | null> {
  return (await db.selectFrom('servers').select('plan').where('id', '=', serverId).executeTakeFirst())?.plan ?? null;
}

export async function setServerPlan(db: Db, serverId: string, plan: string): Promise<void> {
  await db.updateTable('servers').set({ plan, updated_at: now() }).where('id', '=', serverId).where('plan', '!=', plan).execute();
}

/** The server's subjects that are not deleted, in their order. */
export async function liveSubjects(db: Db, serverId: string) {
  return db
    .selectFrom('subjects')
    .select(['id', 'active', 'plan_inactive'])
    .where('server_id', '=', serverId)
    .where('deleted', '=', 0)
    .orderBy('position')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function setSubjectPlanState(db: Db, ids: string[], state: { active: number; plan_inactive: number }): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('subjects').set({ ...state, updated_at: now() }).where('id', 'in', ids).execute();
}

/** The payment receipt of the charge the provider took it by. */
export async function findPaymentByCharge(db: Db, provider: string, chargeId: string): Promise<ReceiptRow | undefined> {
  return db
    .selectFrom('receipts')
    .selectAll()
    .where('provider', '=', provider)
    .where('kind', '=', 'payment')
    .where('provider_charge_id', '=', chargeId)
    .executeTakeFirst();
}
