/**
 * `npm run size`: the first-load JavaScript of the signed-in Dashboard, gzipped, against the budget
 * of DESIGN.md §8. It builds nothing: run `npm run build` first. It serves apps/web/dist, opens `/`
 * in Chromium as a signed-in user (a stored session and stub answers for config.json and the API),
 * waits until the network is idle, and sums the gzipped size of every script the page loaded.
 *
 * Then it loads the same screen again, nothing cached, on an emulated slow phone: a slow 4G
 * connection (400 kbit/s each way, 400 ms latency per request) and a processor 4× slower, with the
 * files compressed as the server sends them, and reports when the server list was shown and
 * clickable (budget 3 s, DESIGN.md §8).
 *
 * Options: `--verbose` lists the scripts; `--first-visit` measures a user who has not seen the
 * welcome tour yet (by default the user has); `--dist <dir>` measures another build.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext } from 'playwright-core';

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;
import { launchBrowser } from '../e2e/support/browser';

const BUDGET_KB = 175;
const USABLE_BUDGET_MS = 3_000;
/** Slow 4G as DESIGN.md §8 has it: 400 kbit/s down and up, 400 ms of latency. */
const SLOW_4G = { offline: false, latency: 400, downloadThroughput: 400_000 / 8, uploadThroughput: 400_000 / 8 };
const CPU_SLOWDOWN = 4;
const FIRST_VISIT = process.argv.includes('--first-visit');
const distArgument = process.argv.indexOf('--dist');
/** `--dist <dir>` measures another build, e.g. of an older commit. */
const DIST =
  distArgument > 0 && process.argv[distArgument + 1]
    ? path.resolve(process.argv[distArgument + 1] as string) + path.sep
    : fileURLToPath(new URL('../apps/web/dist/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/**
 * apps/web/dist as the server serves it: files as they are (their brotli copy to a browser that
 * accepts it), every other path the SPA's index.html; config.json and the API answered as below.
 */
function serveDist(): Promise<Server> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const pathname = decodeURIComponent(url.pathname);
    if (pathname === '/config.json' || pathname.startsWith('/api/')) {
      const { status, body } =
        pathname === '/config.json'
          ? { status: 200, body: { services: Object.fromEntries(SERVICES.map((name) => [name, `/api/${name}`])), demo: false, version: 'size' } }
          : apiAnswer(request.method ?? 'GET', pathname);
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(body));
      return;
    }
    const file = path.join(DIST, pathname);
    const inside = file.startsWith(DIST) && existsSync(file) && !file.endsWith(path.sep) && path.extname(file) !== '';
    const served = inside ? file : path.join(DIST, 'index.html');
    const headers: Record<string, string> = { 'Content-Type': TYPES[path.extname(served)] ?? 'application/octet-stream' };
    const brotli = /\bbr\b/.test(String(request.headers['accept-encoding'] ?? '')) && existsSync(`${served}.br`);
    if (brotli) headers['Content-Encoding'] = 'br';
    response.writeHead(200, headers);
    response.end(readFileSync(brotli ? `${served}.br` : served));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const SERVICES = ['authentication', 'server', 'settings', 'support', 'files', 'payment', 'deployment', 'localization'];

const user = {
  authType: 'Bearer',
  userId: '100000000000000001',
  username: 'ada',
  globalName: 'Ada Lovelace',
  expires: new Date(Date.now() + 24 * 3_600_000).toISOString(),
  avatarUrl: null,
  servers: [
    { integrationType: 'Discord', serverId: '200000000000000001', name: 'Analytical Engine', role: 'Owner', subjects: [] },
    { integrationType: 'Discord', serverId: '200000000000000002', name: 'Difference Club', role: 'Staff', subjects: [] },
    { integrationType: 'Discord', serverId: '200000000000000003', name: 'Poetry Science', role: 'Member', subjects: [] },
  ],
  uServers: [{ integrationType: 'Discord', serverId: '300000000000000001', name: 'Countess Lounge', role: 'Admin' }],
};

const loginConfig = {
  clientId: '123456789012345678',
  authorizeUrl: 'https://discord.example/oauth2/authorize',
  scope: 'identify guilds email guilds.members.read',
  responseType: 'code',
  prompt: 'none',
  inviteUrl: 'https://discord.example/oauth2/authorize?client_id=123456789012345678&scope=bot',
};

/** What the services answer a signed-in user with no tickets, subjects or panels yet. */
function apiAnswer(method: string, pathname: string): { status: number; body: unknown } {
  if (pathname.endsWith('/authentication/user/refresh')) return { status: 200, body: user };
  if (pathname.endsWith('/authentication/login/config')) return { status: 200, body: loginConfig };
  if (method === 'GET' && /\/settings\/servers\/[^/]+\/(subjects|panels|templates)$/.test(pathname)) {
    return { status: 200, body: [] };
  }
  if (method === 'GET' && /\/support\/(servers\/[^/]+|personal)\/tickets$/.test(pathname)) {
    return { status: 200, body: { page: 1, maxPage: 1, elements: [] } };
  }
  return { status: 404, body: { statusCode: 404, error: 'Not Found', code: 'not_found', message: 'Not found' } };
}

/** A browser context whose user is signed in already (the auth store as the app persists it). */
async function signedInContext(browser: Browser, storageState?: StorageState): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...(storageState ? { storageState } : {}) });
  await context.addInitScript(
    ({ auth, tour }) => {
      localStorage.setItem('auth', auth);
      if (tour) localStorage.setItem('tour', tour);
    },
    {
      auth: JSON.stringify({ state: { token: 'size-check-token', user }, version: 1 }),
      // A returning user, who has seen the welcome tour; `--first-visit` measures the first visit,
      // when the tour's dialog opens over the Dashboard too.
      tour: FIRST_VISIT ? null : JSON.stringify({ state: { seen: { [user.userId]: true } }, version: 1 }),
    },
  );
  return context;
}

