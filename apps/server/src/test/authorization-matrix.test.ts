/**
 * The authorisation matrix: every route of the OpenAPI document, tried by every kind of caller,
 * against a table that says who may call it (SPEC §6, DESIGN §3). The table is the spec: where the
 * code lets through a caller the table refuses, the cell goes to KNOWN_HOLES until it is fixed.
 *
 * Server A (Pixel Forge) is the server in every path; server B (Study Hall) is the other one.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { SERVICE_NAMES } from '@ticket/contracts';
import Stripe from 'stripe';
import {
  createTestApp,
  engines,
  interactionSigner,
  REDIRECT_URI,
  resetSandbox,
  startTestSandbox,
  STRIPE_WEBHOOK_SECRET,
  testConfig,
  type Sandbox,
  type TestContext,
} from './harness';
import { GUILDS, USERS } from './demo-world';
import { capturePaypalDelivery, payCheckout } from './payment-providers';
import {
  A,
  AUTHOR,
  B,
  CALLERS,
  draftPanel,
  EXTRA_MEMBERS,
  fresh,
  isUserKind,
  multipart,
  pause,
  PLATFORM,
  platformLimited,
  textQuestion,
  World,
  type ApiRequest,
  type Who,
} from './authorization-world';

// ---------------------------------------------------------------------------------------------
// Who may call what
// ---------------------------------------------------------------------------------------------

/**
 * The notations of the table, as the callers each lets through ("key" is A's own API key,
 * "otherKey" B's; "otherAdmin" is B's admin, who holds no role in A):
 *
 *             anon  member  staff  admin  otherAdmin  key  otherKey  operator
 *   open       ✓     ✓       ✓      ✓      ✓           ✓    ✓         ✓
 *   any        ·     ✓       ✓      ✓      ✓           ✓    ✓         ✓
 *   signedIn   ·     ✓       ✓      ✓      ✓           ·    ·         ·
 *   staff+     ·     ·       ✓      ✓      ·           ✓    ·         ✓
 *   admin+     ·     ·       ·      ✓      ·           ✓    ·         ✓
 *   admin      ·     ·       ·      ✓      ·           ·    ·         ✓     (A's admins, not A's API key)
 *   staffUser  ·     ·       ✓      ✓      ·           ·    ·         ·     (A's staff who signed in: someone to bill)
 *   operator   ·     ·       ·      ·      ·           ·    ·         ✓
 */
const ACCESS = {
  open: CALLERS,
  any: ['member', 'staff', 'admin', 'otherAdmin', 'key', 'otherKey', 'operator'],
  signedIn: ['member', 'staff', 'admin', 'otherAdmin'],
  'staff+': ['staff', 'admin', 'key', 'operator'],
  'admin+': ['admin', 'key', 'operator'],
  admin: ['admin', 'operator'],
  staffUser: ['staff', 'admin'],
  operator: ['operator'],
} as const satisfies Record<string, readonly Who[]>;
type Access = keyof typeof ACCESS;

/** A request to a route: path params (serverId is A unless given), query, body; `token` replaces the caller's own credential. */
interface Sample {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  raw?: ApiRequest['raw'];
  token?: string | null;
}
type SampleOf = (w: World, who: Who) => Sample | Promise<Sample>;

interface Row {
  who: Access;
  /** A valid request, made anew for each caller (destructive rows make their own record each time). */
  req?: SampleOf;
  /** Puts back what the call may have changed for the next caller. */
  after?: (w: World) => Promise<void>;
}
const r = (who: Access, req?: SampleOf, after?: Row['after']): Row => ({ who, req, after });

const today = new Date().toISOString().slice(0, 10);
const week = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
const range = { startDate: week, endDate: today };
const page = { Page: '1', Amount: '5' };
const smile = { id: null, name: '👍' };
const setting = (w: World, subjectId = w.a.subject.subjectId) => ({ serverId: A, subjectId, path: 'disableCreation', operation: 'set', value: false });
const ticket = (w: World) => ({ ticketId: w.a.ticket.ticketId });
const message = (w: World) => ({ ticketId: w.a.ticket.ticketId, messageId: w.a.message.messageId });
const signer = interactionSigner();
const stripe = new Stripe('sk_test_matrix');
/** A card checkout of server A, started by A's admin, whose token the result page would send. */
const checkoutToken = async (w: World) => {
  const response = await w.inject({
    method: 'POST',
    url: `/api/payment/servers/${A}/subscription`,
    token: w.tokens.admin,
    body: { provider: 'stripe', type: 'premium', interval: 'monthly' },
  });
  if (response.statusCode !== 201) throw new Error(`checkout: ${response.statusCode} ${response.body}`);
  return response.json<{ session: { id: string } }>().session.id;
};
/** A subscription the admin (Bruno) paid for Night Owls, which he owns: what /@me calls act on. Others get an unknown id. */
const paidSubscription = async (w: World, who: Who, type: 'premium' | 'enterprise' = 'premium') => {
  if (who !== 'admin') return { body: { subscriptionId: 'not-yours' } };
  const created = await w.inject({
    method: 'POST',
    url: `/api/payment/servers/${GUILDS.nightOwls}/subscription`,
    token: w.tokens.admin,
    body: { provider: 'stripe', type, interval: 'monthly' },
  });
  if (created.statusCode !== 201) throw new Error(`checkout: ${created.statusCode} ${created.body}`);
  const { session } = created.json<{ session: { id: string; url: string } }>();
  await payCheckout(session.url);
  const done = await w.inject({ method: 'POST', url: `/api/payment/servers/${GUILDS.nightOwls}/subscription/complete?provider=stripe&token=${session.id}`, token: w.tokens.admin });
  if (done.json<{ status: string }>().status !== 'complete') throw new Error(`complete: ${done.body}`);
  const mine = (await w.inject({ method: 'GET', url: '/api/payment/@me/subscriptions', token: w.tokens.admin })).json<{ id: string; serverId?: string }[]>();
  return { body: { subscriptionId: mine.find((s) => s.serverId === GUILDS.nightOwls)!.id } };
};
/**
 * A plan change the admin (Bruno) confirmed at the card provider for a subscription of `serverId`
 * (A unless told), as the update result page would name it; already verified, so answering it asks
 * the provider nothing. Everyone sends the same token: only Bruno's own change of that server is known to them.
 */
