import type { FastifyInstance } from 'fastify';
import { EMPTY_PRODUCT, createPrice } from './stripe-api-catalog.ts';
import { invalidRequest, missingParam } from './stripe-errors.ts';
import { listOf, must, render, stripeRoute } from './stripe-http.ts';
import type { StripeRuntime } from './stripe-http.ts';
import { emit } from './stripe-invoices.ts';
import { mergeMetadata } from './stripe-params.ts';
import type { Params } from './stripe-params.ts';
import type { StripeStore } from './stripe-store.ts';
import type { CheckoutLineItem, CheckoutSession, Price, Product } from './stripe-types.ts';

const DAY = 86_400;
// Accepted as Stripe takes them; the hosted page in the sandbox does not act on them.
const IGNORED = [
  'allow_promotion_codes',
  'automatic_tax',
  'billing_address_collection',
  'consent_collection',
  'custom_fields',
  'custom_text',
  'customer_update',
  'discounts',
  'locale',
  'payment_method_collection',
  'payment_method_configuration',
  'payment_method_options',
  'phone_number_collection',
  'saved_payment_method_options',
  'tax_id_collection',
  'ui_mode',
  'adaptive_pricing',
  'name_collection',
];

/** `line_items[i][price]`, or `[price_data]` making a one-off price as Stripe does (inactive, its own product if `product_data`). */
function lineItemPrice(store: StripeStore, line: Params, at: number, made: { prices: Price[]; products: Product[] }): Price {
  const priceId = line.string('price');
  if (priceId) {
    const price = must(store, 'price', priceId, line.name('price'));
    if (!price.active) throw invalidRequest('The price specified is inactive. This field only accepts active prices.', { param: line.name('price') });
    return price;
  }
  const data = line.object('price_data');
  if (!data) throw missingParam(line.name('price'));
  let productId = data.string('product');
  const productData = productId ? undefined : data.object('product_data');
  if (productId) must(store, 'product', productId, data.name('product'));
  else if (productData) {
    const product: Product = { ...structuredClone(EMPTY_PRODUCT), id: store.newId('prod'), name: productData.requiredString('name'), created: at, updated: at };
    product.description = productData.string('description') ?? null;
    product.metadata = mergeMetadata({}, productData.metadata());
    productData.ignore('images', 'tax_code', 'unit_label');
    made.products.push(product);
    productId = product.id;
  } else throw missingParam(data.name('product'));
  data.ignore('unit_amount_decimal', 'tax_behavior');
  const price = createPrice(store, data, productId, at);
  price.active = false;
  made.prices.push(price);
  return price;
}

