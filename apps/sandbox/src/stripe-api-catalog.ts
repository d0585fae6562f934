import type { FastifyInstance } from 'fastify';
import { invalidRequest } from './stripe-errors.ts';
import { listOf, must, render, stripeRoute } from './stripe-http.ts';
import type { StripeRuntime } from './stripe-http.ts';
import { cancelSubscription, changedFields, createCustomer } from './stripe-subscriptions.ts';
import { emit } from './stripe-invoices.ts';
import { mergeMetadata } from './stripe-params.ts';
import type { Params } from './stripe-params.ts';
import type { StripeStore } from './stripe-store.ts';
import type { Interval, Price, Product } from './stripe-types.ts';

const INTERVALS: readonly Interval[] = ['day', 'month', 'week', 'year'];
const MAX_INTERVAL: Record<Interval, number> = { day: 1095, week: 156, month: 36, year: 3 };

export function createPrice(store: StripeStore, p: Params, productId: string, at: number): Price {
  const currency = p.requiredString('currency').toLowerCase();
  if (!/^[a-z]{3}$/.test(currency)) throw invalidRequest(`Invalid currency: ${currency}. Stripe currently supports these currencies: usd, eur, gbp, …`, { param: p.name('currency') });
  const unitAmount = p.int('unit_amount', { required: true, min: 0 }) as number;
  const recurringParams = p.object('recurring');
  let recurring: Price['recurring'] = null;
  if (recurringParams) {
    const interval = recurringParams.oneOf('interval', INTERVALS, { required: true }) as Interval;
    const count = recurringParams.int('interval_count', { min: 1 }) ?? 1;
    if (count > MAX_INTERVAL[interval]) throw invalidRequest('The maximum billing interval is 3 years (1095 days, 156 weeks or 36 months).', { param: recurringParams.name('interval_count') });
    recurringParams.ignore('usage_type', 'trial_period_days', 'meter');
    recurring = { interval, interval_count: count, meter: null, trial_period_days: null, usage_type: 'licensed' };
  }
  return {
    id: store.newId('price'),
    object: 'price',
    active: p.bool('active') ?? true,
    billing_scheme: 'per_unit',
    created: at,
    currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: null,
    metadata: mergeMetadata({}, p.metadata()),
    nickname: p.string('nickname') ?? null,
    product: productId,
    recurring,
    tax_behavior: p.oneOf('tax_behavior', ['exclusive', 'inclusive', 'unspecified'] as const) ?? 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: recurring ? 'recurring' : 'one_time',
    unit_amount: unitAmount,
    unit_amount_decimal: String(unitAmount),
  };
}

/** A lookup key names one price; `transfer_lookup_key` moves it from the price that has it. */
function claimLookupKey(store: StripeStore, price: Price, key: string | undefined, transfer: boolean | undefined, param: string): void {
  if (key === undefined) return;
  const holder = store.all('price').find((other) => other.lookup_key === key && other.id !== price.id);
  if (holder && !transfer) throw invalidRequest(`A price (\`${holder.id}\`) already uses that lookup key.`, { param });
  if (holder) holder.lookup_key = null;
  price.lookup_key = key;
}

function productFields(p: Params, product: Partial<Product>): void {
  const name = p.string('name');
  if (name !== undefined) product.name = name;
  const active = p.bool('active');
  if (active !== undefined) product.active = active;
  if (p.has('description')) product.description = p.string('description', { allowEmpty: true }) || null;
  if (p.has('statement_descriptor')) product.statement_descriptor = p.string('statement_descriptor', { allowEmpty: true }) || null;
  if (p.has('unit_label')) product.unit_label = p.string('unit_label', { allowEmpty: true }) || null;
  if (p.has('url')) product.url = p.string('url', { allowEmpty: true }) || null;
  const images = p.strings('images');
  if (images) product.images = images;
  p.ignore('tax_code', 'shippable', 'package_dimensions', 'marketing_features', 'type');
}

