// What other services may use from payment (DESIGN.md §2); the lint keeps them out of its other files.
export type { PaymentService } from './service';
export type { StripeEvents } from './stripe-events';
export type { SubscriptionActions } from './subscription-actions';
export type { PaypalPayments } from './paypal-payments';
export { DemoSubscriptions, type DemoAction, type DemoPlan, type PayAtProvider } from './demo-subscriptions';
