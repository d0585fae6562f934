import type { FastifyInstance } from 'fastify';
import { BodyCheck, requireBody, resourceNotFound, unprocessable } from './paypal-errors.ts';
import type { Json } from './paypal-errors.ts';
import { idempotent } from './paypal-idempotency.ts';
import { planJson, productJson } from './paypal-serializers.ts';
import type { BillingCycle, IntervalUnit, Plan, PaypalStore, Product, TenureType } from './paypal-store.ts';
import { fromCents, newId, paypalTime } from './paypal-store.ts';

const PRODUCT_TYPES = ['PHYSICAL', 'DIGITAL', 'SERVICE'] as const;
const INTERVAL_UNITS = ['DAY', 'WEEK', 'MONTH', 'YEAR'] as const;
const MAX_INTERVAL_COUNT: Record<IntervalUnit, number> = { DAY: 365, WEEK: 52, MONTH: 12, YEAR: 1 };
const PRODUCTS_DOCS = 'v1/catalogs/products/';
const PLANS_DOCS = 'v1/billing/plans/';

type Query = Record<string, string | undefined>;

/** `page_size` and `page` as PayPal's list calls read them, with `total_required` adding the counts. */
function paginate<T>(items: T[], query: Query, docs: string): { page: T[]; totals: Record<string, number> } {
  const check = new BodyCheck({ page_size: numberOrRaw(query.page_size), page: numberOrRaw(query.page) }, 'query');
  const pageSize = check.integer('/page_size', { min: 1, max: 20 }) ?? 10;
  const page = check.integer('/page', { min: 1, max: 100_000 }) ?? 1;
  check.done(docs);
  const totals: Record<string, number> = query.total_required === 'true' ? { total_items: items.length, total_pages: Math.ceil(items.length / pageSize) } : {};
  return { page: items.slice((page - 1) * pageSize, page * pageSize), totals };
}

function numberOrRaw(value: string | undefined): unknown {
  return value === undefined ? undefined : /^-?\d+$/.test(value) ? Number(value) : value;
}

function readBillingCycle(check: BodyCheck, index: number, now: string): BillingCycle | null {
  const at = `/billing_cycles/${index}`;
  if (!check.object(at, true)) return null;
  check.object(`${at}/frequency`, true);
  const unit = check.string(`${at}/frequency/interval_unit`, { required: true, oneOf: INTERVAL_UNITS }) as IntervalUnit | undefined;
  const count = check.integer(`${at}/frequency/interval_count`, { min: 1, max: unit ? MAX_INTERVAL_COUNT[unit] : 365 }) ?? 1;
  const tenure = check.string(`${at}/tenure_type`, { required: true, oneOf: ['REGULAR', 'TRIAL'] }) as TenureType | undefined;
  const sequence = check.integer(`${at}/sequence`, { required: true, min: 1, max: 99 });
  const totalCycles = check.integer(`${at}/total_cycles`, { min: 0, max: 999 }) ?? 1;
  check.object(`${at}/pricing_scheme`, tenure === 'REGULAR');
  const price = check.money(`${at}/pricing_scheme/fixed_price`, tenure === 'REGULAR');
  if (!unit || !tenure || sequence === undefined) return null;
  const fixed = price ?? { cents: 0, currency: 'USD' };
  const value = check.get(`${at}/pricing_scheme/fixed_price/value`);
  return {
    frequency: { interval_unit: unit, interval_count: count },
    tenure_type: tenure,
    sequence,
    total_cycles: totalCycles,
    pricing_scheme: {
      version: 1,
      fixed_price: { currency_code: fixed.currency, value: typeof value === 'string' ? value : fromCents(fixed.cents) },
      create_time: now,
      update_time: now,
    },
  };
}

function createPlan(store: PaypalStore, body: Json): Plan {
  const check = new BodyCheck(body);
  const productId = check.string('/product_id', { required: true, min: 6, max: 50 });
  const name = check.string('/name', { required: true, max: 127 });
  const status = (check.string('/status', { oneOf: ['CREATED', 'ACTIVE', 'INACTIVE'] }) ?? 'ACTIVE') as Plan['status'];
  const description = check.string('/description', { max: 127 });
  const now = paypalTime(store.now());
  const rawCycles = check.array('/billing_cycles', true) ?? [];
  if (check.get('/billing_cycles') !== undefined && (rawCycles.length < 1 || rawCycles.length > 12)) check.add('/billing_cycles', 'INVALID_PARAMETER_VALUE');
  const cycles = rawCycles.map((_, index) => readBillingCycle(check, index, now));
  check.object('/payment_preferences', true);
  const autoBill = check.boolean('/payment_preferences/auto_bill_outstanding') ?? true;
  const setupFee = check.money('/payment_preferences/setup_fee');
  const failureAction = (check.string('/payment_preferences/setup_fee_failure_action', { oneOf: ['CONTINUE', 'CANCEL'] }) ?? 'CANCEL') as 'CONTINUE' | 'CANCEL';
  const threshold = check.integer('/payment_preferences/payment_failure_threshold', { min: 0, max: 999 }) ?? 0;
  const quantitySupported = check.boolean('/quantity_supported') ?? false;
  check.done(PLANS_DOCS);
  const billingCycles = cycles.filter((cycle): cycle is BillingCycle => cycle !== null);
  if (!productId || !name) throw new Error('unreachable: checked above');
  if (!store.products.has(productId)) throw resourceNotFound('/product_id', productId, PLANS_DOCS);
  const currencies = new Set(billingCycles.filter((c) => c.tenure_type === 'REGULAR' || Number(c.pricing_scheme.fixed_price.value) > 0).map((c) => c.pricing_scheme.fixed_price.currency_code));
  if (currencies.size > 1) throw unprocessable('CURRENCY_MISMATCH', "The currency code is different from the plan's currency code.", PLANS_DOCS);
  if (billingCycles.filter((c) => c.tenure_type === 'REGULAR').length !== 1) {
    throw unprocessable('INVALID_BILLING_CYCLE', 'A plan must have exactly one regular billing cycle.', PLANS_DOCS, '/billing_cycles');
  }
  const currency = [...currencies][0] ?? 'USD';
  const plan: Plan = {
    id: newId.plan(),
    product_id: productId,
    name,
    status,
    ...(description ? { description } : {}),
    usage_type: 'LICENSED',
    billing_cycles: billingCycles,
    payment_preferences: {
      service_type: 'PREPAID',
      auto_bill_outstanding: autoBill,
      setup_fee: setupFee ? { currency_code: setupFee.currency, value: fromCents(setupFee.cents) } : { currency_code: currency, value: '0.0' },
      setup_fee_failure_action: failureAction,
      payment_failure_threshold: threshold,
    },
    quantity_supported: quantitySupported,
    create_time: now,
    update_time: now,
  };
  store.plans.set(plan.id, plan);
  return plan;
}

