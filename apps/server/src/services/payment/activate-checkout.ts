import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import { isUniqueViolation } from '../../db/database';
import type { DB, SubscriptionsTable } from '../../db/schema';
import type { PlanChangeListeners } from '../../platform/plan-changes';
import { applyPlan, inPlanTransaction } from './apply-plan';
import * as repo from './repository';

/** What a provider says of the subscription a checkout paid for. */
export interface PaidSubscription {
  provider: 'stripe' | 'paypal';
  /** The provider's id of the subscription. */
  id: string;
  /** When it was first paid, as stored. */
  firstPaidAt: string;
  /** Its columns as the provider has them now, for a new subscription. */
  fields: Omit<Insertable<SubscriptionsTable>, 'id' | 'created_at' | 'updated_at' | 'applied' | 'first_paid_at' | 'provider' | 'provider_subscription_id' | 'user_id' | 'server_id' | 'plan_type' | 'plan_interval'>;
  /** What they change of the subscription already ours (`fields` unless given). */
  changed?: (existing: repo.SubscriptionRow) => Omit<Updateable<SubscriptionsTable>, 'id' | 'created_at' | 'updated_at'>;
  /** Writes its receipts (each once), in the same transaction. */
  receipts: (trx: Transaction<DB>, stored: repo.SubscriptionRow) => Promise<void>;
}

/**
 * A paid checkout becomes our subscription for its server, with its receipts, and the server's
 * plan follows, in one transaction; done again it changes nothing. The provider's webhook and the
 * checkout's result page may both make it at the same moment: the one that loses on the
 * subscription's unique key writes again, over the row the other made.
 */
export async function activateCheckout(db: Kysely<DB>, plans: PlanChangeListeners, row: repo.CheckoutSessionRow, paid: PaidSubscription): Promise<repo.SubscriptionRow> {
  const write = () =>
    inPlanTransaction(db, plans, async (trx) => {
      const existing = await repo.findByProviderId(trx, paid.provider, paid.id, true);
      const id = existing?.id ?? randomUUID();
      if (existing) {
        await repo.updateSubscription(trx, id, paid.changed ? paid.changed(existing) : paid.fields);
      } else {
        await repo.insertSubscription(trx, {
          id,
          user_id: row.user_id,
          provider: paid.provider,
          provider_subscription_id: paid.id,
          plan_type: row.plan_type,
          plan_interval: row.plan_interval,
          server_id: row.server_id,
          applied: 0,
          first_paid_at: paid.firstPaidAt,
          ...paid.fields,
        });
      }
      await repo.updateCheckoutSession(trx, paid.provider, row.session_id, { status: 'complete', subscription_id: id });
      const stored = (await repo.findSubscription(trx, id))!;
      await paid.receipts(trx, stored);
      await applyPlan(trx, row.server_id);
      return stored;
    });
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) return write();
    throw error;
  }
}
