import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gunzipSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, useSandbox, type TestContext } from '../test/harness';

/**
 * The dashboard's files as the build leaves them: each text asset beside its .br and .gz copies.
 * The server sends the copy the browser accepts, unchanged, and the page itself for every route of
 * the single-page app.
 */
describe('the dashboard files', () => {
  const sandbox = useSandbox();
  let ctx: TestContext;
  let webDir: string;
  const inline = "document.body.dataset.drawn = 'yes';";
  const page = `<!doctype html><html><head><script type="module" src="/assets/index-abc.js"></script></head><body><script>${inline}</script></body></html>`;
  const script = `console.log(${JSON.stringify('x'.repeat(2000))});`;

  beforeAll(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
    mkdirSync(path.join(webDir, 'assets'));
    for (const [file, text] of [
      ['index.html', page],
      ['assets/index-abc.js', script],
    ] as const) {
      writeFileSync(path.join(webDir, file), text);
      writeFileSync(path.join(webDir, `${file}.br`), brotliCompressSync(text));
      writeFileSync(path.join(webDir, `${file}.gz`), gzipSync(text));
    }
    ctx = await createTestApp(sandbox, 'sqlite', { webDir });
  });
  afterAll(async () => {
    await ctx?.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('sends a script brotli-compressed to a browser that accepts it, gzip to one that takes only gzip, and plain otherwise', async () => {
    const br = await ctx.built.app.inject({ url: '/assets/index-abc.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gz = await ctx.built.app.inject({ url: '/assets/index-abc.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await ctx.built.app.inject({ url: '/assets/index-abc.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('answers a route of the app with its page, compressed and never cached stale', async () => {
    const reply = await ctx.built.app.inject({ url: '/staff/200000000000000001/tickets', headers: { 'accept-encoding': 'br' } });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^text\/html/);
    expect(reply.headers['cache-control']).toBe('no-cache');
    expect(reply.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(reply.rawPayload).toString()).toBe(page);
  });

  it("lets the page's own inline script run, by its hash, and no other inline script", async () => {
    const reply = await ctx.built.app.inject({ url: '/' });
    const policy = String(reply.headers['content-security-policy']);
    const scriptSrc = /script-src ([^;]*)/.exec(policy)?.[1];
    expect(scriptSrc).toBe(`'self' 'sha256-${createHash('sha256').update(inline).digest('base64')}'`);
  });
});