function createProduct(store: PaypalStore, body: Json): Product {
  const check = new BodyCheck(body);
  const id = check.string('/id', { min: 6, max: 50 });
  const name = check.string('/name', { required: true, max: 127 });
  const type = check.string('/type', { required: true, oneOf: PRODUCT_TYPES }) as Product['type'] | undefined;
  const optional: Partial<Product> = {};
  for (const field of ['description', 'category', 'image_url', 'home_url'] as const) {
    const value = check.string(`/${field}`, { max: field === 'description' ? 256 : 2000 });
    if (value !== undefined) optional[field] = value;
  }
  check.done(PRODUCTS_DOCS);
  if (!name || !type) throw new Error('unreachable: checked above');
  if (id && store.products.has(id)) {
    throw unprocessable('DUPLICATE_RESOURCE_IDENTIFIER', 'The specified resource identifier already exists.', PRODUCTS_DOCS, '/id');
  }
  const now = paypalTime(store.now());
  const product: Product = { id: id ?? newId.product(), name, type, ...optional, create_time: now, update_time: now };
  store.products.set(product.id, product);
  return product;
}

export function registerPaypalCatalogRoutes(api: FastifyInstance, store: PaypalStore): void {
  api.post('/v1/catalogs/products', async (request, reply) =>
    idempotent(store, request, reply, () => ({ status: 201, body: productJson(store, createProduct(store, requireBody(request.body, PRODUCTS_DOCS))) })),
  );

  api.get<{ Querystring: Query }>('/v1/catalogs/products', async (request) => {
    const { page, totals } = paginate([...store.products.values()], request.query, PRODUCTS_DOCS);
    return {
      products: page.map((product) => {
        const json = productJson(store, product);
        return { id: json.id, name: json.name, ...(json.description ? { description: json.description } : {}), create_time: json.create_time, links: json.links.slice(0, 1) };
      }),
      ...totals,
      links: [{ href: `${store.apiBase()}/v1/catalogs/products?page_size=${request.query.page_size ?? 10}&page=${request.query.page ?? 1}`, rel: 'self', method: 'GET' }],
    };
  });

  api.get<{ Params: { id: string } }>('/v1/catalogs/products/:id', async (request) => {
    const product = store.products.get(request.params.id);
    if (!product) throw resourceNotFound(undefined, undefined, PRODUCTS_DOCS);
    return productJson(store, product);
  });

  api.post('/v1/billing/plans', async (request, reply) =>
    idempotent(store, request, reply, () => ({ status: 201, body: planJson(store, createPlan(store, requireBody(request.body, PLANS_DOCS))) })),
  );

  api.get<{ Querystring: Query }>('/v1/billing/plans', async (request) => {
    const productId = request.query.product_id;
    const plans = [...store.plans.values()].filter((plan) => !productId || plan.product_id === productId);
    const { page, totals } = paginate(plans, request.query, PLANS_DOCS);
    return {
      plans: page.map((plan) => ({
        id: plan.id,
        product_id: plan.product_id,
        name: plan.name,
        status: plan.status,
        ...(plan.description ? { description: plan.description } : {}),
        usage_type: plan.usage_type,
        create_time: plan.create_time,
        links: planJson(store, plan).links.slice(0, 1),
      })),
      ...totals,
      links: [{ href: `${store.apiBase()}/v1/billing/plans?page_size=${request.query.page_size ?? 10}&page=${request.query.page ?? 1}`, rel: 'self', method: 'GET' }],
    };
  });

  api.get<{ Params: { id: string } }>('/v1/billing/plans/:id', async (request) => {
    const plan = store.plans.get(request.params.id);
    if (!plan) throw resourceNotFound(undefined, undefined, PLANS_DOCS);
    return planJson(store, plan);
  });

  for (const [action, status] of [
    ['activate', 'ACTIVE'],
    ['deactivate', 'INACTIVE'],
  ] as const) {
    api.post<{ Params: { id: string } }>(`/v1/billing/plans/:id/${action}`, async (request, reply) => {
      const plan = store.plans.get(request.params.id);
      if (!plan) throw resourceNotFound(undefined, undefined, PLANS_DOCS);
      if (plan.status === status) {
        throw unprocessable('PLAN_STATUS_INVALID', `Invalid plan status for ${action} action; plan status should be ${action === 'activate' ? 'created or inactive' : 'active'}.`, PLANS_DOCS);
      }
      plan.status = status;
      plan.update_time = paypalTime(store.now());
      return reply.code(204).send();
    });
  }
}
