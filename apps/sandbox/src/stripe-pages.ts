import type { FastifyInstance, FastifyReply } from 'fastify';
import { html, page } from './html.ts';
import type { Html } from './html.ts';
import { authenticateCheckout, authenticateInvoice, payCheckout, payInvoiceWithCard } from './stripe-checkout-pay.ts';
import type { CardForm, InvoicePayResult, PayResult } from './stripe-checkout-pay.ts';
import type { StripeRuntime } from './stripe-http.ts';
import { httpUrl } from './sandbox-config.ts';
import { formatDate, formatMoney, intervalText } from './stripe-invoices.ts';
import type { CheckoutSession, Invoice } from './stripe-types.ts';

export const CHECKOUT_PAGE_PREFIX = '/stripe/checkout';
export const INVOICE_PAGE_PREFIX = '/stripe/invoices';

type Form = Record<string, string | undefined>;

const TEST_CARDS_HINT = html`<details>
  <summary>Test cards</summary>
  <ul>
    <li><code>4242 4242 4242 4242</code> pays</li>
    <li><code>4000 0000 0000 0002</code> is declined</li>
    <li><code>4000 0025 0000 3155</code> asks for authentication, then pays; charged again while you are away (renewals) it pays without asking</li>
    <li><code>4000 0027 6000 3184</code> asks for authentication every time, so renewals are declined</li>
    <li><code>4000 0000 0000 9995</code> is declined for insufficient funds</li>
    <li><code>4000 0000 0000 0341</code> pays now, and every later charge (renewals) is declined</li>
  </ul>
  <p class="muted">Any future expiry date and any CVC; both may be left blank.</p>
</details>`;

function cardFields(email: { value: string | null; required: boolean } | null): Html {
  return html`
    ${email
      ? html`<div class="field"><label for="email">Email</label>
          <input type="text" inputmode="email" id="email" name="email" autocomplete="email" value="${email.value ?? ''}"${email.value ? html` readonly` : ''}${email.required ? html` required` : ''}></div>`
      : ''}
    <div class="field"><label for="cardNumber">Card number</label>
      <input type="text" id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" required></div>
    <div class="field"><label for="expiry">Expiration (MM / YY)</label>
      <input type="text" id="expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="MM / YY"></div>
    <div class="field"><label for="cvc">CVC</label>
      <input type="text" id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="CVC"></div>
    <div class="field"><label for="name">Cardholder name</label>
      <input type="text" id="name" name="name" autocomplete="cc-name"></div>`;
}

function errorBlock(message: string | null): Html | string {
  return message ? html`<p class="error" role="alert">${message}</p>` : '';
}

function closedPage(session: CheckoutSession): string {
  const done = session.status === 'complete';
  const success = done && session.success_url ? session.success_url.replace(/\{CHECKOUT_SESSION_ID\}/g, session.id) : null;
  return page(
    done ? 'Payment complete' : 'Checkout session expired',
    html`<span class="badge">Test mode</span>
      <h1>${done ? 'This payment is complete' : 'This Checkout Session is no longer active'}</h1>
      ${success ? html`<p class="center"><a href="${success}">Return to the merchant</a></p>` : ''}`,
  );
}

function checkoutPage(runtime: StripeRuntime, session: CheckoutSession, error: string | null): string {
  const { store } = runtime;
  const lines = store.sessionExtras.get(session.id)?.lineItems ?? [];
  const knownEmail = session.customer ? (store.get('customer', session.customer)?.email ?? null) : session.customer_email;
  const first = lines[0];
  const title = first ? `Subscribe to ${first.description}` : 'Subscribe';
  return page(
    title,
    html`<span class="badge">Test mode</span>
      <h1>${title}</h1>
      <p class="center">${formatMoney(session.amount_total, session.currency)} ${first ? intervalText(first.price) : ''}</p>
      <h2>Order summary</h2>
      <table>
        <thead><tr><th scope="col">Item</th><th scope="col">Qty</th><th scope="col">Price</th></tr></thead>
        <tbody>
          ${lines.map((line) => html`<tr><td>${line.description}</td><td>${line.quantity}</td><td>${formatMoney(line.price.unit_amount, line.currency)} ${intervalText(line.price)}</td></tr>`)}
        </tbody>
        <tfoot><tr><th scope="row" colspan="2">Total due today</th><td>${formatMoney(session.amount_total, session.currency)}</td></tr></tfoot>
      </table>
      <h2>Pay with card</h2>
      ${errorBlock(error)}
      <form method="post" action="${CHECKOUT_PAGE_PREFIX}/${session.id}/pay">
        ${cardFields({ value: knownEmail, required: !knownEmail })}
        <div class="actions"><button type="submit">Pay</button></div>
      </form>
      <form method="post" action="${CHECKOUT_PAGE_PREFIX}/${session.id}/cancel">
        <div class="actions"><button type="submit" class="secondary">Cancel</button></div>
      </form>
      ${TEST_CARDS_HINT}`,
  );
}