const planChangeToken = async (w: World, serverId: string = A) => {
  const at = new Date().toISOString();
  const id = fresh('matrix-change-subscription');
  const token = fresh('in_matrix');
  const { db } = w.ctx.built.database;
  await db
    .insertInto('subscriptions')
    .values({ id, user_id: USERS.bruno, provider: 'stripe', provider_subscription_id: `sub_${id}`, state: 'canceled', plan_type: 'enterprise', plan_interval: 'monthly', server_id: serverId, applied: 0, cancel_at_period_end: 0, created_at: at, updated_at: at })
    .execute();
  await db
    .insertInto('plan_changes')
    .values({ id: fresh('matrix-change'), provider: 'stripe', token, subscription_id: id, server_id: serverId, user_id: USERS.bruno, plan_type: 'enterprise', plan_interval: 'monthly', provider_plan_id: null, status: 'complete', created_at: at, updated_at: at })
    .execute();
  return token;
};
/** A PayPal delivery, signed by the sandbox's PayPal, of a subscription started for Night Owls (made once, sent by every caller). */
const paypalDeliveries = new WeakMap<World, Promise<{ payload: string; headers: Record<string, string> }>>();
const paypalEvent = (w: World) => {
  let delivery = paypalDeliveries.get(w);
  if (!delivery) {
    delivery = capturePaypalDelivery(w.sandbox, () =>
      w.inject({ method: 'POST', url: `/api/payment/servers/${GUILDS.nightOwls}/subscription`, token: w.tokens.admin, body: { provider: 'paypal', type: 'premium', interval: 'monthly' } }),
    );
    paypalDeliveries.set(w, delivery);
  }
  return delivery.then((raw) => ({ raw }));
};
/** A Stripe event of a kind the product does not act on, signed as Stripe signs it. */
const stripeEvent = () => {
  const payload = JSON.stringify({ id: fresh('evt_matrix'), object: 'event', type: 'customer.created', created: Math.floor(Date.now() / 1000), data: { object: { id: 'cus_matrix', object: 'customer' } } });
  return { raw: { payload, headers: { 'content-type': 'application/json', 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_WEBHOOK_SECRET }) } } };
};
/** A's configuration file as its export gives it (read by the operator). */
const configurationOfA = (w: World) => w.expect<unknown>(200, 'GET', `/api/settings/servers/${A}/configuration`);
/** Where the samples' webhook endpoints point: nothing listens there, so an attempt fails at once. */
const HOOK_URL = 'http://127.0.0.1:9/matrix-hook';
/** An endpoint of A and one of B, each with a failed delivery, made once (by the operator) and kept for the rows that read or resend. */
const webhookRecords = new WeakMap<World, Promise<Record<'a' | 'b', { endpointId: string; deliveryId: string }>>>();
const webhooksOf = (w: World) => {
  let records = webhookRecords.get(w);
  if (!records) {
    const make = async (server: string) => {
      const { endpointId } = await w.expect<{ endpointId: string }>(201, 'POST', `/api/settings/servers/${server}/webhooks`, { url: HOOK_URL, events: ['ticket.closed'] });
      const at = new Date().toISOString();
      const deliveryId = fresh('matrix-delivery');
      await w.ctx.built.database.db
        .insertInto('webhook_deliveries')
        .values({ id: deliveryId, endpoint_id: endpointId, server_id: server, event_id: fresh('evt_matrix'), event_type: 'ticket.closed', payload: '{}', status: 'failed', attempts: 1, history: '[]', next_attempt_at: null, first_attempt_at: at, last_attempt_at: at, last_status_code: 500, last_error: null, delivered_at: null, claimed_until: null, claim_token: null, redelivery_of: null, created_at: at, updated_at: at })
        .execute();
      return { endpointId, deliveryId };
    };
    records = (async () => ({ a: await make(A), b: await make(B) }))();
    webhookRecords.set(w, records);
  }
  return records;
};
const webhookOfA = async (w: World) => ({ endpointId: (await webhooksOf(w)).a.endpointId });
/** Endpoints the rows made (beyond the kept ones) go again, so the servers stay below their endpoint limit. */
const tidyWebhooks = async (w: World) => {
  const { a, b } = await webhooksOf(w);
  await w.ctx.built.database.db.deleteFrom('webhook_endpoints').where('server_id', 'in', [A, B]).where('id', 'not in', [a.endpointId, b.endpointId]).execute();
};
/** The sandbox's white-label application of Study Hall (apps/sandbox/fixtures/demo.json): A's bot in the samples. */
const WHITELABEL_TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDEwMQ.E--lXY.A3AbhSLdCfjpzJY3v-QUqFoMAqo6qhdTLY5tuE';
/** A's white-label bot, set up by the operator unless it has one (a row before may have removed it). */
const whitelabelOfA = async (w: World) => {
  const found = await w.inject({ method: 'GET', url: `/api/deployment/whitelabel/${A}`, token: w.tokens.operator });
  if (found.statusCode === 404) await w.expect(201, 'POST', `/api/deployment/whitelabel/${A}`, { token: WHITELABEL_TOKEN });
  return {};
};

/**
 * One row per route of the OpenAPI document, keyed "METHOD path" as the document has it.
 *
 * Where the code declares more than the product should allow, the row says what the product
 * should do. Notes on rows whose declared access is wider than the row:
 * - files upload / clone / ticket files are 'any' in the code because the ticket's own
 *   participants may use them too; the samples' ticket has none of the callers in it, so for
 *   the callers here they are staff+.
 * - POST /users is 'any' without a serverId (public profiles); with one, as here, it is staff+.
 * - GET /files/{fileId}/{fileName} is open because the file's token alone opens it; without the
 *   token, as here, only those who may see the ticket get it (others: 404).
 */
