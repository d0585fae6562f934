import type { Attachment, TicketFile, TicketMessage } from '@ticket/contracts';
import { safeHref } from '@/components/markdown/markdown';
import { getRuntimeConfig } from '@/lib/runtime-config';

const IMAGE_NAME = /\.(png|jpe?g|gif|webp|avif|bmp)$/i;

/** One attachment of a message as the ticket shows it: the stored copy when there is one, else the platform's. */
export interface AttachmentItem {
  key: string;
  name: string;
  size: number;
  /** Where it opens; none when neither copy can be reached by a link. */
  url: string | undefined;
  isImage: boolean;
  blurHash: string | null;
  width: number | null;
  height: number | null;
}

/**
 * Where the stored copy of a file downloads (the files service's `getFile`). Its token lets a plain
 * link or image open it, as they cannot send the Authorization header.
 */
export function storedFileUrl(file: Pick<TicketFile, 'fileId' | 'name' | 'token'>): string {
  const base = getRuntimeConfig().services.files.replace(/\/+$/, '');
  const path = `${base}/files/${encodeURIComponent(file.fileId)}/${encodeURIComponent(file.name)}`;
  return file.token ? `${path}?token=${encodeURIComponent(file.token)}` : path;
}

function itemOf(attachment: Attachment | null, file: TicketFile | null): AttachmentItem {
  const name = file?.name ?? attachment?.filename ?? '';
  // The platform's address expires; the stored copy stays. A stored copy without a token needs
  // the Authorization header, so the platform's address is the better link then.
  const url = file && (file.token || !attachment) ? storedFileUrl(file) : safeHref(attachment?.url);
  return {
    key: file?.fileId ?? attachment?.id ?? name,
    name,
    size: file?.size ?? attachment?.size ?? 0,
    url,
    isImage: Boolean(file?.width) || Boolean(attachment?.contentType?.startsWith('image/')) || IMAGE_NAME.test(name),
    blurHash: file?.blurHash ?? null,
    width: file?.width ?? null,
    height: file?.height ?? null,
  };
}

/**
 * The attachments of a message paired with their stored copies: by name first, then in order.
 * A stored file no attachment names is listed too.
 */
export function attachmentsOf(message: Pick<TicketMessage, 'message' | 'files'>): AttachmentItem[] {
  const files = [...message.files];
  const take = (index: number) => (index >= 0 ? (files.splice(index, 1)[0] ?? null) : null);
  const paired = message.message.attachments.map((attachment) => ({
    attachment,
    file: take(files.findIndex((file) => file.name === attachment.filename)),
  }));
  for (const pair of paired) if (!pair.file) pair.file = take(files.length > 0 ? 0 : -1);
  return [...paired.map(({ attachment, file }) => itemOf(attachment, file)), ...files.map((file) => itemOf(null, file))];
}