function authenticationPage(session: CheckoutSession): string {
  const action = `${CHECKOUT_PAGE_PREFIX}/${session.id}/authenticate`;
  return page(
    'Complete authentication',
    html`<span class="badge">Test mode</span>
      <h1>Complete authentication</h1>
      <p>Your bank asks you to confirm this payment of ${formatMoney(session.amount_total, session.currency)}. This is a test page for 3D Secure.</p>
      <form method="post" action="${action}"><input type="hidden" name="outcome" value="complete">
        <div class="actions"><button type="submit">Complete authentication</button></div></form>
      <form method="post" action="${action}"><input type="hidden" name="outcome" value="fail">
        <div class="actions"><button type="submit" class="secondary">Fail authentication</button></div></form>`,
  );
}

/**
 * Where the invoice page sends the browser once the invoice is paid. Stripe's own hosted invoice
 * page has no return URL: the sandbox's takes `return_url` in its query string (Stripe ignores
 * unknown query parameters), so a demo's buyer who pays there comes back to the product.
 */
function returnUrlOf(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? httpUrl(value) : null;
}

function invoicePage(invoice: Invoice, error: string | null, returnUrl: string | null): string {
  const payable = invoice.status === 'open' && invoice.amount_remaining > 0;
  return page(
    `Invoice ${invoice.number ?? invoice.id}`,
    html`<span class="badge">Test mode</span>
      <h1>Invoice ${invoice.number ?? invoice.id}</h1>
      <p class="center">${formatMoney(invoice.amount_due, invoice.currency)} · ${invoice.status === 'paid' ? 'Paid' : invoice.status === 'open' ? 'Due' : invoice.status}</p>
      <p class="muted center">Issued ${formatDate(invoice.created)}${invoice.customer_email ? html` to ${invoice.customer_email}` : ''}</p>
      <table>
        <thead><tr><th scope="col">Description</th><th scope="col">Amount</th></tr></thead>
        <tbody>${invoice.lines.data.map((line) => html`<tr><td>${line.description}<br><span class="muted">${formatDate(line.period.start)} – ${formatDate(line.period.end)}</span></td><td>${formatMoney(line.amount, line.currency)}</td></tr>`)}</tbody>
        <tfoot><tr><th scope="row">Amount due</th><td>${formatMoney(invoice.amount_remaining, invoice.currency)}</td></tr></tfoot>
      </table>
      ${payable
        ? html`<h2>Pay with card</h2>${errorBlock(error)}
          <form method="post" action="${INVOICE_PAGE_PREFIX}/${invoice.id}/pay">${cardFields(null)}
            ${returnUrl ? html`<input type="hidden" name="return_url" value="${returnUrl}">` : ''}
            <div class="actions"><button type="submit">Pay</button></div></form>${TEST_CARDS_HINT}`
        : returnUrl
          ? html`<p class="center"><a href="${returnUrl}">Return to the merchant</a></p>`
          : ''}`,
  );
}

function invoiceAuthenticationPage(invoice: Invoice): string {
  const action = `${INVOICE_PAGE_PREFIX}/${invoice.id}/authenticate`;
  return page(
    'Complete authentication',
    html`<span class="badge">Test mode</span>
      <h1>Complete authentication</h1>
      <p>Your bank asks you to confirm this payment of ${formatMoney(invoice.amount_remaining, invoice.currency)}. This is a test page for 3D Secure.</p>
      <form method="post" action="${action}"><input type="hidden" name="outcome" value="complete">
        <div class="actions"><button type="submit">Complete authentication</button></div></form>
      <form method="post" action="${action}"><input type="hidden" name="outcome" value="fail">
        <div class="actions"><button type="submit" class="secondary">Fail authentication</button></div></form>`,
  );
}

function notFoundPage(reply: FastifyReply, what: string): FastifyReply {
  return reply.code(404).type('text/html; charset=utf-8').send(page('Not found', html`<h1>${what} not found</h1>`));
}

function formOf(body: unknown): Form {
  return body && typeof body === 'object' ? (body as Form) : {};
}

function cardForm(form: Form): CardForm {
  return { email: form.email, cardNumber: form.cardNumber, expiry: form.expiry, cvc: form.cvc, name: form.name };
}

