import type { FastifyInstance, FastifyReply } from 'fastify';
import { Html, html, page } from './html.ts';
import { approve, declineApproval } from './paypal-billing.ts';
import { isObject } from './paypal-errors.ts';
import type { PaypalWorld } from './paypal-events.ts';
import type { Approval, BillingCycle, Payer, Plan, PaypalStore } from './paypal-store.ts';
import { PAYPAL_PREFIX, newId } from './paypal-store.ts';

export const APPROVAL_PATH = '/webapps/billing/subscriptions';
const CONSENT_PATH = `${APPROVAL_PATH}/consent`;
export const DEFAULT_BUYER_EMAIL = 'sb-buyer@personal.example.com';

// PayPal's own colours, so the page reads as "now you are at PayPal" in a demo.
const PAYPAL_STYLE = new Html(`<style>
:root { --bg:#f5f7fa; --card:#fff; --text:#001435; --muted:#515354; --accent:#0070e0; --accent-hover:#005ea6; --line:#dbdcdd; color-scheme: light; }
.brand { font-weight:800; font-size:26px; text-align:center; margin:0; color:#003087; letter-spacing:-.5px; }
.brand span { color:#0070e0; }
dl.terms { display:grid; grid-template-columns:auto 1fr; gap:6px 16px; margin:16px 0; }
dl.terms dt { color:var(--muted); font-size:13px; }
dl.terms dd { margin:0; font-weight:600; }
.buttons { display:flex; flex-direction:column; gap:10px; margin-top:20px; }
.buttons button { border-radius:24px; padding:12px 16px; font-size:16px; }
.buttons button.secondary { color:var(--accent); }
input[type=email] { font:inherit; width:100%; padding:10px; border:1px solid #999; border-radius:4px; background:#fff; color:var(--text); }
</style>`);

const UNIT_WORDS: Record<BillingCycle['frequency']['interval_unit'], string> = { DAY: 'day', WEEK: 'week', MONTH: 'month', YEAR: 'year' };

/** "$2.25 USD / month", "$6.30 USD every 3 months", with the cycle count when it is finite. */
export function describeCycle(cycle: BillingCycle): string {
  const { value, currency_code: currency } = cycle.pricing_scheme.fixed_price;
  const { interval_unit: unit, interval_count: count } = cycle.frequency;
  const every = count === 1 ? `/ ${UNIT_WORDS[unit]}` : `every ${count} ${UNIT_WORDS[unit]}s`;
  const price = Number(value) === 0 ? 'Free' : `${currency === 'USD' ? '$' : ''}${Number(value).toFixed(2)} ${currency}`;
  const times = cycle.total_cycles === 0 ? '' : ` for ${cycle.total_cycles} payment${cycle.total_cycles === 1 ? '' : 's'}`;
  return `${price} ${every}${times}${cycle.tenure_type === 'TRIAL' ? ' (trial)' : ''}`;
}

function planTerms(store: PaypalStore, plan: Plan): Html {
  const product = store.products.get(plan.product_id);
  const cycles = [...plan.billing_cycles].sort((a, b) => a.sequence - b.sequence);
  return html`<dl class="terms">
    ${product ? html`<dt>Product</dt><dd>${product.name}</dd>` : ''}
    <dt>Plan</dt><dd data-plan-id="${plan.id}">${plan.name}</dd>
    <dt>Price</dt><dd>${cycles.map((cycle, i) => html`${i > 0 ? html`<br>` : ''}${describeCycle(cycle)}`)}</dd>
  </dl>`;
}

function withParams(url: string, params: Record<string, string>): string {
  const target = new URL(url);
  for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
  return target.toString();
}

function sendPage(reply: FastifyReply, status: number, title: string, body: Html) {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .send(page(title, html`${PAYPAL_STYLE}<p class="brand">Pay<span>Pal</span></p><p class="center"><span class="badge">Sandbox – no real money moves</span></p>${body}`));
}

function buyerFor(store: PaypalStore, approval: Approval, email: string | null): Payer {
  const subscription = store.subscriptions.get(approval.subscriptionId);
  if (subscription?.payer) return subscription.payer;
  const given = isObject(subscription?.subscriber?.name) ? subscription.subscriber.name : {};
  return {
    payer_id: newId.payer(),
    email_address: email || (typeof subscription?.subscriber?.email_address === 'string' ? subscription.subscriber.email_address : DEFAULT_BUYER_EMAIL),
    name: {
      given_name: typeof given.given_name === 'string' ? given.given_name : 'John',
      surname: typeof given.surname === 'string' ? given.surname : 'Doe',
    },
  };
}

