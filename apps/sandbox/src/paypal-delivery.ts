import { randomUUID } from 'node:crypto';
import type { Delivery, PaypalStore, StoredEvent, Webhook } from './paypal-store.ts';
import { newId, paypalTime } from './paypal-store.ts';
import { AUTH_ALGO, CERT_ID, signTransmission } from './paypal-signing.ts';

export function certUrl(store: PaypalStore): string {
  return `${store.apiBase()}/v1/notifications/certs/${CERT_ID}`;
}

export function webhookWants(webhook: Webhook, eventType: string): boolean {
  return webhook.event_types.some((type) => type.name === '*' || type.name === eventType);
}

/**
 * Sends events to the registered webhooks one at a time, in the order they happened, with
 * PayPal's transmission headers; a delivery answered non-2xx (or not at all) is retried after
 * each of `retryDelaysMs`, then given up. Paused, new deliveries wait in QUEUED until resumed
 * or delivered explicitly, so tests can hold events back and release them in any order.
 */
export class PaypalDelivery {
  paused = false;
  private chain: Promise<void> = Promise.resolve();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<AbortController>();
  /** Bumped by reset and close, so work scheduled for an earlier world is dropped. */
  private generation = 0;
  private closed = false;

  constructor(readonly store: PaypalStore) {}

  /** A delivery for each webhook that wants the event; sent in turn unless paused. */
  dispatch(stored: StoredEvent): Delivery[] {
    const deliveries = this.createDeliveries(stored);
    for (const delivery of deliveries) {
      if (this.paused) delivery.status = 'QUEUED';
      else void this.enqueue(delivery);
    }
    return deliveries;
  }

  /** Waits until everything handed to the queue so far has had its attempt. */
  idle(): Promise<void> {
    return this.chain;
  }

  pause(): void {
    this.paused = true;
  }

  /** Sends what waited while paused, oldest first, and resolves once those attempts are made. */
  async resume(): Promise<Delivery[]> {
    this.paused = false;
    const queued = this.store.deliveries.filter((delivery) => delivery.status === 'QUEUED');
    await Promise.all(queued.map((delivery) => this.enqueue(delivery)));
    return queued;
  }

  /**
   * Sends the given events now, in the order given: their queued deliveries if they are held back,
   * otherwise a fresh delivery to every webhook that wants them (a replay). Unknown ids are skipped.
   */
  async deliverNow(eventIds: string[], webhookIds?: string[]): Promise<Delivery[]> {
    const sent: Delivery[] = [];
    for (const eventId of eventIds) {
      const stored = this.store.events.get(eventId);
      if (!stored) continue;
      const queued = this.store.deliveries.filter((delivery) => delivery.eventId === eventId && delivery.status === 'QUEUED');
      const deliveries = queued.length > 0 && !webhookIds ? queued : this.createDeliveries(stored, webhookIds);
      for (const delivery of deliveries) {
        await this.enqueue(delivery);
        sent.push(delivery);
      }
    }
    return sent;
  }

  /** Forgets scheduled retries and in-flight attempts: the world they belonged to is gone. */
  reset(): void {
    this.generation += 1;
    this.paused = false;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const controller of this.inFlight) controller.abort();
    this.inFlight.clear();
    this.chain = Promise.resolve();
  }

  close(): void {
    this.closed = true;
    this.reset();
  }

  private createDeliveries(stored: StoredEvent, webhookIds?: string[]): Delivery[] {
    const webhooks = [...this.store.webhooks.values()].filter((webhook) =>
      webhookIds ? webhookIds.includes(webhook.id) : webhookWants(webhook, stored.event.event_type),
    );
    return webhooks.map((webhook) => {
      const delivery: Delivery = { id: randomUUID(), eventId: stored.event.id, webhookId: webhook.id, url: webhook.url, status: 'PENDING', attempts: [] };
      this.store.deliveries.push(delivery);
      return delivery;
    });
  }

  private enqueue(delivery: Delivery): Promise<void> {
    delivery.status = 'PENDING';
    const generation = this.generation;
    const attempt = this.chain.then(() => (generation === this.generation && !this.closed ? this.attempt(delivery, generation) : undefined));
    this.chain = attempt.catch(() => undefined);
    return this.chain;
  }

  private async attempt(delivery: Delivery, generation: number): Promise<void> {
    const stored = this.store.events.get(delivery.eventId);
    const webhook = this.store.webhooks.get(delivery.webhookId);
    if (!stored || !webhook) {
      delivery.status = 'FAILURE';
      return;
    }
    const transmissionId = randomUUID();
    const transmissionTime = paypalTime(this.store.now());
    const record = { transmissionId, transmissionTime, status: null as number | null, error: null as string | null, at: new Date().toISOString() };
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(), this.store.config.deliveryTimeoutMs);
    this.inFlight.add(controller);
    try {
      const res = await fetch(delivery.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: '*/*',
          'user-agent': 'PayPal/AUHD-214.0-58391792',
          'correlation-id': newId.debug(),
          'paypal-transmission-id': transmissionId,
          'paypal-transmission-time': transmissionTime,
          'paypal-transmission-sig': signTransmission(transmissionId, transmissionTime, webhook.id, stored.body),
          'paypal-cert-url': certUrl(this.store),
          'paypal-auth-algo': AUTH_ALGO,
          'paypal-auth-version': 'v2',
        },
        body: stored.body,
        signal: controller.signal,
      });
      record.status = res.status;
      await res.arrayBuffer().catch(() => undefined);
    } catch (error) {
      record.error = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    } finally {
      clearTimeout(timeout);
      this.inFlight.delete(controller);
    }
    if (generation !== this.generation) return;
    delivery.attempts.push(record);
    if (record.status !== null && record.status >= 200 && record.status < 300) {
      delivery.status = 'SUCCESS';
      return;
    }
    const delay = this.store.config.retryDelaysMs[delivery.attempts.length - 1];
    if (delay === undefined) {
      delivery.status = 'FAILURE';
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (generation !== this.generation || this.closed) return;
      if (this.paused) delivery.status = 'QUEUED';
      else void this.enqueue(delivery);
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }
}
