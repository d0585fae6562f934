/**
 * The Stripe objects the sandbox keeps, in the shape the API answers (API version pinned by
 * stripe@23). Fields the sandbox never changes carry Stripe's defaults. A few fields that recent
 * API versions moved are kept in both places so older integrations read them too: the period on
 * the subscription as well as on its items, and `subscription`, `charge`, `payment_intent`, `paid`
 * on invoices beside `parent` and `payments`.
 */

export type Metadata = Record<string, string>;

export interface StripeList<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  total_count?: number;
  url: string;
}

export interface Product {
  id: string;
  object: 'product';
  active: boolean;
  created: number;
  default_price: string | null;
  description: string | null;
  images: string[];
  livemode: false;
  marketing_features: { name: string }[];
  metadata: Metadata;
  name: string;
  package_dimensions: null;
  shippable: null;
  statement_descriptor: string | null;
  tax_code: null;
  type: 'service';
  unit_label: string | null;
  updated: number;
  url: string | null;
}

export type Interval = 'day' | 'week' | 'month' | 'year';

export interface Price {
  id: string;
  object: 'price';
  active: boolean;
  billing_scheme: 'per_unit';
  created: number;
  currency: string;
  custom_unit_amount: null;
  livemode: false;
  lookup_key: string | null;
  metadata: Metadata;
  nickname: string | null;
  product: string;
  recurring: { interval: Interval; interval_count: number; meter: null; trial_period_days: null; usage_type: 'licensed' } | null;
  tax_behavior: 'unspecified' | 'inclusive' | 'exclusive';
  tiers_mode: null;
  transform_quantity: null;
  type: 'recurring' | 'one_time';
  unit_amount: number;
  unit_amount_decimal: string;
}

export interface Customer {
  id: string;
  object: 'customer';
  address: null;
  balance: number;
  created: number;
  currency: string | null;
  default_source: null;
  delinquent: boolean;
  description: string | null;
  discount: null;
  email: string | null;
  invoice_prefix: string;
  invoice_settings: { custom_fields: null; default_payment_method: string | null; footer: null; rendering_options: null };
  livemode: false;
  metadata: Metadata;
  name: string | null;
  next_invoice_sequence: number;
  phone: string | null;
  preferred_locales: string[];
  shipping: null;
  tax_exempt: 'none';
  test_clock: null;
}

export interface CardDetails {
  brand: string;
  country: string;
  display_brand: string;
  exp_month: number;
  exp_year: number;
  fingerprint: string;
  funding: 'credit';
  last4: string;
}

export interface PaymentMethod {
  id: string;
  object: 'payment_method';
  allow_redisplay: 'unspecified';
  billing_details: { address: null; email: string | null; name: string | null; phone: null };
  card: CardDetails & { checks: { address_line1_check: null; address_postal_code_check: null; cvc_check: 'pass' | null }; wallet: null };
  created: number;
  customer: string | null;
  livemode: false;
  metadata: Metadata;
  type: 'card';
}

export interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  after_expiration: null;
  allow_promotion_codes: boolean | null;
  amount_subtotal: number;
  amount_total: number;
  automatic_tax: { enabled: false; liability: null; status: null };
  billing_address_collection: string | null;
  cancel_url: string | null;
  client_reference_id: string | null;
  client_secret: null;
  consent: null;
  consent_collection: null;
  created: number;
  currency: string;
  custom_fields: never[];
  custom_text: { after_submit: null; shipping_address: null; submit: null; terms_of_service_acceptance: null };
  customer: string | null;
  customer_creation: 'always' | 'if_required' | null;
  customer_details: { address: null; email: string | null; name: string | null; phone: null; tax_exempt: 'none'; tax_ids: never[] } | null;
  customer_email: string | null;
  expires_at: number;
  invoice: string | null;
  invoice_creation: null;
  livemode: false;
  locale: string | null;
  metadata: Metadata;
  mode: 'subscription';
  payment_intent: null;
  payment_link: null;
  payment_method_collection: 'always' | 'if_required';
  payment_method_options: Record<string, never>;
  payment_method_types: string[];
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  phone_number_collection: { enabled: false };
  recovered_from: null;
  setup_intent: null;
  shipping_address_collection: null;
  shipping_cost: null;
  shipping_options: never[];
  status: 'open' | 'complete' | 'expired';
  submit_type: null;
  subscription: string | null;
  success_url: string | null;
  total_details: { amount_discount: number; amount_shipping: number; amount_tax: number };
  ui_mode: 'hosted';
  url: string | null;
}

