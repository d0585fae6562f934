import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SandboxState, StoredAttachment } from './state.ts';

/** How long an attachment link stays valid, like the platform's signed CDN links. */
export const ATTACHMENT_LINK_TTL_S = 24 * 3600;

const hex = (seconds: number) => Math.floor(seconds).toString(16);

function signature(state: SandboxState, path: string, ex: string, is: string): string {
  return createHmac('sha256', state.application.clientSecret).update(`${path}:${ex}:${is}`).digest('hex');
}

const pathOf = (a: StoredAttachment) => `/cdn/attachments/${a.channelId}/${a.id}/${encodeURIComponent(a.filename)}`;

/** The signed CDN link of an attachment, valid for a day from now (`ex`, `is` and `hm` as the platform sends them). */
export function attachmentUrl(state: SandboxState, base: string, attachment: StoredAttachment): string {
  const issued = state.now() / 1000;
  const ex = hex(issued + ATTACHMENT_LINK_TTL_S);
  const is = hex(issued);
  const path = pathOf(attachment);
  return `${base}${path}?ex=${ex}&is=${is}&hm=${signature(state, path, ex, is)}`;
}

/** An attachment in the shape the platform's API gives it (plus nothing of ours). */
export function attachmentJson(state: SandboxState, base: string, a: StoredAttachment) {
  const url = attachmentUrl(state, base, a);
  return { id: a.id, filename: a.filename, size: a.data.length, url, proxy_url: url, content_type: a.contentType };
}

const gone = (reply: FastifyReply) => reply.code(404).header('content-type', 'text/plain; charset=utf-8').send('This content is no longer available.');

/**
 * Attachment bytes at the platform's CDN paths. Links are signed and expire; an unknown, unsigned,
 * tampered or expired link answers 404 as the platform's CDN does.
 */
export function registerCdnRoutes(app: FastifyInstance, state: SandboxState): void {
  app.get<{ Params: { channelId: string; attachmentId: string; filename: string }; Querystring: Record<string, string | undefined> }>(
    '/cdn/attachments/:channelId/:attachmentId/:filename',
    async (request, reply) => {
      const { channelId, attachmentId, filename } = request.params;
      const attachment = state.attachments.get(attachmentId);
      if (!attachment || attachment.channelId !== channelId || attachment.filename !== filename) return gone(reply);
      const { ex, is, hm } = request.query;
      if (!ex || !is || !hm || hm !== signature(state, pathOf(attachment), ex, is)) return gone(reply);
      if (Number.parseInt(ex, 16) * 1000 < state.now()) return gone(reply);
      return reply
        .header('content-type', attachment.contentType)
        .header('content-length', attachment.data.length)
        .header('cache-control', 'public, max-age=86400')
        .send(attachment.data);
    },
  );
}