const MATRIX: Record<string, Row> = {
  // authentication
  'GET /api/authentication/login/config': r('open'),
  'POST /api/authentication/user': r('open', async (w) => ({ body: { code: await w.consent(USERS.eli), redirectUri: REDIRECT_URI } })),
  'DELETE /api/authentication/user': r('signedIn', async (w, who) => (isUserKind(who) ? { token: (await w.freshSession(who)).token } : {})),
  'POST /api/authentication/user/refresh': r('signedIn'),
  'POST /api/authentication/user/refresh/bypass': r('signedIn'),
  'POST /api/authentication/user/refresh/force': r('signedIn'),
  'GET /api/authentication/user/sessions': r('signedIn'),
  'DELETE /api/authentication/user/sessions/{sessionId}': r('signedIn', async (w, who) => ({
    params: { sessionId: isUserKind(who) ? (await w.freshSession(who)).id : randomUUID() },
  })),
  'POST /api/authentication/': r('open', (w) => ({ body: { accessKey: w.tokens.member, type: 'Bearer' } })),
  'GET /api/authentication/api/{serverId}': r('admin'),
  'POST /api/authentication/api/{serverId}': r('admin', undefined, (w) => w.renewKey()),
  'DELETE /api/authentication/api/{serverId}': r('admin', undefined, (w) => w.renewKey()),
  'GET /api/authentication/api/{serverId}/calls': r('admin+', () => ({ query: { Page: '1', Amount: '5', status: 'error' } })),

  // server data
  'POST /api/server/servers/bulk': r('any', () => ({ body: { ids: [A] } })),
  'POST /api/server/servers/discord': r('operator', () => ({ body: { serverId: '1300000000000000999', name: 'Matrix Hall', ownerId: USERS.alice } })),
  'GET /api/server/servers/{serverId}': r('staff+'),
  'GET /api/server/servers/{serverId}/channels': r('staff+'),
  'GET /api/server/servers/{serverId}/emojis': r('staff+'),
  'GET /api/server/servers/{serverId}/roles': r('staff+'),
  'GET /api/server/testimonials': r('open'),
  'POST /api/server/users/bulk': r('staff+', () => ({ query: { serverId: A }, body: { ids: [USERS.eli] } })),
  'GET /api/server/users/{id}': r('staff+', () => ({ params: { id: USERS.eli }, query: { serverId: A } })),
  'POST /api/server/users': r('staff+', () => ({ body: { ids: [USERS.eli], serverId: A } })),
  'POST /api/server/users/search': r('staff+', () => ({ body: { term: 'e', serverId: A } })),

  // settings: subjects, server settings, form questions, panels
  'POST /api/settings/servers/{serverId}/subjects': r('admin+', () => ({ body: { name: fresh('Matrix subject') } })),
  'GET /api/settings/servers/{serverId}/subjects': r('staff+'),
  'GET /api/settings/servers/{serverId}/subjects/me': r('staff+'),
  'PATCH /api/settings/servers/{serverId}/subjects/bulk': r('admin+', (w) => ({ body: { updates: [setting(w)] } })),
  'GET /api/settings/servers/{serverId}/subjects/{subjectId}': r('staff+', (w) => ({ params: { subjectId: w.a.subject.subjectId } })),
  'PATCH /api/settings/servers/{serverId}/subjects/{subjectId}': r('admin+', (w) => ({ params: { subjectId: w.a.subject.subjectId }, body: setting(w) })),
  'DELETE /api/settings/servers/{serverId}/subjects/{subjectId}': r('admin+', async (w) => ({ params: { subjectId: (await w.newSubject(A)).subjectId } })),
  'POST /api/settings/servers/{serverId}/settings': r('admin+', async (w) => {
    await w.ctx.built.database.db.deleteFrom('server_settings').where('server_id', '=', A).execute(); // as before the bot's first report
    return { body: {} };
  }),
  'GET /api/settings/servers/{serverId}/settings': r('staff+'),
  'PATCH /api/settings/servers/{serverId}/settings': r('admin+', () => ({ body: { serverId: A, path: 'language', operation: 'set', value: 'en' } })),
  'PUT /api/settings/servers/{serverId}/templates': r('admin+', (w) => ({ body: { subjectId: w.a.subject.subjectId, template: textQuestion(fresh('q')) } })),
  'GET /api/settings/servers/{serverId}/templates': r('staff+'),
  'PATCH /api/settings/servers/{serverId}/templates/bulk': r('admin+', (w) => ({ body: [{ ...textQuestion('order'), questionId: w.a.template.questionId }] })),
  'GET /api/settings/servers/{serverId}/templates/{templateId}': r('staff+', (w) => ({ params: { templateId: w.a.template.questionId } })),
  'PATCH /api/settings/servers/{serverId}/templates/{templateId}': r('admin+', (w) => ({ params: { templateId: w.a.template.questionId }, body: textQuestion('order') })),
  'DELETE /api/settings/servers/{serverId}/templates/{templateId}': r('admin+', async (w) => ({
    params: { templateId: (await w.newTemplate(A, w.a.subject.subjectId)).questionId },
  })),
  'POST /api/settings/servers/{serverId}/panels': r('admin+', (w) => ({ body: draftPanel(w.a.subject.subjectId) })),
  'GET /api/settings/servers/{serverId}/panels': r('admin+'),
  'GET /api/settings/servers/{serverId}/panels/{id}': r('admin+', (w) => ({ params: { id: w.a.panel.id } })),
  'PATCH /api/settings/servers/{serverId}/panels/{id}': r('admin+', (w) => ({ params: { id: w.a.panel.id }, body: draftPanel(w.a.subject.subjectId) })),
  'DELETE /api/settings/servers/{serverId}/panels/{id}': r('admin+', async (w) => ({ params: { id: (await w.newPanel(A, w.a.subject.subjectId)).id } })),
  'POST /api/settings/servers/{serverId}/panels/{id}/resend': r('admin+', (w) => ({ params: { id: w.a.sentPanel.id } })),
  'GET /api/settings/servers/{serverId}/audit-log': r('admin'),
  'POST /api/settings/bulk/settings': r('operator', () => ({ body: { ids: [A] } })),
  'POST /api/settings/bulk/subjects': r('operator', (w) => ({ body: { ids: [w.a.subject.subjectId] } })),
  'GET /api/settings/': r('operator'),
  // settings: the configuration file; the import takes A's own export, which changes nothing, so A stays as the other rows expect it
  'GET /api/settings/servers/{serverId}/configuration': r('admin+'),
  'POST /api/settings/servers/{serverId}/configuration/preview': r('admin+', async (w) => ({ body: await configurationOfA(w) })),
  'POST /api/settings/servers/{serverId}/configuration': r('admin+', async (w) => ({ body: await configurationOfA(w) })),
  // settings: outgoing webhooks (Enterprise; A and B are)
  'GET /api/settings/servers/{serverId}/webhooks': r('admin+'),
  'POST /api/settings/servers/{serverId}/webhooks': r('admin+', () => ({ body: { url: HOOK_URL, events: ['ticket.opened'] } }), tidyWebhooks),
  'GET /api/settings/servers/{serverId}/webhooks/{endpointId}': r('admin+', async (w) => ({ params: await webhookOfA(w) })),
  'PATCH /api/settings/servers/{serverId}/webhooks/{endpointId}': r('admin+', async (w) => ({ params: await webhookOfA(w), body: { description: 'Matrix' } })),
  'DELETE /api/settings/servers/{serverId}/webhooks/{endpointId}': r(
    'admin+',
    async (w) => ({ params: { endpointId: (await w.expect<{ endpointId: string }>(201, 'POST', `/api/settings/servers/${A}/webhooks`, { url: HOOK_URL, events: ['ticket.opened'] })).endpointId } }),
    tidyWebhooks,
  ),
  'POST /api/settings/servers/{serverId}/webhooks/{endpointId}/secret': r('admin+', async (w) => ({ params: await webhookOfA(w) })),
  'GET /api/settings/servers/{serverId}/webhooks/{endpointId}/deliveries': r('admin+', async (w) => ({ params: await webhookOfA(w), query: page })),
  'POST /api/settings/servers/{serverId}/webhooks/{endpointId}/test': r('admin+', async (w) => ({ params: await webhookOfA(w) })),
  'POST /api/settings/servers/{serverId}/webhooks/{endpointId}/deliveries/{deliveryId}/resend': r('admin+', async (w) => {
    const { a } = await webhooksOf(w);
    return { params: { endpointId: a.endpointId, deliveryId: a.deliveryId } };
  }),

  // support: the platform's interactions, tickets, messages, statistics, personal tickets
  'POST /api/support/discord': r('open', () => {
    const body = JSON.stringify({ type: 1 });
    return { raw: { payload: body, headers: signer.headers(body) } };
  }),
  'GET /api/support/servers/{serverId}/tickets': r('staff+', () => ({ query: page })),
  'POST /api/support/servers/{serverId}/tickets': r('staff+', (w) => ({ body: { ticketName: fresh('ticket'), subjectId: w.a.subject.subjectId, authorId: AUTHOR } })),
  'POST /api/support/servers/{serverId}/search': r('staff+', () => ({ query: page, body: { text: 'ticket' } })),
  'GET /api/support/servers/{serverId}/tickets/{ticketId}': r('staff+', (w) => ({ params: ticket(w) })),
  'PUT /api/support/servers/{serverId}/tickets/{ticketId}': r('staff+', (w) => ({ params: ticket(w), body: { ticketName: 'billing-question' } })),
  'DELETE /api/support/servers/{serverId}/tickets/{ticketId}': r('admin+', async (w) => ({
    params: { ticketId: (await w.newTicket(A, w.a.subject.subjectId)).ticketId },
  })),
  'POST /api/support/servers/{serverId}/tickets/{ticketId}/member': r('staff+', (w) => ({ params: ticket(w), body: { userId: EXTRA_MEMBERS.added } })),
  'DELETE /api/support/servers/{serverId}/tickets/{ticketId}/member': r('staff+', async (w) => {
    await w.addMember(A, w.a.ticket.ticketId, EXTRA_MEMBERS.removed);
    return { params: ticket(w), body: { userId: EXTRA_MEMBERS.removed } };
  }),
  'POST /api/support/servers/{serverId}/tickets/{ticketId}/messages': r('staff+', (w) => ({
    params: ticket(w),
    body: { message: { content: 'Looking into it' }, messageType: 'Staff', authorId: AUTHOR },
  })),
  'PUT /api/support/servers/{serverId}/tickets/{ticketId}/messages/{messageId}': r('staff+', (w) => ({ params: message(w), body: { message: { content: 'charged twice' } } })),
  'DELETE /api/support/servers/{serverId}/tickets/{ticketId}/messages/{messageId}': r('staff+', async (w) => ({
    params: { ...ticket(w), messageId: (await w.newMessage(A, w.a.ticket.ticketId)).messageId },
  })),
  'POST /api/support/servers/{serverId}/tickets/{ticketId}/messages/{messageId}/reactions': r('staff+', (w) => ({ params: message(w), body: { reactorId: AUTHOR, emoji: smile } })),
  'DELETE /api/support/servers/{serverId}/tickets/{ticketId}/messages/{messageId}/reactions': r('staff+', (w) => ({ params: message(w), body: { reactorId: AUTHOR, emoji: smile } })),
  'GET /api/support/servers/{serverId}/subjects': r('staff+', () => ({ query: page })),
  'GET /api/support/admin/subject-count/{subjectId}': r('operator', (w) => ({ params: { subjectId: w.a.subject.subjectId } })),
  'POST /api/support/interactions': r('operator', () => ({ body: { type: 1, id: fresh('interaction') } })),
  'POST /api/support/servers/{serverId}/events': r('operator', () => ({ body: { eventId: fresh('event'), type: 'channelsChanged' } })),
  'GET /api/support/servers/{serverId}/ticket-channels': r('operator'),
  'GET /api/support/servers/{serverId}/stats/daily/tickets': r('staff+', () => ({ query: range })),
  'GET /api/support/servers/{serverId}/stats/daily/messages': r('staff+', () => ({ query: range })),
  'GET /api/support/servers/{serverId}/stats/daily/response-time': r('staff+', () => ({ query: range })),
  'GET /api/support/servers/{serverId}/stats/top/simple': r('staff+'),
  'GET /api/support/stats': r('open'),
  'GET /api/support/public/servers/{serverId}/stats': r('open', async (w) => {
    // Anyone may read them once A's admins made them public (404 before, as for an unknown server).
    const at = new Date().toISOString();
    await w.ctx.built.database.db
      .insertInto('server_settings')
      .values({ server_id: A, language: 'en', public_stats: 1, created_at: at, updated_at: at })
      .onConflict((oc) => oc.column('server_id').doUpdateSet({ public_stats: 1 }))
      .execute();
    return {};
  }),
  'GET /api/support/servers/{serverId}/stats/top/subjects': r('staff+', () => ({ query: page })),
  'GET /api/support/servers/{serverId}/stats/top/supporters': r('staff+', () => ({ query: page })),
  'GET /api/support/personal/tickets': r('signedIn', () => ({ query: page })),
  'POST /api/support/personal/tickets/search': r('signedIn', () => ({ query: page, body: { text: 'ticket' } })),
  'GET /api/support/personal/tickets/servers': r('signedIn', () => ({ query: page })),
  'GET /api/support/personal/tickets/subjects/{serverId}': r('signedIn', () => ({ query: page })),
  'GET /api/support/personal/tickets/{ticketId}': r('signedIn', (w) => ({ params: { ticketId: w.personalTicket.ticketId } })), // 404 but to its author

  // files
  'POST /api/files/files/upload': r('staff+', async (w) => ({
    query: { FileName: 'notes.txt', ServerId: A, TicketId: w.a.ticket.ticketId, SubjectId: w.a.subject.subjectId },
    raw: await multipart('notes.txt', 'text/plain', 'order A-42'),
  })),
  'POST /api/files/files/clone': r('staff+', (w) => ({
    body: { fileName: 'receipt.txt', serverId: A, ticketId: w.a.ticket.ticketId, subjectId: w.a.subject.subjectId, url: w.attachmentUrl },
  })),
  'GET /api/files/files/{fileId}/{fileName}': r('staff+', (w) => ({ params: { fileId: w.a.file.fileId, fileName: w.a.file.name } })),
  'GET /api/files/files/servers/{serverId}/tickets/{ticketId}': r('staff+', (w) => ({ params: ticket(w) })),
  'GET /api/files/servers/{serverId}/stats': r('staff+'),
  'GET /api/files/servers/{serverId}/stats/tickets': r('staff+', () => ({ query: page })),

  // payment: prices, subscriptions, checkout, plan changes, provider webhooks
  'GET /api/payment/prices': r('open'),
  'POST /api/payment/bulk/subscriptions': r('operator', () => ({ body: { ids: [A] } })),
  'GET /api/payment/@me/subscriptions': r('signedIn'),
  'GET /api/payment/@me/receipts': r('signedIn'),
  'GET /api/payment/@me/receipts/{number}/pdf': r('signedIn', async (w, who) => {
    if (who !== 'admin') return { params: { number: '999999' } };
    await paidSubscription(w, who);
    const receipts = (await w.inject({ method: 'GET', url: '/api/payment/@me/receipts', token: w.tokens.admin })).json<{ number: number }[]>();
    return { params: { number: String(receipts.at(-1)!.number) } };
  }),
  'PATCH /api/payment/@me/change-plan': r('signedIn', async (w, who) => ({ body: { ...(await paidSubscription(w, who)).body, plan: 'enterprise', interval: 'monthly' } })),
  'DELETE /api/payment/@me/scheduled-change': r('signedIn', async (w, who) => {
    const { body } = await paidSubscription(w, who, 'enterprise');
    if (who === 'admin') await w.inject({ method: 'PATCH', url: '/api/payment/@me/change-plan', token: w.tokens.admin, body: { ...body, plan: 'premium', interval: 'monthly' } });
    return { body };
  }),
  'DELETE /api/payment/@me/cancel': r('signedIn', (w, who) => paidSubscription(w, who)),
  // Enterprise, so that server A, on Enterprise for the other rows, stays on it.
  'POST /api/payment/@me/transfer': r('signedIn', async (w, who) => ({ body: { ...(await paidSubscription(w, who, 'enterprise')).body, serverId: A } })),
  'GET /api/payment/servers/{serverId}/subscription': r('staff+', () => ({ query: { multiple: 'true' } })),
  'POST /api/payment/servers/{serverId}/subscription': r('staffUser', () => ({ body: { provider: 'stripe', type: 'premium', interval: 'monthly' } })),
  'POST /api/payment/servers/{serverId}/subscription/complete': r('staffUser', async (w) => ({ query: { provider: 'stripe', token: await checkoutToken(w) } })),
  'POST /api/payment/servers/{serverId}/subscription/update-complete': r('staffUser', async (w) => ({ query: { provider: 'stripe', token: await planChangeToken(w) } })),
  'DELETE /api/payment/servers/{serverId}/subscription/revoke': r(
    'admin',
    async (w) => {
      const at = new Date().toISOString();
      const id = fresh('matrix-subscription');
      await w.ctx.built.database.db
        .insertInto('subscriptions')
        .values({ id, user_id: USERS.bruno, provider: 'stripe', provider_subscription_id: `sub_${id}`, state: 'active', plan_type: 'enterprise', plan_interval: 'monthly', server_id: A, applied: 1, cancel_at_period_end: 0, created_at: at, updated_at: at })
        .execute();
      return {};
    },
    // Server A stays on Enterprise, with every subject, for the other rows.
    async (w) => {
      const { db } = w.ctx.built.database;
      await db.updateTable('servers').set({ plan: 'enterprise' }).where('id', '=', A).execute();
      await db.updateTable('subjects').set({ active: 1, plan_inactive: 0 }).where('server_id', '=', A).where('plan_inactive', '=', 1).execute();
    },
  ),
  'POST /api/payment/webhook/paypal': r('open', paypalEvent),
  'POST /api/payment/webhook/stripe/webhook': r('open', stripeEvent),

  // deployment: white-label bots (Enterprise; A is), and the bot runner's calls
  'GET /api/deployment/whitelabel': r('operator', () => ({ query: { ...page, includeToken: 'true' } })),
  'POST /api/deployment/whitelabel/bulk': r('operator', () => ({ query: { includeToken: 'true' }, body: { ids: [A] } })),
  'GET /api/deployment/whitelabel/{serverId}': r('admin', whitelabelOfA),
  'POST /api/deployment/whitelabel/{serverId}': r('admin', () => ({ body: { token: WHITELABEL_TOKEN, activity: 'Matrix' } })),
  'PATCH /api/deployment/whitelabel/{serverId}': r('admin', async (w) => ({ ...(await whitelabelOfA(w)), body: { activity: 'Matrix' } })),
  'DELETE /api/deployment/whitelabel/{serverId}': r('admin', whitelabelOfA),
  'POST /api/deployment/whitelabel/{serverId}/start': r('admin', whitelabelOfA),
  'PUT /api/deployment/whitelabel/{serverId}/status': r('operator', async (w) => ({ ...(await whitelabelOfA(w)), body: { status: 'Running' } })),

  // localization: languages and translation files; reading is open, changing is the operators'
  'GET /api/localization/languages': r('open'),
  'POST /api/localization/languages': r('operator', () => ({ body: { languageCode: 'tlh', name: 'tlhIngan Hol' } }), async (w) => {
    await w.ctx.built.database.db.deleteFrom('languages').where('language_code', '=', 'tlh').execute();
  }),
  'DELETE /api/localization/languages/{languageCode}': r('operator', async (w) => {
    const at = new Date().toISOString();
    await w.ctx.built.database.db
      .insertInto('languages')
      .values({ language_code: 'tlh', name: 'tlhIngan Hol', position: 99, created_at: at })
      .onConflict((oc) => oc.column('language_code').doNothing())
      .execute();
    return { params: { languageCode: 'tlh' } };
  }),
  'GET /api/localization/translations/{fileName}': r('open', () => ({ params: { fileName: 'bot' }, query: { language: 'de' } })),
  'POST /api/localization/translations': r('operator', () => ({
    body: { sourceLanguage: 'en', fileName: 'matrix-file', addToLocalazy: false, document: { greeting: 'Hello {{name}}' }, fileDescription: null },
  })),
  'POST /api/localization/translations/legacy': r('operator', () => ({
    body: { sourceLanguage: 'en', fileName: 'matrix-file', document: { inbox: { tickets: '{{count}} ticket', tickets_plural: '{{count}} tickets' } } },
  })),

  // every service base answers its health checks
  ...Object.fromEntries(SERVICE_NAMES.flatMap((name) => [[`GET /api/${name}/health`, r('open')], [`GET /api/${name}/health/detailed`, r('open')]])),
};