/**
 * Milliseconds from the start of navigation until the first server's "Open dashboard" link is on
 * screen and enabled (`usable`), and until the app itself has drawn the list (`app`), on an emulated
 * slow phone with nothing in the browser's cache, for a user who has used the Dashboard before
 * (`storageState`: what the browser kept from that visit); the link is then clicked to show that it
 * works.
 */
async function timesOnSlowPhone(browser: Browser, origin: string, storageState: StorageState): Promise<{ usable: number; app: number }> {
  const context = await signedInContext(browser, storageState);
  const serverId = user.servers[0]!.serverId;
  // Noted by the page itself, on the frame the link first shows, in the page's own clock. A string,
  // not a function: tsx's helpers in a compiled function would not exist in the page.
  const link = `[data-server-id="${serverId}"] a[href="/staff/${serverId}"]`;
  await context.addInitScript(`{
    const observer = new MutationObserver(() => {
      const link = document.querySelector(${JSON.stringify(link)});
      if (!link || link.getClientRects().length === 0 || link.getAttribute('aria-disabled') === 'true') return;
      window.usableAt ??= performance.now();
      if (link.closest('.mantine-Card-root')) {
        window.appAt = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true, attributes: true });
  }`);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.goto(`${origin}/`, { waitUntil: 'commit' });
    const handle = await page.waitForFunction(() => (window as unknown as { appAt?: number }).appAt, undefined, { timeout: 60_000 });
    const app = (await handle.jsonValue()) as number;
    const usable = (await page.evaluate(() => (window as unknown as { usableAt: number }).usableAt)) as number;
    await page.locator(link).first().click();
    await page.waitForURL(`${origin}/staff/${serverId}`, { timeout: 60_000 });
    return { usable, app };
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  if (!existsSync(path.join(DIST, 'index.html'))) {
    console.error('apps/web/dist has no build: run `npm run build` first.');
    process.exit(2);
  }
  const server = await serveDist();
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await launchBrowser();
  try {
    const context = await signedInContext(browser);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const scripts = new Set<string>();
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin === origin && url.pathname.endsWith('.js')) scripts.add(url.pathname);
    });
    await page.goto(`${origin}/`, { waitUntil: 'networkidle' });
    // The Dashboard, not a redirect to sign in or an error page.
    await page
      .getByRole('main')
      .waitFor({ timeout: 15_000 })
      .catch((error: unknown) => {
        throw new Error(`The Dashboard did not render${errors.length ? `: ${errors.join('; ')}` : ''}`, { cause: error });
      });
    if (new URL(page.url()).pathname !== '/') throw new Error(`Expected the Dashboard at /, got ${page.url()}`);
    await page.waitForLoadState('networkidle');

    const sizes = [...scripts]
      .map((pathname) => {
        const gzipped = gzipSync(readFileSync(path.join(DIST, pathname))).length;
        return { file: pathname.replace(/^\/assets\//, ''), gzipped };
      })
      .sort((a, b) => b.gzipped - a.gzipped);
    const total = sizes.reduce((sum, { gzipped }) => sum + gzipped, 0);
    const kb = (bytes: number) => (bytes / 1024).toFixed(1);

    if (process.argv.includes('--verbose')) {
      for (const { file, gzipped } of sizes) console.log(`${kb(gzipped).padStart(7)} KB  ${file}`);
    }
    const visit = FIRST_VISIT ? ', first visit with the welcome tour' : '';
    console.log(`first-load JS (signed-in Dashboard${visit}): ${kb(total)} KB gzipped (budget ${BUDGET_KB} KB)`);
    if (total > BUDGET_KB * 1024) process.exitCode = 1;
    const storageState = await context.storageState();
    await context.close();

    const { usable, app } = await timesOnSlowPhone(browser, origin, storageState);
    const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(
      `Dashboard usable on slow 4G (400 kbit/s, 400 ms) with a ${CPU_SLOWDOWN}× slower processor, nothing cached: ${seconds(usable)} (budget ${seconds(USABLE_BUDGET_MS)}); the app drawn at ${seconds(app)}`,
    );
    if (usable > USABLE_BUDGET_MS) process.exitCode = 1;
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