export function registerCatalogRoutes(api: FastifyInstance, runtime: StripeRuntime): void {
  const { store } = runtime;

  stripeRoute(api, runtime, 'POST', '/products', (call) => {
    const p = call.params;
    const at = store.now();
    const id = p.string('id');
    if (id && store.objects.has(id)) throw invalidRequest(`Product already exists.`, { param: 'id', code: 'resource_already_exists' });
    const product: Product = {
      id: id ?? store.newId('prod'),
      object: 'product',
      active: true,
      created: at,
      default_price: null,
      description: null,
      images: [],
      livemode: false,
      marketing_features: [],
      metadata: mergeMetadata({}, p.metadata()),
      name: p.requiredString('name'),
      package_dimensions: null,
      shippable: null,
      statement_descriptor: null,
      tax_code: null,
      type: 'service',
      unit_label: null,
      updated: at,
      url: null,
    };
    productFields(p, product);
    const priceData = p.object('default_price_data');
    const expand = p.expand();
    const price = priceData ? createPrice(store, priceData, product.id, at) : null;
    p.finish();
    store.add(product);
    emit(call.ctx(), 'product.created', product);
    if (price) {
      store.add(price);
      product.default_price = price.id;
      emit(call.ctx(), 'price.created', price);
    }
    return render(store, product, expand);
  });

  stripeRoute(api, runtime, 'GET', '/products/:id', (call, request) => {
    const expand = call.params.expand();
    call.params.finish();
    return render(store, must(store, 'product', request.params.id ?? ''), expand);
  });

  stripeRoute(api, runtime, 'POST', '/products/:id', (call, request) => {
    const product = must(store, 'product', request.params.id ?? '');
    const p = call.params;
    const before = structuredClone(product);
    const change: Partial<Product> = {};
    productFields(p, change);
    const metadata = p.metadata();
    const defaultPrice = p.string('default_price');
    if (defaultPrice) must(store, 'price', defaultPrice, 'default_price');
    const expand = p.expand();
    p.finish();
    Object.assign(product, change, { metadata: mergeMetadata(product.metadata, metadata), updated: store.now() });
    if (defaultPrice) product.default_price = defaultPrice;
    emit(call.ctx(), 'product.updated', product, changedFields(before, product));
    return render(store, product, expand);
  });

  stripeRoute(api, runtime, 'DELETE', '/products/:id', (call, request) => {
    const product = must(store, 'product', request.params.id ?? '');
    call.params.finish();
    if (store.all('price').some((price) => price.product === product.id)) {
      throw invalidRequest('This product cannot be deleted because it has one or more user-created prices.', { param: 'id' });
    }
    store.remove(product.id);
    emit(call.ctx(), 'product.deleted', product);
    return { id: product.id, object: 'product', deleted: true };
  });

  stripeRoute(api, runtime, 'GET', '/products', (call) => {
    const p = call.params;
    const active = p.bool('active');
    const ids = p.strings('ids');
    const items = store.all('product').filter((product) => (active === undefined || product.active === active) && (!ids || ids.includes(product.id)));
    return listOf(call, store, items, '/v1/products');
  });

  stripeRoute(api, runtime, 'POST', '/prices', (call) => {
    const p = call.params;
    const at = store.now();
    const productId = p.string('product');
    const productData = productId === undefined ? p.object('product_data') : undefined;
    if (!productId && !productData) throw invalidRequest('You must specify either `product` or `product_data` when creating a price.', { param: 'product', code: 'parameter_missing' });
    if (productId) must(store, 'product', productId, 'product');
    const inlineProduct = productData ? productData.requiredString('name') : null;
    productData?.ignore('active', 'metadata', 'statement_descriptor', 'tax_code', 'unit_label', 'id');
    const price = createPrice(store, p, productId ?? '', at);
    const lookupKey = p.string('lookup_key');
    const transfer = p.bool('transfer_lookup_key');
    const expand = p.expand();
    p.ignore('billing_scheme', 'unit_amount_decimal', 'currency_options');
    p.finish();
    if (inlineProduct !== null) {
      const product = store.add({ ...(structuredClone(EMPTY_PRODUCT) as Product), id: store.newId('prod'), name: inlineProduct, created: at, updated: at });
      price.product = product.id;
      emit(call.ctx(), 'product.created', product);
    }
    claimLookupKey(store, price, lookupKey, transfer, 'lookup_key');
    store.add(price);
    emit(call.ctx(), 'price.created', price);
    return render(store, price, expand);
  });

  stripeRoute(api, runtime, 'GET', '/prices/:id', (call, request) => {
    const expand = call.params.expand();
    call.params.finish();
    return render(store, must(store, 'price', request.params.id ?? ''), expand);
  });

  stripeRoute(api, runtime, 'POST', '/prices/:id', (call, request) => {
    const price = must(store, 'price', request.params.id ?? '');
    const p = call.params;
    const before = structuredClone(price);
    const active = p.bool('active');
    const nickname = p.has('nickname') ? p.string('nickname', { allowEmpty: true }) || null : undefined;
    const metadata = p.metadata();
    const lookupKey = p.has('lookup_key') ? (p.string('lookup_key', { allowEmpty: true }) ?? '') : undefined;
    const transfer = p.bool('transfer_lookup_key');
    const taxBehavior = p.oneOf('tax_behavior', ['exclusive', 'inclusive', 'unspecified'] as const);
    const expand = p.expand();
    p.finish();
    if (lookupKey === '') price.lookup_key = null;
    else claimLookupKey(store, price, lookupKey, transfer, 'lookup_key');
    if (active !== undefined) price.active = active;
    if (nickname !== undefined) price.nickname = nickname;
    if (taxBehavior) price.tax_behavior = taxBehavior;
    price.metadata = mergeMetadata(price.metadata, metadata);
    emit(call.ctx(), 'price.updated', price, changedFields(before, price));
    return render(store, price, expand);
  });

  stripeRoute(api, runtime, 'GET', '/prices', (call) => {
    const p = call.params;
    const active = p.bool('active');
    const currency = p.string('currency')?.toLowerCase();
    const product = p.string('product');
    const type = p.oneOf('type', ['one_time', 'recurring'] as const);
    const lookupKeys = p.strings('lookup_keys');
    const recurring = p.object('recurring');
    const interval = recurring?.oneOf('interval', INTERVALS);
    const items = store
      .all('price')
      .filter(
        (price) =>
          (active === undefined || price.active === active) &&
          (!currency || price.currency === currency) &&
          (!product || price.product === product) &&
          (!type || price.type === type) &&
          (!lookupKeys || (price.lookup_key !== null && lookupKeys.includes(price.lookup_key))) &&
          (!interval || price.recurring?.interval === interval),
      );
    return listOf(call, store, items, '/v1/prices');
  });

  stripeRoute(api, runtime, 'POST', '/customers', (call) => {
    const p = call.params;
    const fields = {
      email: p.string('email') ?? null,
      name: p.string('name') ?? null,
      description: p.string('description') ?? null,
      phone: p.string('phone') ?? null,
      metadata: mergeMetadata({}, p.metadata()),
    };
    p.ignore('address', 'preferred_locales', 'shipping', 'tax_exempt', 'invoice_settings', 'payment_method', 'test_clock');
    const expand = p.expand();
    p.finish();
    return render(store, createCustomer(call.ctx(), fields), expand);
  });

  stripeRoute(api, runtime, 'GET', '/customers/:id', (call, request) => {
    const expand = call.params.expand();
    call.params.finish();
    return render(store, must(store, 'customer', request.params.id ?? ''), expand);
  });

  stripeRoute(api, runtime, 'POST', '/customers/:id', (call, request) => {
    const customer = must(store, 'customer', request.params.id ?? '');
    const p = call.params;
    const before = structuredClone(customer);
    const text = (key: string) => (p.has(key) ? p.string(key, { allowEmpty: true }) || null : undefined);
    const email = text('email');
    const name = text('name');
    const description = text('description');
    const phone = text('phone');
    const metadata = p.metadata();
    const settings = p.object('invoice_settings');
    const defaultMethod = settings?.string('default_payment_method');
    settings?.ignore('custom_fields', 'footer', 'rendering_options');
    if (defaultMethod) must(store, 'payment_method', defaultMethod, 'invoice_settings[default_payment_method]');
    p.ignore('address', 'preferred_locales', 'shipping', 'tax_exempt');
    const expand = p.expand();
    p.finish();
    if (email !== undefined) customer.email = email;
    if (name !== undefined) customer.name = name;
    if (description !== undefined) customer.description = description;
    if (phone !== undefined) customer.phone = phone;
    if (defaultMethod) customer.invoice_settings.default_payment_method = defaultMethod;
    customer.metadata = mergeMetadata(customer.metadata, metadata);
    emit(call.ctx(), 'customer.updated', customer, changedFields(before, customer));
    return render(store, customer, expand);
  });

  stripeRoute(api, runtime, 'DELETE', '/customers/:id', (call, request) => {
    const customer = must(store, 'customer', request.params.id ?? '');
    call.params.finish();
    const ctx = call.ctx();
    for (const subscription of store.all('subscription')) {
      if (subscription.customer === customer.id && subscription.status !== 'canceled') cancelSubscription(ctx, subscription, { invoiceNow: false, prorate: false });
    }
    store.remove(customer.id);
    emit(ctx, 'customer.deleted', customer);
    return { id: customer.id, object: 'customer', deleted: true };
  });

  stripeRoute(api, runtime, 'GET', '/customers', (call) => {
    const email = call.params.string('email');
    const items = store.all('customer').filter((customer) => !email || customer.email === email);
    return listOf(call, store, items, '/v1/customers');
  });

  stripeRoute(api, runtime, 'GET', '/payment_methods/:id', (call, request) => {
    const expand = call.params.expand();
    call.params.finish();
    return render(store, must(store, 'payment_method', request.params.id ?? ''), expand);
  });

  stripeRoute(api, runtime, 'GET', '/customers/:id/payment_methods', (call, request) => {
    const customer = must(store, 'customer', request.params.id ?? '');
    call.params.ignore('type', 'allow_redisplay');
    const items = store.all('payment_method').filter((method) => method.customer === customer.id);
    return listOf(call, store, items, `/v1/customers/${customer.id}/payment_methods`);
  });
}

export const EMPTY_PRODUCT: Omit<Product, 'id' | 'name' | 'created' | 'updated'> = {
  object: 'product',
  active: true,
  default_price: null,
  description: null,
  images: [],
  livemode: false,
  marketing_features: [],
  metadata: {},
  package_dimensions: null,
  shippable: null,
  statement_descriptor: null,
  tax_code: null,
  type: 'service',
  unit_label: null,
  url: null,
};
