import type { PlanType } from '@ticket/contracts';

/** A server whose plan changed, as committed. */
export interface PlanChange {
  serverId: string;
  from: PlanType;
  to: PlanType;
}

/**
 * What a feature does when servers' plans changed (a white-label bot stops, webhook deliveries are
 * not sent). Called after the change is committed; it reads the plan as it is then, since another
 * change may have followed.
 */
export type PlanChangeListener = (changes: PlanChange[]) => Promise<void>;

/**
 * The one way the payment service tells the features a plan gives what changed, without knowing
 * them: each feature's service registers here, the payment service calls `changed` once its
 * transaction committed. A listener that fails is reported and does not fail the change (it was
 * paid or revoked all the same), nor keep the other listeners from hearing it.
 */
export class PlanChangeListeners {
  private readonly listeners: PlanChangeListener[] = [];
  private report: (error: unknown) => void = () => undefined;

  listen(listener: PlanChangeListener): void {
    this.listeners.push(listener);
  }

  /** Where a listener's failure is told (the app's logger). */
  onError(report: (error: unknown) => void): void {
    this.report = report;
  }

  async changed(changes: PlanChange[]): Promise<void> {
    if (changes.length === 0) return;
    for (const listener of this.listeners) {
      try {
        await listener(changes);
      } catch (error) {
        this.report(error);
      }
    }
  }
}
