import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AuthenticateResponse, Receipt, ServerSettings, Subscription } from '@ticket/contracts';
import { loadDemoFixtures } from '@ticket/sandbox';
import { startDemoStack, type DemoStack } from './support/demo-stack';
import { DEMO_GUILDS, DEMO_USERS } from './support/session';

/**
 * Demo mode's three plans (issue 13): Pixel Forge on Free, Night Owls on Premium paid by card and
 * Study Hall on Enterprise paid by PayPal, as real subscriptions at the sandbox's providers, bought
 * by the servers' owners; a restart (the data kept, the sandbox empty again) makes no second one.
 */
const QUINN = '1200000000000000115'; // owner of Study Hall in the fixtures
const { application } = loadDemoFixtures();
const dataDir = mkdtempSync(path.join(tmpdir(), 'ticket-e2e-plans-'));
let stack: DemoStack | undefined;

afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Signs in as a dashboard user would, through the sandbox's consent page, without a browser. */
async function signIn(userId: string): Promise<string> {
  const redirectUri = `${stack!.url}/callback`;
  const consent = await fetch(`${stack!.sandboxUrl}/oauth2/authorize`, {
    method: 'POST',
    body: new URLSearchParams({ user_id: userId, client_id: application.clientId, redirect_uri: redirectUri, response_type: 'code', scope: 'identify guilds email guilds.members.read', state: 'e2e' }),
    redirect: 'manual',
  });
  const code = new URL(consent.headers.get('location') ?? 'http://invalid/').searchParams.get('code');
  expect(code).toBeTruthy();
  const response = await fetch(`${stack!.url}/api/authentication/user`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code, redirectUri }) });
  expect(response.status).toBe(200);
  return ((await response.json()) as AuthenticateResponse).token;
}

async function api<T>(token: string, method: string, url: string, body?: unknown): Promise<{ status: number; json: T }> {
  const response = await fetch(`${stack!.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as T };
}

const subscriptionsOf = async (token: string, serverId: string) => (await api<Subscription[]>(token, 'GET', `/api/payment/servers/${serverId}/subscription?multiple=true`)).json;
const planOf = async (token: string, serverId: string) => (await api<ServerSettings>(token, 'GET', `/api/settings/servers/${serverId}/settings`)).json.subscription;

interface SandboxState {
  stripe: { subscriptions: { id: string; status: string; metadata: Record<string, string> }[]; invoices: { status: string; amount_paid: number }[] };
  paypal: { subscriptions: { id: string; status: string; custom_id?: string }[]; sales: { subscriptionId: string; amount: string }[] };
}
async function sandboxState(): Promise<SandboxState> {
  const [stripe, paypal] = await Promise.all([fetch(`${stack!.sandboxUrl}/_sandbox/stripe/state`), fetch(`${stack!.sandboxUrl}/_sandbox/paypal`)]);
  return { stripe: (await stripe.json()) as SandboxState['stripe'], paypal: (await paypal.json()) as SandboxState['paypal'] };
}

/** Each paid demo server holds exactly one live subscription, also held by the sandbox's provider; answers their ids. */
async function expectDemoPlans(): Promise<{ nightOwls: string; studyHall: string }> {
  const bruno = await signIn(DEMO_USERS.bruno); // owner of Night Owls
  const chen = await signIn(DEMO_USERS.chen); // admin of Study Hall
  const alice = await signIn(DEMO_USERS.alice); // owner of Pixel Forge

  const nightOwls = await subscriptionsOf(bruno, DEMO_GUILDS.nightOwls);
  expect(nightOwls).toEqual([
    expect.objectContaining({ userId: DEMO_USERS.bruno, provider: 'stripe', planType: 'premium', planInterval: 'monthly', state: 'active', applied: true, cancelAtPeriodEnd: false }),
  ]);
  const applied = await api<Subscription[]>(bruno, 'GET', `/api/payment/servers/${DEMO_GUILDS.nightOwls}/subscription`);
  expect(applied.json.map((s) => s.id)).toEqual([nightOwls[0]!.id]);
  const studyHall = await subscriptionsOf(chen, DEMO_GUILDS.studyHall);
  expect(studyHall).toEqual([expect.objectContaining({ userId: QUINN, provider: 'paypal', planType: 'enterprise', state: 'active', applied: true })]);
  expect(await subscriptionsOf(alice, DEMO_GUILDS.pixelForge)).toEqual([]);
  expect([await planOf(alice, DEMO_GUILDS.pixelForge), await planOf(bruno, DEMO_GUILDS.nightOwls), await planOf(chen, DEMO_GUILDS.studyHall)]).toEqual(['free', 'premium', 'enterprise']);

  const receipts = (await api<Receipt[]>(bruno, 'GET', '/api/payment/@me/receipts')).json;
  expect(receipts.map((r) => [r.kind, r.provider, r.planType, r.amountCents, r.subscriptionId])).toEqual([['payment', 'stripe', 'premium', 225, nightOwls[0]!.id]]);

  const { stripe, paypal } = await sandboxState();
  expect(stripe.subscriptions).toEqual([
    expect.objectContaining({ status: 'active', metadata: expect.objectContaining({ serverId: DEMO_GUILDS.nightOwls, userId: DEMO_USERS.bruno, planType: 'premium' }) }),
  ]);
  expect(stripe.invoices.map((i) => [i.status, i.amount_paid])).toEqual([['paid', 225]]);
  expect(paypal.subscriptions).toEqual([expect.objectContaining({ status: 'ACTIVE', custom_id: DEMO_GUILDS.studyHall })]);
  expect(paypal.sales.map((s) => [s.subscriptionId, s.amount])).toEqual([[paypal.subscriptions[0]!.id, '6.00']]);
  return { nightOwls: nightOwls[0]!.id, studyHall: studyHall[0]!.id };
}

describe('demo plans as real subscriptions', () => {
  let first: { nightOwls: string; studyHall: string };

  it('starts with Night Owls on Premium by card and Study Hall on Enterprise by PayPal, bought by their owners', async () => {
    stack = await startDemoStack({ dataDir });
    first = await expectDemoPlans();
  });

  it('after a restart (data kept, sandbox empty) holds one subscription each again, which its buyer can cancel', async () => {
    await stack!.stop();
    stack = await startDemoStack({ dataDir });
    const again = await expectDemoPlans();
    // The stale ones were replaced by ones the new sandbox has, not joined by a second one.
    expect(again.nightOwls).not.toBe(first.nightOwls);
    expect(again.studyHall).not.toBe(first.studyHall);

    const bruno = await signIn(DEMO_USERS.bruno);
    const cancelled = await api<Subscription>(bruno, 'DELETE', '/api/payment/@me/cancel', { subscriptionId: again.nightOwls });
    expect(cancelled.status).toBe(200);
    expect(cancelled.json).toMatchObject({ id: again.nightOwls, state: 'canceled' });
    expect(await planOf(bruno, DEMO_GUILDS.nightOwls)).toBe('free');
    expect((await sandboxState()).stripe.subscriptions).toEqual([expect.objectContaining({ status: 'canceled' })]);
  });
});