export function registerCheckoutRoutes(api: FastifyInstance, runtime: StripeRuntime): void {
  const { store } = runtime;

  stripeRoute(api, runtime, 'POST', '/checkout/sessions', (call) => {
    const p = call.params;
    const at = store.now();
    const mode = p.oneOf('mode', ['payment', 'setup', 'subscription'] as const, { required: true });
    if (mode !== 'subscription') throw invalidRequest(`The sandbox's Checkout supports mode=subscription only (got ${mode}).`, { param: 'mode' });
    const lines = p.objects('line_items');
    if (!lines || lines.length === 0) throw missingParam('line_items');
    const made = { prices: [] as Price[], products: [] as Product[] };
    const items = lines.map((line) => {
      line.ignore('adjustable_quantity', 'dynamic_tax_rates', 'tax_rates');
      const price = lineItemPrice(store, line, at, made);
      const quantity = line.int('quantity', { min: 1 });
      if (quantity === undefined) throw invalidRequest(`Quantity is required. Add \`quantity\` to \`${line.path}\``, { param: line.name('quantity'), code: 'parameter_missing' });
      return { price, quantity };
    });
    if (!items.some((item) => item.price.recurring)) throw invalidRequest('You must specify at least one recurring price in `subscription` mode when using prices.', { param: 'line_items' });
    const first = items[0]?.price as Price;
    for (const [i, { price }] of items.entries()) {
      if (price.currency !== first.currency) throw invalidRequest('All prices must be in the same currency.', { param: `line_items[${i}][price]` });
      if (!price.recurring || price.recurring.interval !== first.recurring?.interval || price.recurring.interval_count !== first.recurring.interval_count) {
        throw invalidRequest('All prices on a subscription must have the same `recurring.interval` and `recurring.interval_count`.', { param: `line_items[${i}][price]` });
      }
    }
    const successUrl = p.url('success_url');
    const cancelUrl = p.url('cancel_url');
    const customerId = p.string('customer');
    const customerEmail = p.string('customer_email');
    if (customerId && customerEmail) throw invalidRequest('You may only specify one of these parameters: customer, customer_email.', { param: 'customer_email' });
    if (customerId) must(store, 'customer', customerId, 'customer');
    const clientReference = p.string('client_reference_id');
    if (clientReference && clientReference.length > 200) throw invalidRequest('client_reference_id must be at most 200 characters.', { param: 'client_reference_id' });
    const metadata = mergeMetadata({}, p.metadata());
    const subscriptionData = p.object('subscription_data');
    const subscriptionMetadata = mergeMetadata({}, subscriptionData?.metadata());
    const subscriptionDescription = subscriptionData?.string('description') ?? null;
    for (const unsupported of ['trial_period_days', 'trial_end', 'billing_cycle_anchor', 'trial_settings']) {
      if (subscriptionData?.has(unsupported)) throw invalidRequest(`The sandbox does not model subscription_data[${unsupported}].`, { param: subscriptionData.name(unsupported) });
    }
    subscriptionData?.ignore('default_tax_rates', 'application_fee_percent', 'on_behalf_of', 'transfer_data', 'invoice_settings', 'proration_behavior', 'billing_mode');
    const expiresAt = p.int('expires_at');
    if (expiresAt !== undefined && (expiresAt < at + 30 * 60 || expiresAt > at + DAY)) {
      throw invalidRequest('The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.', { param: 'expires_at' });
    }
    const methodTypes = p.strings('payment_method_types') ?? ['card'];
    if (methodTypes.some((type) => type !== 'card')) throw invalidRequest('The sandbox takes card payments only.', { param: 'payment_method_types' });
    const locale = p.string('locale');
    p.ignore(...IGNORED);
    const expand = p.expand();
    p.finish();

    for (const product of made.products) store.add(product);
    for (const price of made.prices) store.add(price);
    const id = store.newId('cs');
    const total = items.reduce((sum, item) => sum + item.price.unit_amount * item.quantity, 0);
    const session: CheckoutSession = {
      id,
      object: 'checkout.session',
      after_expiration: null,
      allow_promotion_codes: null,
      amount_subtotal: total,
      amount_total: total,
      automatic_tax: { enabled: false, liability: null, status: null },
      billing_address_collection: null,
      cancel_url: cancelUrl ?? null,
      client_reference_id: clientReference ?? null,
      client_secret: null,
      consent: null,
      consent_collection: null,
      created: at,
      currency: first.currency,
      custom_fields: [],
      custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
      customer: customerId ?? null,
      customer_creation: customerId ? null : 'always',
      customer_details: null,
      customer_email: customerEmail ?? null,
      expires_at: expiresAt ?? at + DAY,
      invoice: null,
      invoice_creation: null,
      livemode: false,
      locale: locale ?? null,
      metadata,
      mode: 'subscription',
      payment_intent: null,
      payment_link: null,
      payment_method_collection: 'always',
      payment_method_options: {},
      payment_method_types: methodTypes,
      payment_status: 'unpaid',
      phone_number_collection: { enabled: false },
      recovered_from: null,
      setup_intent: null,
      shipping_address_collection: null,
      shipping_cost: null,
      shipping_options: [],
      status: 'open',
      submit_type: null,
      subscription: null,
      success_url: successUrl ?? null,
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      ui_mode: 'hosted',
      url: `${store.baseUrl()}/stripe/checkout/${id}`,
    };
    const lineItems: CheckoutLineItem[] = items.map(({ price, quantity }) => ({
      id: store.newId('li'),
      object: 'item',
      amount_discount: 0,
      amount_subtotal: price.unit_amount * quantity,
      amount_tax: 0,
      amount_total: price.unit_amount * quantity,
      currency: price.currency,
      description: store.get('product', price.product)?.name ?? price.product,
      price,
      quantity,
    }));
    store.sessionExtras.set(id, { lineItems, subscriptionMetadata, subscriptionDescription, awaitingAuthentication: null });
    store.add(session);
    return render(store, session, expand);
  });

  stripeRoute(api, runtime, 'GET', '/checkout/sessions/:id', (call, request) => {
    const expand = call.params.expand();
    call.params.finish();
    return render(store, must(store, 'checkout.session', request.params.id ?? ''), expand);
  });

  stripeRoute(api, runtime, 'GET', '/checkout/sessions/:id/line_items', (call, request) => {
    const session = must(store, 'checkout.session', request.params.id ?? '');
    const lines = [...(store.sessionExtras.get(session.id)?.lineItems ?? [])];
    // Line items list in the order they were given, unlike other lists.
    return listOf(call, store, lines, `/v1/checkout/sessions/${session.id}/line_items`);
  });

  stripeRoute(api, runtime, 'POST', '/checkout/sessions/:id/expire', (call, request) => {
    const session = must(store, 'checkout.session', request.params.id ?? '');
    const expand = call.params.expand();
    call.params.finish();
    if (session.status !== 'open') throw invalidRequest(`Only Checkout Sessions with a status in ["open"] can be expired.`, { param: 'session' });
    session.status = 'expired';
    session.url = null;
    emit(call.ctx(), 'checkout.session.expired', session);
    return render(store, session, expand);
  });

  stripeRoute(api, runtime, 'GET', '/checkout/sessions', (call) => {
    const p = call.params;
    const customer = p.string('customer');
    const subscription = p.string('subscription');
    const status = p.oneOf('status', ['open', 'complete', 'expired'] as const);
    p.ignore('payment_intent', 'payment_link', 'created', 'customer_details');
    const items = store
      .all('checkout.session')
      .filter((s) => (!customer || s.customer === customer) && (!subscription || s.subscription === subscription) && (!status || s.status === status));
    return listOf(call, store, items, '/v1/checkout/sessions');
  });
}