// ---------------------------------------------------------------------------------------------
// Server B's records and platform ids, through server A's path
// ---------------------------------------------------------------------------------------------

/**
 * - notFound: B's record in A's path must be unknown there: 404.
 * - refused: B's record (or platform id) in the body of A's call must be refused (400, 403 or 404).
 * - noLeak: the call may succeed, but its answer must not hold B's record.
 */
interface Probe {
  route: string;
  check: string;
  expect: 'notFound' | 'refused' | 'noLeak';
  req: SampleOf;
  callers?: readonly Who[];
  leak?: (w: World) => string;
}
const CROSS_CALLERS = ['admin', 'key', 'operator'] as const satisfies readonly Who[];
const S = '/api/settings/servers/{serverId}';
const T = '/api/support/servers/{serverId}/tickets/{ticketId}';
const bTicket = (w: World) => ({ ticketId: w.b.ticket.ticketId });
const bWebhook = async (w: World) => ({ params: { endpointId: (await webhooksOf(w)).b.endpointId } });
const bMessage = (w: World) => ({ ticketId: w.b.ticket.ticketId, messageId: w.b.message.messageId });
const aTicketBMessage = (w: World) => ({ ticketId: w.a.ticket.ticketId, messageId: w.b.message.messageId });
const subjectUpdate = (w: World, update: { path: string; operation: string; value: unknown }) => ({
  params: { subjectId: w.a.subject.subjectId },
  body: { serverId: A, subjectId: w.a.subject.subjectId, ...update },
});
/** Chen: admin of B, not a member of A. */
const OUTSIDER = USERS.chen;
/** A different channel of B for each caller, so one caller's ticket does not stand in the next one's way. */
const B_CHANNEL_FOR: Partial<Record<Who, string>> = { admin: PLATFORM.B.textChannel, key: '1300000000000000604', operator: '1300000000000000602' };

