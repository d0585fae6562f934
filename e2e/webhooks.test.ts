import { createHmac, timingSafeEqual } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { useDemoStack } from './support/demo-stack';
import { DEMO_GUILDS, DEMO_USERS, seriousA11yViolations, signInAs } from './support/session';

/**
 * The Webhooks page in the browser: Chen, admin of the Enterprise server Study Hall, adds an
 * endpoint that points at a receiver of this test, sees its signing secret once, and sends a test
 * event. The receiver checks each delivery's signature with that secret and fails the first
 * attempt; the page shows the failed attempt, then the retry that succeeded (a minute later, by the
 * retry schedule). Demo mode lets endpoints be plain http on this machine.
 */
const demo = useDemoStack();
const STUDY_HALL = DEMO_GUILDS.studyHall;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A customer's receiver: records each delivery and answers the next of `answers` (200 once they run out). */
async function startReceiver() {
  const received: Received[] = [];
  const answers: number[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = answers.shift() ?? 200;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/ticket-events`,
    received,
    answers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What the page tells receivers to do: HMAC-SHA256 of `timestamp.body` with the secret, in hex after `v1=`. */
function signedWith(secret: string, { headers, body }: Received): boolean {
  const timestamp = headers['webhook-timestamp'];
  const signature = headers['webhook-signature'];
  if (typeof timestamp !== 'string' || typeof signature !== 'string' || !signature.startsWith('v1=')) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest();
  const given = Buffer.from(signature.slice(3), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A deliveries row as the page shows it: event, status (its badge's words, not their capitals), result's first line, attempts. */
async function cells(row: Locator): Promise<string[]> {
  const [event = '', , result = '', attempts = ''] = await row.locator('td').allInnerTexts();
  const status = (await row.locator('td').nth(1).textContent()) ?? '';
  return [event.trim(), status.trim(), result.split('\n')[0]!.trim(), attempts.trim()];
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

describe('webhooks', () => {
  it('adds an endpoint, shows its secret once, and sends a signed test event, retried after a failed attempt', async () => {
    const page = await signInAs(demo.browser, demo.stack, DEMO_USERS.chen);
    await page.goto(`${demo.stack.url}/staff/${STUDY_HALL}/webhooks`);
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.getByText('No endpoints yet').waitFor({ timeout: 20_000 });
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The endpoint: the receiver's URL, for tickets opened.
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const newEndpoint = page.getByRole('region', { name: 'New endpoint' });
    await newEndpoint.getByRole('textbox', { name: /^Endpoint URL/ }).fill(receiver.url);
    await newEndpoint.getByRole('checkbox', { name: 'Ticket opened' }).check();
    await newEndpoint.getByRole('button', { name: 'Add endpoint' }).click();

    // Its signing secret, in full, this once.
    const secretPanel = page.getByRole('region', { name: 'Your new signing secret' });
    const secretField = secretPanel.getByRole('textbox', { name: 'Signing secret' });
    await secretField.waitFor({ timeout: 20_000 });
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^whsec_\S{20,}$/);
    expect(await secretPanel.innerText()).toContain('it will not be shown again');
    expect(await secretPanel.innerText()).toContain(receiver.url);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await secretPanel.getByRole('button', { name: 'I have saved it' }).click();
    await secretPanel.waitFor({ state: 'detached' });
    // From then on the page knows its end only.
    const card = page.getByRole('article', { name: receiver.url });
    await card.getByText(`whsec_…${secret.slice(-4)}`, { exact: true }).waitFor();
    expect(await page.getByText(secret).count()).toBe(0);

    // A test event; the receiver fails its first attempt.
    receiver.answers.push(500);
    await card.getByRole('button', { name: 'Send test event' }).click();
    const result = card.getByRole('status').filter({ hasText: 'The test event' });
    await result.waitFor({ timeout: 20_000 });
    expect(await result.innerText()).toContain('The test event was not delivered');
    expect(await result.innerText()).toContain('HTTP 500');
    expect(receiver.received).toHaveLength(1);
    const [first] = receiver.received;
    expect(signedWith(secret, first!)).toBe(true);
    expect(first!.headers).toMatchObject({ 'webhook-event': 'webhook.test', 'webhook-attempt': '1', 'content-type': 'application/json' });
    expect(Math.abs(Number(first!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
    expect(JSON.parse(first!.body)).toMatchObject({ id: first!.headers['webhook-id'], type: 'webhook.test', serverId: STUDY_HALL });
    // A wrong secret would not have checked out.
    expect(signedWith(`${secret}x`, first!)).toBe(false);

    // The deliveries list: the failed attempt, waiting for its retry.
    await card.getByRole('button', { name: 'Deliveries' }).click();
    const table = card.getByRole('table', { name: `Deliveries to ${receiver.url}` });
    const row = table.locator('tbody tr');
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    const pending = await cells(row);
    expect(pending).toEqual(['Test event', 'Pending', 'HTTP 500', '1']);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // A minute later the job runner tries again; the receiver takes it and the list shows it delivered.
    await expect.poll(() => cells(row), { timeout: 100_000, interval: 1000 }).toEqual(['Test event', 'Delivered', 'HTTP 200', '2']);
    expect(receiver.received).toHaveLength(2);
    const [, retry] = receiver.received;
    expect(signedWith(secret, retry!)).toBe(true);
    expect(retry!.body).toBe(first!.body);
    expect(retry!.headers).toMatchObject({ 'webhook-id': first!.headers['webhook-id'], 'webhook-event': 'webhook.test', 'webhook-attempt': '2' });
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.context().close();
  }, 180_000);
});
