import { PLANS, type PlanType } from '@ticket/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { PlanChange, PlanChangeListeners } from '../../platform/plan-changes';
import * as repo from './repository';

/** Subscriptions in these states give their server the plan. */
const GIVES_PLAN = new Set(['active']);

/** The plan changes made in each transaction opened by `inPlanTransaction`, told once it commits. */
const madeIn = new WeakMap<Transaction<DB>, PlanChange[]>();

/**
 * Runs `work` in a transaction; once it committed, the servers whose plan `applyPlan` changed in it
 * are told to `listeners` (a server changed twice counts once, from its first plan to its last;
 * one that came back to its plan is left out). Every transaction that applies a plan opens with this,
 * so a feature the plan no longer gives stops at once, and never for a change that was rolled back.
 */
export async function inPlanTransaction<T>(db: Kysely<DB>, listeners: PlanChangeListeners, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  const made: PlanChange[] = [];
  const result = await db.transaction().execute((trx) => {
    madeIn.set(trx, made);
    return work(trx);
  });
  const byServer = new Map<string, PlanChange>();
  for (const change of made) byServer.set(change.serverId, { ...change, from: byServer.get(change.serverId)?.from ?? change.from });
  await listeners.changed([...byServer.values()].filter((change) => change.from !== change.to));
  return result;
}

/**
 * Makes a server's plan what its subscriptions say, in the caller's transaction: the best active
 * subscription attached to the server is the applied one (the others are not), `servers.plan` is
 * its plan (Free without one), and the subjects follow the plan's limit: those beyond it, in their
 * order, become inactive and are marked; marked ones within it come back. Nothing is deleted.
 * Every change of a subscription's state, plan or server ends with this, for each server it touched.
 */
export async function applyPlan(trx: Transaction<DB>, serverId: string): Promise<PlanType> {
  const candidates = (await repo.listByServer(trx, serverId)).filter((s) => GIVES_PLAN.has(s.state) && s.plan_type in PLANS);
  const best = candidates.sort(
    (a, b) => PLANS[b.plan_type as PlanType].level - PLANS[a.plan_type as PlanType].level || b.created_at.localeCompare(a.created_at),
  )[0];
  for (const sub of await repo.listByServer(trx, serverId)) {
    const applied = sub.id === best?.id ? 1 : 0;
    if (sub.applied !== applied) await repo.updateSubscription(trx, sub.id, { applied });
  }
  const plan: PlanType = best ? (best.plan_type as PlanType) : 'free';
  const stored = await repo.serverPlan(trx, serverId);
  const previous: PlanType = stored !== null && stored in PLANS ? (stored as PlanType) : 'free';
  await repo.setServerPlan(trx, serverId, plan);
  if (previous !== plan) madeIn.get(trx)?.push({ serverId, from: previous, to: plan });

  const limit = PLANS[plan].maxSubjects;
  const subjects = await repo.liveSubjects(trx, serverId);
  const over = subjects.slice(limit).filter((s) => s.active === 1).map((s) => s.id);
  const back = subjects.slice(0, limit).filter((s) => s.plan_inactive === 1).map((s) => s.id);
  await repo.setSubjectPlanState(trx, over, { active: 0, plan_inactive: 1 });
  await repo.setSubjectPlanState(trx, back, { active: 1, plan_inactive: 0 });
  return plan;
}