export interface CheckoutLineItem {
  id: string;
  object: 'item';
  amount_discount: number;
  amount_subtotal: number;
  amount_tax: number;
  amount_total: number;
  currency: string;
  description: string;
  price: Price;
  quantity: number;
}

export interface SubscriptionItem {
  id: string;
  object: 'subscription_item';
  billing_thresholds: null;
  created: number;
  current_period_end: number;
  current_period_start: number;
  discounts: string[];
  metadata: Metadata;
  plan: Record<string, unknown>;
  price: Price;
  quantity: number;
  subscription: string;
  tax_rates: never[];
}

export type SubscriptionStatus = 'incomplete' | 'incomplete_expired' | 'trialing' | 'active' | 'past_due' | 'canceled' | 'unpaid' | 'paused';

export interface Subscription {
  id: string;
  object: 'subscription';
  application: null;
  application_fee_percent: null;
  automatic_tax: { disabled_reason: null; enabled: false; liability: null };
  billing_cycle_anchor: number;
  billing_cycle_anchor_config: null;
  billing_mode: { flexible: null; type: 'classic' };
  billing_thresholds: null;
  cancel_at: number | null;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  cancellation_details: { comment: string | null; feedback: string | null; reason: 'cancellation_requested' | 'payment_failed' | null };
  collection_method: 'charge_automatically';
  created: number;
  currency: string;
  current_period_end: number;
  current_period_start: number;
  customer: string;
  days_until_due: null;
  default_payment_method: string | null;
  default_source: null;
  default_tax_rates: never[];
  description: string | null;
  discounts: string[];
  ended_at: number | null;
  invoice_settings: { account_tax_ids: null; issuer: { type: 'self' } };
  items: StripeList<SubscriptionItem>;
  latest_invoice: string | null;
  livemode: false;
  metadata: Metadata;
  next_pending_invoice_item_invoice: null;
  on_behalf_of: null;
  pause_collection: null;
  payment_settings: { payment_method_options: null; payment_method_types: null; save_default_payment_method: 'off' };
  pending_invoice_item_interval: null;
  pending_setup_intent: null;
  /** Changes made with payment_behavior=pending_if_incomplete, applied once `latest_invoice` is paid. */
  pending_update: PendingUpdate | null;
  /** The subscription schedule that manages it, if any. */
  schedule: string | null;
  start_date: number;
  status: SubscriptionStatus;
  test_clock: null;
  transfer_data: null;
  trial_end: null;
  trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } };
  trial_start: null;
}

export interface PendingUpdate {
  billing_cycle_anchor: number | null;
  cancel_at_period_end: null;
  discount: null;
  discounts: null;
  expires_at: number;
  metadata: Metadata | null;
  subscription_items: SubscriptionItem[] | null;
  trial_end: null;
  trial_from_plan: null;
}

export interface SchedulePhaseItem {
  billing_thresholds: null;
  discounts: never[];
  metadata: Metadata;
  plan: string;
  price: string;
  quantity: number;
  tax_rates: never[];
}

export type ScheduleProration = 'always_invoice' | 'create_prorations' | 'none';

export interface SchedulePhase {
  add_invoice_items: never[];
  application_fee_percent: null;
  automatic_tax: { disabled_reason: null; enabled: false; liability: null };
  billing_cycle_anchor: 'automatic' | 'phase_start' | null;
  billing_thresholds: null;
  collection_method: null;
  currency: string;
  default_payment_method: null;
  default_tax_rates: never[];
  description: null;
  discounts: never[];
  end_date: number;
  invoice_settings: null;
  items: SchedulePhaseItem[];
  metadata: Metadata;
  on_behalf_of: null;
  proration_behavior: ScheduleProration;
  start_date: number;
  transfer_data: null;
  trial_end: null;
}

