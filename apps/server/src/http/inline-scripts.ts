import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * The Content-Security-Policy sources that allow the inline scripts of the dashboard's page (its
 * instant server list, apps/web/index.html) and nothing else inline: one `'sha256-…'` per script,
 * of its text exactly as the page holds it.
 */
export function inlineScriptHashes(indexHtmlPath: string): string[] {
  const html = readFileSync(indexHtmlPath, 'utf8');
  const hashes: string[] = [];
  for (const [, attributes, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(attributes ?? '') || !body?.trim()) continue;
    hashes.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return hashes;
}