/**
 * Decides an approval as the buyer would on the page: the same path for the form and for the
 * control route, so both leave the subscription in the same state with the same events.
 */
export function decideApproval(world: PaypalWorld, approval: Approval, decision: 'approve' | 'cancel', email: string | null = null): string | null {
  const params = { subscription_id: approval.subscriptionId, ba_token: approval.baToken, token: approval.token };
  if (decision === 'cancel') {
    declineApproval(world, approval);
    return approval.cancelUrl ? withParams(approval.cancelUrl, params) : null;
  }
  approve(world, approval, buyerFor(world.store, approval, email));
  return approval.returnUrl ? withParams(approval.returnUrl, params) : null;
}

/** The buyer's side: PayPal's hosted approval page at the subscription's `approve` link. */
export function registerPaypalApprovalPages(api: FastifyInstance, world: PaypalWorld): void {
  const { store } = world;

  const show = async (request: { query: Record<string, string | undefined> }, reply: FastifyReply) => {
    const approval = store.approvals.get(request.query.ba_token ?? '');
    const subscription = approval ? store.subscriptions.get(approval.subscriptionId) : undefined;
    const plan = approval ? store.plans.get(approval.planId) : undefined;
    if (!approval || !subscription || !plan) {
      return sendPage(reply, 404, 'PayPal', html`<h1>This link has expired</h1><p class="center muted">The subscription was already approved or cancelled, or the link is wrong. Return to the merchant and start again.</p>`);
    }
    const merchant = approval.brandName ?? 'the merchant';
    const current = approval.kind === 'revise' ? store.plans.get(subscription.planId) : undefined;
    const email = subscription.payer?.email_address ?? (typeof subscription.subscriber?.email_address === 'string' ? subscription.subscriber.email_address : DEFAULT_BUYER_EMAIL);
    const agree = approval.userAction === 'CONTINUE' ? 'Continue' : 'Agree & Subscribe';
    const body = html`
      <h1>${approval.kind === 'revise' ? 'Review your plan change' : 'Log in to PayPal'}</h1>
      <p class="center muted">${merchant} ${approval.kind === 'revise' ? 'asks you to agree to new subscription terms.' : 'would like to set up automatic payments.'}</p>
      ${current ? html`<h2>Current plan</h2>${planTerms(store, current)}<h2>New plan</h2>` : ''}
      ${planTerms(store, plan)}
      <form method="post" action="${PAYPAL_PREFIX}${CONSENT_PATH}">
        <input type="hidden" name="ba_token" value="${approval.baToken}">
        ${approval.kind === 'create' && !subscription.payer ? html`<div class="field"><label for="email">Email</label><input type="email" id="email" name="email" value="${email}" autocomplete="email"></div>` : ''}
        <div class="buttons">
          <button type="submit" name="decision" value="approve">${agree}</button>
          <button type="submit" name="decision" value="cancel" class="secondary">Cancel and return to ${merchant}</button>
        </div>
      </form>
      <p class="muted">Subscription <code class="id">${subscription.id}</code>. By agreeing you allow ${merchant} to charge your PayPal account for future payments until you cancel.</p>`;
    return sendPage(reply, 200, 'Log in to your PayPal account', body);
  };

  api.get<{ Querystring: Record<string, string | undefined> }>(APPROVAL_PATH, show);
  api.get<{ Querystring: Record<string, string | undefined> }>(`${APPROVAL_PATH}/update`, show);

  api.post<{ Body: unknown }>(CONSENT_PATH, async (request, reply) => {
    const form = isObject(request.body) ? request.body : {};
    const approval = store.approvals.get(typeof form.ba_token === 'string' ? form.ba_token : '');
    if (!approval) {
      return sendPage(reply, 404, 'PayPal', html`<h1>This link has expired</h1><p class="center muted">The subscription was already approved or cancelled.</p>`);
    }
    const decision = form.decision === 'cancel' ? 'cancel' : 'approve';
    const email = typeof form.email === 'string' && /^.+@[^@]+$/.test(form.email) ? form.email : null;
    const target = decideApproval(world, approval, decision, email);
    if (target) return reply.redirect(target, 303);
    return sendPage(
      reply,
      200,
      'PayPal',
      decision === 'approve'
        ? html`<h1>You're subscribed</h1><p class="center muted">You can close this window.</p>`
        : html`<h1>You cancelled</h1><p class="center muted">Nothing was set up. You can close this window.</p>`,
    );
  });
}