export interface SubscriptionSchedule {
  id: string;
  object: 'subscription_schedule';
  application: null;
  billing_mode: { flexible: null; type: 'classic' };
  canceled_at: number | null;
  completed_at: number | null;
  created: number;
  current_phase: { start_date: number; end_date: number } | null;
  customer: string;
  customer_account: null;
  default_settings: {
    application_fee_percent: null;
    automatic_tax: { disabled_reason: null; enabled: false; liability: null };
    billing_cycle_anchor: 'automatic';
    billing_thresholds: null;
    collection_method: 'charge_automatically';
    default_payment_method: null;
    description: null;
    invoice_settings: { account_tax_ids: null; days_until_due: null; issuer: { type: 'self' } };
    on_behalf_of: null;
    transfer_data: null;
  };
  end_behavior: 'release' | 'cancel';
  livemode: false;
  metadata: Metadata;
  phases: SchedulePhase[];
  released_at: number | null;
  released_subscription: string | null;
  status: 'not_started' | 'active' | 'completed' | 'released' | 'canceled';
  subscription: string | null;
  test_clock: null;
}

export interface InvoiceLine {
  id: string;
  object: 'line_item';
  amount: number;
  currency: string;
  description: string;
  discount_amounts: never[];
  discountable: boolean;
  discounts: never[];
  invoice: string;
  livemode: false;
  metadata: Metadata;
  parent: {
    type: 'subscription_item_details';
    invoice_item_details: null;
    subscription_item_details: {
      invoice_item: string | null;
      proration: boolean;
      proration_details: { credited_items: null };
      subscription: string;
      subscription_item: string;
    };
  };
  period: { end: number; start: number };
  pretax_credit_amounts: never[];
  pricing: { price_details: { price: string; product: string }; type: 'price_details'; unit_amount_decimal: string };
  quantity: number;
  subtotal: number;
  taxes: never[];
}

export interface InvoicePayment {
  id: string;
  object: 'invoice_payment';
  amount_paid: number | null;
  amount_requested: number;
  created: number;
  currency: string;
  invoice: string;
  is_default: boolean;
  livemode: false;
  payment: { type: 'payment_intent'; payment_intent: string };
  status: 'open' | 'paid' | 'canceled';
  status_transitions: { canceled_at: number | null; paid_at: number | null };
}

export type BillingReason = 'subscription_create' | 'subscription_cycle' | 'subscription_update' | 'subscription_threshold' | 'manual';

export interface Invoice {
  id: string;
  object: 'invoice';
  account_country: string;
  account_name: string;
  amount_due: number;
  amount_overpaid: number;
  amount_paid: number;
  amount_remaining: number;
  amount_shipping: number;
  application: null;
  attempt_count: number;
  attempted: boolean;
  auto_advance: boolean;
  automatic_tax: { disabled_reason: null; enabled: false; liability: null; provider: null; status: null };
  automatically_finalizes_at: null;
  billing_reason: BillingReason;
  charge: string | null;
  collection_method: 'charge_automatically';
  created: number;
  currency: string;
  customer: string;
  customer_email: string | null;
  customer_name: string | null;
  default_payment_method: null;
  description: string | null;
  discounts: never[];
  due_date: null;
  effective_at: number | null;
  ending_balance: number | null;
  hosted_invoice_url: string | null;
  invoice_pdf: null;
  last_finalization_error: null;
  lines: StripeList<InvoiceLine>;
  livemode: false;
  metadata: Metadata;
  next_payment_attempt: number | null;
  number: string | null;
  paid: boolean;
  parent: { type: 'subscription_details'; quote_details: null; subscription_details: { metadata: Metadata; subscription: string } };
  payment_intent: string | null;
  payments: StripeList<InvoicePayment>;
  period_end: number;
  period_start: number;
  starting_balance: number;
  status: 'draft' | 'open' | 'paid' | 'uncollectible' | 'void';
  status_transitions: { finalized_at: number | null; marked_uncollectible_at: number | null; paid_at: number | null; voided_at: number | null };
  subscription: string;
  subtotal: number;
  subtotal_excluding_tax: number;
  total: number;
  total_discount_amounts: never[];
  total_excluding_tax: number;
  total_taxes: never[];
  webhooks_delivered_at: number | null;
}