const PROBES: Probe[] = [
  // B's record in A's path
  { route: `GET ${S}/subjects/{subjectId}`, check: "B's subject in the path", expect: 'notFound', req: (w) => ({ params: { subjectId: w.b.subject.subjectId } }) },
  { route: `PATCH ${S}/subjects/{subjectId}`, check: "B's subject in the path", expect: 'notFound', req: (w) => ({ params: { subjectId: w.b.subject.subjectId }, body: setting(w, w.b.subject.subjectId) }) },
  { route: `DELETE ${S}/subjects/{subjectId}`, check: "B's subject in the path", expect: 'notFound', req: (w) => ({ params: { subjectId: w.b.subject.subjectId } }) },
  { route: `GET ${S}/templates/{templateId}`, check: "B's question in the path", expect: 'notFound', req: (w) => ({ params: { templateId: w.b.template.questionId } }) },
  { route: `PATCH ${S}/templates/{templateId}`, check: "B's question in the path", expect: 'notFound', req: (w) => ({ params: { templateId: w.b.template.questionId }, body: textQuestion('order') }) },
  { route: `DELETE ${S}/templates/{templateId}`, check: "B's question in the path", expect: 'notFound', req: (w) => ({ params: { templateId: w.b.template.questionId } }) },
  { route: `GET ${S}/panels/{id}`, check: "B's panel in the path", expect: 'notFound', req: (w) => ({ params: { id: w.b.panel.id } }) },
  { route: `PATCH ${S}/panels/{id}`, check: "B's panel in the path", expect: 'notFound', req: (w) => ({ params: { id: w.b.panel.id }, body: draftPanel(w.a.subject.subjectId) }) },
  { route: `DELETE ${S}/panels/{id}`, check: "B's panel in the path", expect: 'notFound', req: (w) => ({ params: { id: w.b.panel.id } }) },
  { route: `POST ${S}/panels/{id}/resend`, check: "B's panel in the path", expect: 'notFound', req: (w) => ({ params: { id: w.b.sentPanel.id } }) },
  { route: `GET ${S}/webhooks/{endpointId}`, check: "B's webhook endpoint in the path", expect: 'notFound', req: bWebhook },
  { route: `PATCH ${S}/webhooks/{endpointId}`, check: "B's webhook endpoint in the path", expect: 'notFound', req: async (w) => ({ ...(await bWebhook(w)), body: { enabled: false } }) },
  { route: `DELETE ${S}/webhooks/{endpointId}`, check: "B's webhook endpoint in the path", expect: 'notFound', req: bWebhook },
  { route: `POST ${S}/webhooks/{endpointId}/secret`, check: "B's webhook endpoint in the path", expect: 'notFound', req: bWebhook },
  { route: `GET ${S}/webhooks/{endpointId}/deliveries`, check: "B's webhook endpoint in the path", expect: 'notFound', req: bWebhook },
  { route: `POST ${S}/webhooks/{endpointId}/test`, check: "B's webhook endpoint in the path", expect: 'notFound', req: bWebhook },
  {
    route: `POST ${S}/webhooks/{endpointId}/deliveries/{deliveryId}/resend`,
    check: "B's delivery under A's endpoint",
    expect: 'notFound',
    req: async (w) => {
      const { a, b } = await webhooksOf(w);
      return { params: { endpointId: a.endpointId, deliveryId: b.deliveryId } };
    },
  },
  { route: `GET ${T}`, check: "B's ticket in the path", expect: 'notFound', req: (w) => ({ params: bTicket(w) }) },
  { route: `PUT ${T}`, check: "B's ticket in the path", expect: 'notFound', req: (w) => ({ params: bTicket(w), body: { ticketName: 'taken-over' } }) },
  { route: `DELETE ${T}`, check: "B's ticket in the path", expect: 'notFound', req: (w) => ({ params: bTicket(w) }) },
  { route: `POST ${T}/member`, check: "B's ticket in the path", expect: 'notFound', req: (w) => ({ params: bTicket(w), body: { userId: EXTRA_MEMBERS.added } }) },
  { route: `DELETE ${T}/member`, check: "B's ticket in the path", expect: 'notFound', req: (w) => ({ params: bTicket(w), body: { userId: EXTRA_MEMBERS.removed } }) },
  {
    route: `POST ${T}/messages`,
    check: "B's ticket in the path",
    expect: 'notFound',
    req: (w) => ({ params: bTicket(w), body: { message: { content: 'hello' }, messageType: 'Staff', authorId: AUTHOR } }),
  },
  { route: `PUT ${T}/messages/{messageId}`, check: "B's ticket in the path", expect: 'notFound', req: (w) => ({ params: bMessage(w), body: { message: { content: 'edited' } } }) },
  { route: `DELETE ${T}/messages/{messageId}`, check: "B's ticket in the path", expect: 'notFound', req: (w) => ({ params: bMessage(w) }) },
  { route: `POST ${T}/messages/{messageId}/reactions`, check: "B's ticket in the path", expect: 'notFound', req: (w) => ({ params: bMessage(w), body: { reactorId: AUTHOR, emoji: smile } }) },
  { route: `DELETE ${T}/messages/{messageId}/reactions`, check: "B's ticket in the path", expect: 'notFound', req: (w) => ({ params: bMessage(w), body: { deleteAll: true } }) },
  { route: `PUT ${T}/messages/{messageId}`, check: "B's message under A's ticket", expect: 'notFound', req: (w) => ({ params: aTicketBMessage(w), body: { message: { content: 'edited' } } }) },
  { route: `DELETE ${T}/messages/{messageId}`, check: "B's message under A's ticket", expect: 'notFound', req: (w) => ({ params: aTicketBMessage(w) }) },
  {
    route: `POST ${T}/messages/{messageId}/reactions`,
    check: "B's message under A's ticket",
    expect: 'notFound',
    req: (w) => ({ params: aTicketBMessage(w), body: { reactorId: AUTHOR, emoji: smile } }),
  },
  { route: `DELETE ${T}/messages/{messageId}/reactions`, check: "B's message under A's ticket", expect: 'notFound', req: (w) => ({ params: aTicketBMessage(w), body: { deleteAll: true } }) },
  { route: 'GET /api/files/files/servers/{serverId}/tickets/{ticketId}', check: "B's ticket in the path", expect: 'notFound', req: (w) => ({ params: bTicket(w) }) },
  {
    route: 'GET /api/files/files/{fileId}/{fileName}',
    check: "B's file without its token",
    expect: 'notFound',
    callers: ['admin', 'key'], // the path names no server; an operator may read any file
    req: (w) => ({ params: { fileId: w.b.file.fileId, fileName: w.b.file.name } }),
  },
  { route: 'GET /api/support/personal/tickets/{ticketId}', check: "B's ticket as a personal ticket", expect: 'notFound', callers: ['admin'], req: (w) => ({ params: bTicket(w) }) },
  {
    route: 'DELETE /api/authentication/user/sessions/{sessionId}',
    check: "another user's session",
    expect: 'notFound',
    callers: ['member', 'admin'],
    req: (w) => ({ params: { sessionId: w.aliceSession.id } }),
  },

  {
    route: 'POST /api/payment/servers/{serverId}/subscription/update-complete',
    check: "B's plan change in A's path",
    expect: 'notFound',
    callers: ['admin'],
    req: async (w) => ({ query: { provider: 'stripe', token: await planChangeToken(w, B) } }),
  },

  // B's record in the body of A's call
  { route: `PATCH ${S}/subjects/bulk`, check: "B's subject in the body", expect: 'refused', req: (w) => ({ body: { updates: [setting(w, w.b.subject.subjectId)] } }) },
  {
    route: `PATCH ${S}/subjects/{subjectId}`,
    check: "B's subject as inheritsFrom",
    expect: 'refused',
    req: (w) => subjectUpdate(w, { path: 'inheritsFrom', operation: 'set', value: w.b.subject.subjectId }),
  },
  { route: `PATCH ${S}/templates/bulk`, check: "B's question in the body", expect: 'refused', req: (w) => ({ body: [{ ...textQuestion('order'), questionId: w.b.template.questionId }] }) },
  { route: `PUT ${S}/templates`, check: "B's subject in the body", expect: 'refused', req: (w) => ({ body: { subjectId: w.b.subject.subjectId, template: textQuestion(fresh('q')) } }) },
  { route: `POST ${S}/panels`, check: "B's subject in the body", expect: 'refused', req: (w) => ({ body: draftPanel(w.b.subject.subjectId) }) },
  { route: `PATCH ${S}/panels/{id}`, check: "B's subject in the body", expect: 'refused', req: (w) => ({ params: { id: w.a.panel.id }, body: draftPanel(w.b.subject.subjectId) }) },
  {
    route: 'POST /api/support/servers/{serverId}/tickets',
    check: "B's subject in the body",
    expect: 'refused',
    req: (w) => ({ body: { ticketName: fresh('ticket'), subjectId: w.b.subject.subjectId, authorId: AUTHOR } }),
  },
  { route: `PUT ${T}`, check: "B's subject in the body", expect: 'refused', req: (w) => ({ params: { ticketId: w.a.ticket.ticketId }, body: { subjectId: w.b.subject.subjectId } }) },
  {
    route: 'POST /api/files/files/upload',
    check: "B's ticket in the query",
    expect: 'refused',
    req: async (w) => ({
      query: { FileName: 'notes.txt', ServerId: A, TicketId: w.b.ticket.ticketId, SubjectId: w.b.subject.subjectId },
      raw: await multipart('notes.txt', 'text/plain', 'order A-42'),
    }),
  },
  {
    route: 'POST /api/files/files/clone',
    check: "B's ticket in the body",
    expect: 'refused',
    req: (w) => ({ body: { fileName: 'receipt.txt', serverId: A, ticketId: w.b.ticket.ticketId, subjectId: w.b.subject.subjectId, url: w.attachmentUrl } }),
  },

  // B's platform ids (channels, categories, roles) given to A's calls: the bot would act on them in B
  {
    route: 'POST /api/support/servers/{serverId}/tickets',
    check: "B's channel as the ticket id",
    expect: 'refused',
    req: (w, who) => ({ body: { ticketId: B_CHANNEL_FOR[who]!, ticketName: fresh('ticket'), subjectId: w.a.subject.subjectId, authorId: AUTHOR } }),
  },
  {
    route: `PATCH ${S}/subjects/{subjectId}`,
    check: "B's channel as logging.channelId",
    expect: 'refused',
    req: (w) => subjectUpdate(w, { path: 'logging.channelId', operation: 'set', value: PLATFORM.B.textChannel }),
  },
  {
    route: `PATCH ${S}/subjects/{subjectId}`,
    check: "B's category as a ticket category",
    expect: 'refused',
    req: (w) => subjectUpdate(w, { path: 'categories.waitingForStaff', operation: 'add', value: { id: PLATFORM.B.category, selfCreated: false } }),
  },
  {
    route: `PATCH ${S}/subjects/{subjectId}`,
    check: "B's role as a staff role",
    expect: 'refused',
    req: (w) => subjectUpdate(w, { path: 'staffRoles.value', operation: 'add', value: PLATFORM.B.role }),
  },
  { route: `POST ${T}/member`, check: 'a user outside A as a member', expect: 'refused', req: (w) => ({ params: ticket(w), body: { userId: OUTSIDER } }) },
  { route: `PUT ${T}`, check: 'a user outside A as the assignee', expect: 'refused', req: (w) => ({ params: ticket(w), body: { assigneeId: OUTSIDER } }) },
  { route: `PUT ${T}`, check: 'a user outside A as the author', expect: 'refused', req: (w) => ({ params: ticket(w), body: { authorId: OUTSIDER } }) },
  {
    route: 'POST /api/support/servers/{serverId}/tickets',
    check: 'a user outside A as the author',
    expect: 'refused',
    req: (w) => ({ body: { ticketName: fresh('ticket'), subjectId: w.a.subject.subjectId, authorId: OUTSIDER } }),
  },
  { route: `PATCH ${S}/subjects/bulk`, check: "B's server id in the body", expect: 'refused', req: (w) => ({ body: { updates: [{ ...setting(w, w.b.subject.subjectId), serverId: B }] } }) },
  { route: `PATCH ${S}/settings`, check: "B's server id in the body", expect: 'refused', req: () => ({ body: { serverId: B, path: 'language', operation: 'set', value: 'de' } }) },
  { route: `POST ${S}/panels`, check: "B's channel for a panel", expect: 'refused', req: (w) => ({ body: draftPanel(w.a.subject.subjectId, PLATFORM.B.textChannel) }) },
  {
    route: `PATCH ${S}/panels/{id}`,
    check: "B's channel for a panel",
    expect: 'refused',
    req: (w) => ({ params: { id: w.a.panel.id }, body: draftPanel(w.a.subject.subjectId, PLATFORM.B.textChannel) }),
  },

  // Lists and lookups that may answer, but never with B's records
  {
    route: `GET ${S}/templates`,
    check: "B's subject as a filter",
    expect: 'noLeak',
    req: (w) => ({ query: { subjectId: w.b.subject.subjectId } }),
    leak: (w) => w.b.template.questionId,
  },
  { route: `GET ${S}/webhooks`, check: "B's webhook endpoints", expect: 'noLeak', req: () => ({}), leak: () => B },
  { route: `GET ${S}/configuration`, check: "B's subjects in A's export", expect: 'noLeak', req: () => ({}), leak: (w) => w.b.subject.subjectId },
  { route: 'POST /api/server/servers/bulk', check: "B's id in the list", expect: 'noLeak', callers: ['admin', 'key'], req: () => ({ body: { ids: [B] } }), leak: () => B },
  {
    route: 'GET /api/support/personal/tickets/subjects/{serverId}',
    check: "B's subjects",
    expect: 'noLeak',
    callers: ['admin'],
    req: () => ({ params: { serverId: B } }),
    leak: (w) => w.b.subject.subjectId,
  },
];

