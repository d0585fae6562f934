import { randomUUID } from 'node:crypto';
import { PLANS, WEBHOOK_HEADERS, WEBHOOK_POLICY, WEBHOOK_TEST_EVENT, type PlanType, type WebhookAttempt } from '@ticket/contracts';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import { fromFlag, fromJson, toJson } from '../../db/database';
import type { DB } from '../../db/schema';
import { unseal } from '../../platform/crypto';
import type { PlanChange } from '../../platform/plan-changes';
import { postWebhook, webhookSignature, type AttemptResult } from '../../platform/webhook-sender';
import * as repo from './webhook-repository';

const HOUR_MS = 3600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** When the attempt after the `attempt`-th failed one is due, or null when the retry window is over. */
export function nextAttemptAt(attempt: number, at: Date, firstAttemptAt: Date): Date | null {
  const delays = WEBHOOK_POLICY.retryDelaysSeconds;
  const next = at.getTime() + delays[Math.min(attempt, delays.length) - 1]! * 1000;
  return next <= firstAttemptAt.getTime() + WEBHOOK_POLICY.retryWindowHours * HOUR_MS ? new Date(next) : null;
}

const planName = (plan: string) => plan.charAt(0).toUpperCase() + plan.slice(1);
const WEBHOOKS_PLAN = planName(Object.values(PLANS).find((p) => p.features.webhooks)?.type ?? 'enterprise');
/** Why a delivery was not sent: its server left the plan (its endpoints are kept for when it comes back). */
export const OFF_PLAN = `Not delivered: the server is no longer on the ${WEBHOOKS_PLAN} plan`;

type Send = typeof postWebhook;

/**
 * The job runner of outgoing webhooks: claims the deliveries that are due (each by one runner,
 * however many processes run this), posts each signed, and records the attempt: a 2xx answer
 * delivers it, anything else schedules the next attempt by the retry delays until the retry
 * window after the first attempt has passed, then fails it. Time comes from `clock` (tests move it).
 */
export class WebhookDeliveries {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly config: Pick<Config, 'encryptionKey' | 'webhooks'>,
    private readonly clock: () => Date = () => new Date(),
    private readonly send: Send = postWebhook,
  ) {}

  /** How long a claim holds: the attempt's own limit and time to record it. */
  private claim(at: Date): repo.Claim {
    return { token: randomUUID(), until: iso(at.getTime() + 2 * this.config.webhooks.timeoutMs + 30_000) };
  }

  /**
   * Sends what is due at `at`, a batch at a time (attempts of a batch in parallel), until nothing
   * due is left or `max` attempts were made. Answers how many deliveries it attempted.
   */
  async runDue(at: Date = this.clock(), batch = 10, max = 200): Promise<number> {
    let done = 0;
    while (done < max) {
      const claim = this.claim(at);
      const claimed = await repo.claimDue(this.db, at.toISOString(), claim, Math.min(batch, max - done));
      await Promise.all(claimed.map((row) => this.attempt(row, claim.token, at)));
      done += claimed.length;
      if (claimed.length < batch) break;
    }
    return done;
  }

  /** Attempts one delivery now, unless it is not pending or another runner holds it. */
  async deliverNow(deliveryId: string, at: Date = this.clock()): Promise<void> {
    const claim = this.claim(at);
    const row = await repo.claimOne(this.db, deliveryId, at.toISOString(), claim);
    if (row) await this.attempt(row, claim.token, at);
  }

  /**
   * Listens to plan changes (app.ts): what waits for the endpoints of a server whose plan no longer
   * has webhooks is not sent, and says why (new events are not queued for them: the outbox reads the
   * plan). Endpoints stay, so that they work again once the server is back on the plan.
   */
  async plansChanged(changes: PlanChange[]): Promise<void> {
    await repo.failPendingOffPlan(
      this.db,
      changes.map((c) => c.serverId),
      OFF_PLAN,
      this.clock().toISOString(),
    );
  }

  /** Removes deliveries older than the retention period (waiting ones stay). */
  async prune(at: Date = this.clock()): Promise<number> {
    return repo.pruneDeliveries(this.db, iso(at.getTime() - WEBHOOK_POLICY.retentionDays * 24 * HOUR_MS));
  }

  private async attempt(row: repo.DeliveryRow, token: string, at: Date): Promise<void> {
    const when = at.toISOString();
    const endpoint = await repo.endpointOfDelivery(this.db, row.endpoint_id);
    const refused = !endpoint
      ? 'The endpoint was removed'
      : !fromFlag(endpoint.enabled) && row.event_type !== WEBHOOK_TEST_EVENT
        ? 'The endpoint is disabled'
        : !PLANS[(endpoint.plan ?? 'free') as PlanType]?.features.webhooks
          ? OFF_PLAN
          : null;
    if (refused || !endpoint) {
      // Not an attempt: nothing was sent.
      await repo.settleClaimed(this.db, row.id, token, { status: 'failed', last_error: refused, next_attempt_at: null, updated_at: when });
      return;
    }
    const number = row.attempts + 1;
    const timestamp = Math.floor(at.getTime() / 1000);
    let result: AttemptResult;
    try {
      const headers = {
        [WEBHOOK_HEADERS.id]: row.event_id,
        [WEBHOOK_HEADERS.event]: row.event_type,
        [WEBHOOK_HEADERS.attempt]: String(number),
        [WEBHOOK_HEADERS.timestamp]: String(timestamp),
        [WEBHOOK_HEADERS.signature]: webhookSignature(unseal(endpoint.secret, this.config.encryptionKey), timestamp, row.payload),
      };
      result = await this.send(endpoint.url, row.payload, headers, this.config.webhooks);
    } catch {
      // The secret could not be unsealed (the encryption key changed): nothing can be signed.
      result = { statusCode: null, error: 'The delivery could not be signed', durationMs: 0 };
    }
    const delivered = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const first = row.first_attempt_at ?? when;
    const next = delivered ? null : nextAttemptAt(number, at, new Date(first));
    const attempt: WebhookAttempt = { attemptedAt: when, statusCode: result.statusCode, error: result.error, durationMs: result.durationMs };
    await repo.settleClaimed(this.db, row.id, token, {
      status: delivered ? 'delivered' : next ? 'pending' : 'failed',
      attempts: number,
      history: toJson([...fromJson<WebhookAttempt[]>(row.history), attempt]),
      first_attempt_at: first,
      last_attempt_at: when,
      last_status_code: result.statusCode,
      last_error: result.error,
      next_attempt_at: next ? next.toISOString() : null,
      delivered_at: delivered ? when : null,
      updated_at: when,
    });
  }
}
