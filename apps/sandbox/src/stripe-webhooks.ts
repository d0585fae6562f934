import { createHmac } from 'node:crypto';
import { FORWARD_ENDPOINT, STRIPE_API_VERSION } from './stripe-store.ts';
import type { StripeStore } from './stripe-store.ts';
import type { Origin, StripeEvent } from './stripe-types.ts';

const DELIVERY_TIMEOUT_MS = 10_000;

export interface DeliveryAttempt {
  /** Wall-clock time of the attempt (signatures use real time, as receivers check them against theirs). */
  at: string;
  status: number | null;
  error: string | null;
}

export interface Delivery {
  id: number;
  eventId: string;
  type: string;
  endpointId: string;
  url: string;
  state: 'held' | 'pending' | 'retrying' | 'succeeded' | 'failed';
  attempts: DeliveryAttempt[];
}

/** Stripe's `Stripe-Signature` header: `t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<payload>")>`. */
export function signPayload(payload: string, secret: string, timestamp: number): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

/**
 * Makes events and delivers them to the webhook endpoints whose enabled_events match, signed,
 * one endpoint's deliveries in the order the events happened, failed ones retried after the
 * configured delays. Deliveries can be held, so a test can let them through in an order it picks.
 */
export class StripeWebhooks {
  deliveries: Delivery[] = [];
  held = false;
  private sequence = 0;
  private generation = 0;
  private closed = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly chains = new Map<string, Promise<void>>();
  private readonly inflight = new Set<Promise<void>>();

  constructor(private readonly store: StripeStore) {}

  emit(type: string, object: unknown, origin: Origin, previous?: Record<string, unknown>, at?: number): StripeEvent {
    const event: StripeEvent = {
      id: this.store.newId('evt'),
      object: 'event',
      api_version: STRIPE_API_VERSION,
      created: at ?? this.store.now(),
      // A snapshot: later changes to the object must not show in an event already made.
      data: previous ? { object: structuredClone(object), previous_attributes: structuredClone(previous) } : { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 0,
      request: { id: origin?.id ?? null, idempotency_key: origin?.idempotency_key ?? null },
      type,
    };
    this.store.add(event);
    for (const endpoint of this.endpointsFor(type)) this.queue(event, endpoint);
    return event;
  }

  endpointsFor(type: string): { id: string; url: string }[] {
    const out: { id: string; url: string }[] = [];
    for (const endpoint of this.store.all('webhook_endpoint').reverse()) {
      if (endpoint.status === 'enabled' && (endpoint.enabled_events.includes('*') || endpoint.enabled_events.includes(type))) {
        out.push({ id: endpoint.id, url: endpoint.url });
      }
    }
    if (this.store.config.forwardTo) out.push({ id: FORWARD_ENDPOINT, url: this.store.config.forwardTo });
    return out;
  }

  private queue(event: StripeEvent, endpoint: { id: string; url: string }): Delivery {
    this.sequence += 1;
    const delivery: Delivery = {
      id: this.sequence,
      eventId: event.id,
      type: event.type,
      endpointId: endpoint.id,
      url: endpoint.url,
      state: this.held ? 'held' : 'pending',
      attempts: [],
    };
    this.deliveries.push(delivery);
    event.pending_webhooks += 1;
    if (!this.held) void this.dispatch(delivery);
    return delivery;
  }

  /** Runs an attempt after the endpoint's earlier ones, so one endpoint hears events in order. */
  private dispatch(delivery: Delivery): Promise<void> {
    delivery.state = 'pending';
    const previous = this.chains.get(delivery.endpointId) ?? Promise.resolve();
    const run = previous.then(() => this.attempt(delivery));
    this.chains.set(delivery.endpointId, run);
    this.inflight.add(run);
    void run.finally(() => this.inflight.delete(run));
    return run;
  }

  private async attempt(delivery: Delivery): Promise<void> {
    const generation = this.generation;
    const event = this.store.get('event', delivery.eventId);
    if (!event || this.closed) return;
    const payload = JSON.stringify(event, null, 2);
    const timestamp = Math.floor(Date.now() / 1000);
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signPayload(payload, this.store.secretFor(delivery.endpointId), timestamp),
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'cache-control': 'no-cache',
          accept: '*/*; q=0.5, application/xml',
        },
        body: payload,
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      status = response.status;
      await response.arrayBuffer().catch(() => undefined);
    } catch (caught) {
      error = caught instanceof Error ? (caught.cause instanceof Error ? caught.cause.message : caught.message) : String(caught);
    }
    if (generation !== this.generation) return;
    delivery.attempts.push({ at: new Date().toISOString(), status, error });
    if (status !== null && status >= 200 && status < 300) {
      delivery.state = 'succeeded';
      event.pending_webhooks = Math.max(0, event.pending_webhooks - 1);
      return;
    }
    const delay = this.store.config.retryDelaysMs[delivery.attempts.length - 1];
    if (delay === undefined || this.closed) {
      delivery.state = 'failed';
      return;
    }
    delivery.state = 'retrying';
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (generation === this.generation && !this.closed) void this.dispatch(delivery);
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }

  /** Waits for every attempt under way (not for retries still waiting on their timer). */
  async settle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  pause(): void {
    this.held = true;
  }

  /** Lets held deliveries go, in the order they were made. */
  async resume(): Promise<void> {
    this.held = false;
    for (const delivery of this.deliveries.filter((d) => d.state === 'held')) void this.dispatch(delivery);
    await this.settle();
  }

  /**
   * Delivers these events now, one after another in the order given, waiting for each: their held
   * deliveries if they have some, otherwise a new delivery to every matching endpoint.
   */
  async deliverInOrder(eventIds: string[]): Promise<Delivery[]> {
    const done: Delivery[] = [];
    for (const id of eventIds) {
      const held = this.deliveries.filter((d) => d.eventId === id && d.state === 'held');
      const batch = held.length > 0 ? held : this.redeliver(id, { dispatch: false });
      for (const delivery of batch) {
        await this.dispatch(delivery);
        done.push(delivery);
      }
    }
    return done;
  }

  /** A fresh delivery of an event to the endpoints that take it now (the Dashboard's "Resend"). */
  redeliver(eventId: string, options: { dispatch?: boolean; endpointId?: string } = {}): Delivery[] {
    const event = this.store.get('event', eventId);
    if (!event) return [];
    const wasHeld = this.held;
    this.held = true;
    const made = this.endpointsFor(event.type)
      .filter((e) => !options.endpointId || e.id === options.endpointId)
      .map((endpoint) => this.queue(event, endpoint));
    this.held = wasHeld;
    if (options.dispatch !== false) for (const delivery of made) void this.dispatch(delivery);
    return made;
  }

  reset(): void {
    this.generation += 1;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.deliveries = [];
    this.held = false;
  }

  close(): void {
    this.closed = true;
    this.reset();
  }
}