export interface LastPaymentError {
  charge: string;
  code: string;
  decline_code?: string;
  doc_url: string;
  message: string;
  payment_method: PaymentMethod;
  type: 'card_error';
}

export interface PaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_capturable: number;
  amount_received: number;
  application: null;
  application_fee_amount: null;
  automatic_payment_methods: null;
  canceled_at: null;
  cancellation_reason: null;
  capture_method: 'automatic';
  client_secret: string;
  confirmation_method: 'automatic';
  created: number;
  currency: string;
  customer: string;
  description: string;
  last_payment_error: LastPaymentError | null;
  latest_charge: string | null;
  livemode: false;
  metadata: Metadata;
  next_action: null;
  on_behalf_of: null;
  payment_method: string;
  payment_method_types: string[];
  processing: null;
  receipt_email: string | null;
  setup_future_usage: 'off_session' | null;
  status: 'requires_payment_method' | 'requires_action' | 'succeeded' | 'canceled';
}

export interface Refund {
  id: string;
  object: 'refund';
  amount: number;
  balance_transaction: string;
  charge: string;
  created: number;
  currency: string;
  destination_details: { card: { reference_status: 'pending'; reference_type: 'acquirer_reference_number'; type: 'refund' }; type: 'card' };
  metadata: Metadata;
  payment_intent: string;
  reason: 'duplicate' | 'fraudulent' | 'requested_by_customer' | null;
  receipt_number: null;
  source_transfer_reversal: null;
  status: 'succeeded';
  transfer_reversal: null;
}

export interface Charge {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  application: null;
  application_fee: null;
  application_fee_amount: null;
  balance_transaction: string | null;
  billing_details: PaymentMethod['billing_details'];
  calculated_statement_descriptor: string;
  captured: boolean;
  created: number;
  currency: string;
  customer: string;
  description: string;
  disputed: false;
  failure_balance_transaction: null;
  failure_code: string | null;
  failure_message: string | null;
  fraud_details: Record<string, never>;
  livemode: false;
  metadata: Metadata;
  on_behalf_of: null;
  outcome: { network_status: string; reason: string | null; risk_level: 'normal'; risk_score: number; seller_message: string; type: string };
  paid: boolean;
  payment_intent: string;
  payment_method: string;
  payment_method_details: { card: CardDetails & { checks: PaymentMethod['card']['checks'] }; type: 'card' };
  receipt_email: string | null;
  receipt_number: null;
  receipt_url: string | null;
  refunded: boolean;
  refunds: StripeList<Refund>;
  review: null;
  shipping: null;
  source: null;
  statement_descriptor: null;
  statement_descriptor_suffix: null;
  status: 'succeeded' | 'failed';
  transfer_data: null;
  transfer_group: null;
}

export interface WebhookEndpoint {
  id: string;
  object: 'webhook_endpoint';
  api_version: string | null;
  application: null;
  created: number;
  description: string | null;
  enabled_events: string[];
  livemode: false;
  metadata: Metadata;
  status: 'enabled' | 'disabled';
  url: string;
}

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

export type StripeObject =
  | Product
  | Price
  | Customer
  | PaymentMethod
  | CheckoutSession
  | Subscription
  | SubscriptionItem
  | SubscriptionSchedule
  | Invoice
  | InvoicePayment
  | PaymentIntent
  | Charge
  | Refund
  | WebhookEndpoint
  | StripeEvent;

export type ObjectName = StripeObject['object'];
export type ObjectOf<N extends ObjectName> = Extract<StripeObject, { object: N }>;

/** The API request an event came from (`event.request`); null for what the clock did. */
export type Origin = { id: string; idempotency_key: string | null } | null;