// ---------------------------------------------------------------------------------------------
// Holes found and not fixed yet: each still has to happen, or the test fails until it is removed
// ---------------------------------------------------------------------------------------------

interface Hole {
  route: string;
  caller: Who;
  /** 'matrix' for a cell of the table, else the check of a cross-server probe. */
  check: string;
  reason: string;
}
/**
 * Empty while every check holds. An entry reads, e.g.:
 *   { route: 'POST /api/support/servers/{serverId}/tickets', caller: 'key', check: "B's channel as the ticket id",
 *     reason: 'a caller-chosen ticketId became the channel id the bot later deletes' }
 * (that one, found in the committed code, is closed by TicketOpening.createTicket checking the channel.)
 */
const KNOWN_HOLES: Hole[] = [];

// ---------------------------------------------------------------------------------------------
// The walk
// ---------------------------------------------------------------------------------------------

interface Problem {
  route: string;
  caller: Who;
  check: string;
  text: string;
}

function build(route: string, sample: Sample, token: string | null): ApiRequest {
  const [method, pathTemplate] = route.split(' ') as [ApiRequest['method'], string];
  const params: Record<string, string> = { serverId: A, ...sample.params };
  const url = pathTemplate.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route}: the sample gives no ${name}`);
    return encodeURIComponent(value);
  });
  const query = sample.query ? `?${new URLSearchParams(sample.query)}` : '';
  return { method, url: url + query, token, body: sample.body, raw: sample.raw };
}

/** Makes the sample and sends it; a sign-in the platform client's own limit turned away is made anew and sent again. */
async function call(w: World, route: string, who: Who, sampleOf: SampleOf | undefined) {
  for (let attempt = 1; ; attempt++) {
    const sample = (await sampleOf?.(w, who)) ?? {};
    const request = build(route, sample, sample.token === undefined ? w.tokens[who] : sample.token);
    const response = await w.inject(request);
    if (attempt === 5 || !platformLimited(response)) return { request, response };
    await pause(response);
  }
}

const shown = (request: ApiRequest, response: LightMyRequestResponse) => {
  const body = request.raw ? '<raw>' : request.body === undefined ? '' : ` ${JSON.stringify(request.body)}`;
  return `${request.method} ${request.url}${body} → ${response.statusCode} ${response.body.slice(0, 160)}`;
};

const known = (p: { route: string; caller: Who; check: string }) =>
  KNOWN_HOLES.find((h) => h.route === p.route && h.caller === p.caller && h.check === p.check);

/** Fails with every problem not in KNOWN_HOLES, and every hole of this scope that no longer happens. */
function settle(problems: Problem[], inScope: (hole: Hole) => boolean): void {
  const unexpected = problems.filter((p) => !known(p)).map((p) => `${p.route} as ${p.caller} [${p.check}]: ${p.text}`);
  const gone = KNOWN_HOLES.filter(inScope)
    .filter((h) => !problems.some((p) => p.route === h.route && p.caller === h.caller && p.check === h.check))
    .map((h) => `KNOWN_HOLES entry "${h.route}" as ${h.caller} [${h.check}] no longer happens: remove it`);
  expect([...unexpected, ...gone]).toEqual([]);
}

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

describe.each(engines)('authorisation matrix on %s', (engine) => {
  let ctx: TestContext;
  let w: World;
  let filesDir: string;
  let documented: string[];

  beforeAll(async () => {
    await resetSandbox(sandbox);
    filesDir = await mkdtemp(path.join(tmpdir(), 'authorization-matrix-'));
    const base = testConfig(sandbox);
    // Every limit of the dashboard's own (requests, failed authentications…) out of the way; the window as it is.
    const limits = Object.fromEntries(Object.entries(base.rateLimit).map(([name, value]) => [name, name === 'windowMs' ? value : 1_000_000]));
    ctx = await createTestApp(sandbox, engine, {
      rateLimit: limits as typeof base.rateLimit,
      files: { ...base.files, dir: filesDir },
      platform: { ...base.platform, publicKey: signer.publicKeyHex },
    });
    w = await World.build(ctx, sandbox);
    const doc = (await ctx.built.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json<{ paths: Record<string, Record<string, unknown>> }>();
    documented = Object.entries(doc.paths).flatMap(([p, operations]) => Object.keys(operations).map((m) => `${m.toUpperCase()} ${p}`));
  }, 60_000);
  afterAll(async () => {
    await ctx?.close();
    await rm(filesDir, { recursive: true, force: true });
  });

  it('has one row for every route of the OpenAPI document, and none for a route it no longer has', () => {
    const missing = documented.filter((route) => !(route in MATRIX)).map((route) => `route ${route} has no row in the authorisation matrix`);
    const stale = Object.keys(MATRIX)
      .filter((route) => !documented.includes(route))
      .map((route) => `the authorisation matrix has a row for ${route}, which the OpenAPI document no longer has`);
    const holes = [...KNOWN_HOLES, ...PROBES.map((p) => ({ route: p.route }))]
      .filter((h) => !documented.includes(h.route))
      .map((h) => `${h.route} (KNOWN_HOLES or a cross-server probe) is not a route of the OpenAPI document`);
    expect([...missing, ...stale, ...holes]).toEqual([]);
    expect(documented.length).toBeGreaterThan(90);
  });

  it('lets each kind of caller through exactly where the matrix says, for every route', async () => {
    const problems: Problem[] = [];
    const observed: string[] = [];
    for (const route of documented) {
      const row = MATRIX[route];
      if (!row) continue; // reported by the test above
      const allowed: readonly Who[] = ACCESS[row.who];
      let succeeded = false;
      const statuses: number[] = [];
      for (const who of CALLERS) {
        const { request, response } = await call(w, route, who, row.req);
        await row.after?.(w);
        const status = response.statusCode;
        statuses.push(status);
        const yes = allowed.includes(who);
        const problem = (text: string) => problems.push({ route, caller: who, check: 'matrix', text: `${text}: ${shown(request, response)}` });
        if (status >= 500 && status !== 502) problem(`answered ${status}`);
        else if (yes && status >= 200 && status < 300) succeeded = true;
        else if (yes && [400, 401, 403, 429].includes(status)) problem(status === 400 ? 'the sample does not pass validation' : 'refused where the matrix says yes');
        else if (!yes && status < 300) problem(`answered ${status} where the matrix says no`);
        else if (!yes && who === 'anon' && status !== 401) problem('an anonymous caller is refused with 401');
        else if (!yes && ![401, 403, 404].includes(status)) problem('a refusal is 401, 403 or 404');
      }
      if (!succeeded) {
        problems.push({ route, caller: 'operator', check: 'sample', text: `no caller the matrix lets through got a 2xx: the sample does not exercise the route` });
      }
      observed.push(`${statuses.map((s) => String(s).padEnd(4)).join(' ')} ${row.who.padEnd(8)} ${route}`);
    }
    // MATRIX_REPORT=1 prints what each caller got, in the column order of CALLERS.
    if (process.env.MATRIX_REPORT) console.log(`${CALLERS.map((c) => c.slice(0, 4).padEnd(4)).join(' ')}\n${observed.join('\n')}`);
    settle(problems, (h) => h.check === 'matrix');
  }, 120_000);

  it("never reaches server B's records or platform ids through server A's path", async () => {
    const problems: Problem[] = [];
    const observed: string[] = [];
    for (const probe of PROBES) {
      for (const who of probe.callers ?? CROSS_CALLERS) {
        const { request, response } = await call(w, probe.route, who, probe.req);
        const status = response.statusCode;
        observed.push(`${status} ${who.padEnd(8)} ${probe.route} [${probe.check}]`);
        const problem = (text: string) => problems.push({ route: probe.route, caller: who, check: probe.check, text: `${text}: ${shown(request, response)}` });
        if (status >= 500 && status !== 502) problem(`answered ${status}`);
        else if (probe.expect === 'notFound' && status !== 404) problem(status < 300 ? "reached B's record" : 'expected 404');
        else if (probe.expect === 'refused' && ![400, 403, 404].includes(status)) problem(status < 300 ? 'was accepted' : 'expected 400, 403 or 404');
        else if (probe.expect === 'noLeak' && status < 300 && response.body.includes(probe.leak!(w))) problem("answered with B's record");
      }
    }
    if (process.env.MATRIX_REPORT) console.log(observed.join('\n'));
    settle(problems, (h) => h.check !== 'matrix');
  }, 120_000);
});