/** The hosted pages a browser is sent to: Checkout (`session.url`) and the invoice page (`hosted_invoice_url`). */
export function registerStripePages(app: FastifyInstance, runtime: StripeRuntime): void {
  const { store } = runtime;
  const sendPage = (reply: FastifyReply, status: number, body: string) => reply.code(status).type('text/html; charset=utf-8').send(body);

  const answer = (reply: FastifyReply, session: CheckoutSession, result: PayResult): FastifyReply => {
    if (result.kind === 'paid') {
      if (result.redirect) return reply.redirect(result.redirect, 303);
      return sendPage(reply, 200, closedPage(session));
    }
    if (result.kind === 'authenticate') return sendPage(reply, 200, authenticationPage(session));
    if (result.kind === 'closed') return sendPage(reply, 409, closedPage(session));
    return sendPage(reply, result.status, checkoutPage(runtime, session, result.message));
  };

  app.get<{ Params: { id: string } }>(`${CHECKOUT_PAGE_PREFIX}/:id`, async (request, reply) => {
    const session = store.get('checkout.session', request.params.id);
    if (!session) return notFoundPage(reply, 'Checkout Session');
    if (session.status !== 'open') return sendPage(reply, 200, closedPage(session));
    if (store.sessionExtras.get(session.id)?.awaitingAuthentication) return sendPage(reply, 200, authenticationPage(session));
    return sendPage(reply, 200, checkoutPage(runtime, session, null));
  });

  app.post<{ Params: { id: string } }>(`${CHECKOUT_PAGE_PREFIX}/:id/pay`, async (request, reply) => {
    const session = store.get('checkout.session', request.params.id);
    if (!session) return notFoundPage(reply, 'Checkout Session');
    return answer(reply, session, payCheckout(runtime, session, cardForm(formOf(request.body))));
  });

  app.post<{ Params: { id: string } }>(`${CHECKOUT_PAGE_PREFIX}/:id/authenticate`, async (request, reply) => {
    const session = store.get('checkout.session', request.params.id);
    if (!session) return notFoundPage(reply, 'Checkout Session');
    return answer(reply, session, authenticateCheckout(runtime, session, formOf(request.body).outcome !== 'fail'));
  });

  app.post<{ Params: { id: string } }>(`${CHECKOUT_PAGE_PREFIX}/:id/cancel`, async (request, reply) => {
    const session = store.get('checkout.session', request.params.id);
    if (!session) return notFoundPage(reply, 'Checkout Session');
    const extras = store.sessionExtras.get(session.id);
    if (extras) extras.awaitingAuthentication = null;
    if (session.cancel_url) return reply.redirect(session.cancel_url, 303);
    return reply.redirect(`${CHECKOUT_PAGE_PREFIX}/${session.id}`, 303);
  });

  app.get<{ Params: { id: string }; Querystring: { return_url?: string } }>(`${INVOICE_PAGE_PREFIX}/:id`, async (request, reply) => {
    const invoice = store.get('invoice', request.params.id);
    if (!invoice) return notFoundPage(reply, 'Invoice');
    if (store.invoiceAuthentications.has(invoice.id)) return sendPage(reply, 200, invoiceAuthenticationPage(invoice));
    return sendPage(reply, 200, invoicePage(invoice, null, returnUrlOf(request.query.return_url)));
  });

  const invoiceAnswer = (reply: FastifyReply, invoice: Invoice, result: InvoicePayResult, returnUrl: string | null): FastifyReply => {
    if (result.kind === 'paid') return reply.redirect(returnUrl ?? `${INVOICE_PAGE_PREFIX}/${invoice.id}`, 303);
    if (result.kind === 'authenticate') return sendPage(reply, 200, invoiceAuthenticationPage(invoice));
    return sendPage(reply, result.status, invoicePage(invoice, result.message, returnUrl));
  };

  app.post<{ Params: { id: string } }>(`${INVOICE_PAGE_PREFIX}/:id/pay`, async (request, reply) => {
    const invoice = store.get('invoice', request.params.id);
    if (!invoice) return notFoundPage(reply, 'Invoice');
    const form = formOf(request.body);
    const returnUrl = returnUrlOf(form.return_url);
    return invoiceAnswer(reply, invoice, payInvoiceWithCard(runtime, invoice, cardForm(form), returnUrl), returnUrl);
  });

  app.post<{ Params: { id: string } }>(`${INVOICE_PAGE_PREFIX}/:id/authenticate`, async (request, reply) => {
    const invoice = store.get('invoice', request.params.id);
    if (!invoice) return notFoundPage(reply, 'Invoice');
    const returnUrl = store.invoiceAuthentications.get(invoice.id)?.returnUrl ?? null;
    return invoiceAnswer(reply, invoice, authenticateInvoice(runtime, invoice, formOf(request.body).outcome !== 'fail'), returnUrl);
  });
}
