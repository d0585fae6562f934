import type { Ticket, TicketFile, TicketMessage } from '@ticket/contracts';
import type { TFunction } from 'i18next';
import { safeHref } from '@/components/markdown/markdown';
import { emojiText } from '@/lib/emoji';
import { attachmentsOf } from './attachments';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or attribute value: nothing in it can open a tag, close an attribute or start an entity. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

/** A file name for the export: the ticket's number and name, without what file systems refuse. */
export function exportFileName(ticket: Pick<Ticket, 'number' | 'name'>, extension: 'html' | 'json'): string {
  const name = ticket.name.replace(/[^\p{L}\p{N}_-]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 60);
  return `ticket-${ticket.number}${name ? `-${name}` : ''}.${extension}`;
}

/**
 * The ticket with its stored files as the files service lists them now (`getTicketFiles`): their
 * download tokens expire, so an export takes fresh ones rather than those of when the ticket was
 * loaded. A file no longer listed keeps its name and size, without a token.
 */
export function withFreshFiles(ticket: Ticket, files: TicketFile[]): Ticket {
  const fresh = new Map(files.map((file) => [file.fileId, file]));
  return {
    ...ticket,
    messages: ticket.messages.map((message) => ({
      ...message,
      files: message.files.map(({ token: _stale, ...file }) => fresh.get(file.fileId) ?? file),
    })),
  };
}

/** The ticket as loaded, for other tools: the shape of the API's `Ticket`. */
export const transcriptJson = (ticket: Ticket): string => `${JSON.stringify(ticket, null, 2)}\n`;

export interface TranscriptContext {
  t: TFunction;
  /** The UI language, for `<html lang>` and the dates. */
  locale: string;
  dir: 'ltr' | 'rtl';
  formatDate: (iso: string) => string;
  formatBytes: (bytes: number) => string;
  /**
   * Where the page is, so the file links of the transcript work once it is saved elsewhere: for as
   * long as their download tokens do (see `withFreshFiles`), after which the files open from the
   * dashboard again.
   */
  origin: string;
}

/** A link of the transcript: web addresses only, made absolute. */
function absoluteHref(url: string | undefined, origin: string): string | undefined {
  if (!url) return undefined;
  try {
    return safeHref(new URL(url, origin).href);
  } catch {
    return undefined;
  }
}

const STYLE = `
  :root { color-scheme: light dark; }
  body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; padding: 24px; background: Canvas; color: CanvasText; }
  main { max-width: 860px; margin: 0 auto; }
  h1 { font-size: 1.5em; margin: 0 0 4px; }
  h2 { font-size: 1.1em; margin: 28px 0 8px; }
  .muted { opacity: 0.7; font-size: 0.9em; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
  dt { opacity: 0.7; }
  dd { margin: 0; overflow-wrap: anywhere; white-space: pre-wrap; }
  ol.messages { list-style: none; padding: 0; margin: 0; }
  .message { border: 1px solid rgba(127,127,127,0.35); border-radius: 8px; padding: 10px 12px; margin: 0 0 8px; }
  .message header { display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: baseline; }
  .author { font-weight: 600; }
  .tag { font-size: 0.75em; border: 1px solid currentColor; border-radius: 4px; padding: 0 4px; opacity: 0.8; }
  .content { white-space: pre-wrap; overflow-wrap: anywhere; margin-top: 4px; }
  .deleted .content { opacity: 0.6; }
  .mark { font-size: 0.8em; font-weight: 600; }
  .mark.deleted { color: #c92a2a; }
  .embed { border-left: 4px solid var(--embed, rgba(127,127,127,0.5)); padding: 4px 10px; margin-top: 6px; background: rgba(127,127,127,0.08); border-radius: 4px; }
  .embed .title { font-weight: 600; }
  details { margin-top: 6px; }
  .revision { border-left: 2px solid rgba(127,127,127,0.5); padding-left: 8px; margin-top: 6px; }
  ul.files, ul.reactions { list-style: none; padding: 0; margin: 6px 0 0; display: flex; flex-wrap: wrap; gap: 6px; }
  ul.reactions li { border: 1px solid rgba(127,127,127,0.35); border-radius: 10px; padding: 0 8px; }
  img { max-width: 320px; max-height: 240px; border-radius: 4px; display: block; }
`;

/**
 * The ticket as one self-contained HTML page (its styles inline, no script, a policy that loads
 * nothing but images): details, form answers, members, history and every message with its edits,
 * embeds, attachments and reactions. Every text from the ticket is escaped; links are web
 * addresses only.
 */
export function transcriptHtml(ticket: Ticket, context: TranscriptContext): string {
  const { t, formatDate, formatBytes, origin } = context;
  const nameOf = (id: string | null | undefined): string =>
    id ? (ticket.users.find((user) => user.id === id)?.name ?? id) : '—';
  const text = (value: string) => escapeHtml(value);
  // Mentions read as names, as on screen; the rest of the markdown stays as it was written.
  const withMentions = (value: string) => value.replace(/<@!?(\d{1,20})>/g, (_, id: string) => `@${nameOf(id)}`);
  const fact = (label: string, value: string) => `<dt>${text(label)}</dt><dd>${text(value)}</dd>`;
  const title = t('tickets.export.title', { number: ticket.number, name: ticket.name });

  const details = [
    fact(t('tickets.columns.server'), ticket.server.name),
    fact(t('tickets.columns.subject'), ticket.subject.name),
    fact(t('tickets.view.state'), t(`tickets.states.${ticket.state}`)),
    fact(t('tickets.columns.author'), nameOf(ticket.author)),
    fact(t('tickets.columns.claimedBy'), nameOf(ticket.assignee)),
    fact(t('tickets.view.opened'), formatDate(ticket.createdAt)),
    ...(ticket.closed
      ? [
          fact(t('tickets.columns.closedBy'), t('tickets.closedByAt', { name: nameOf(ticket.closed.closedBy), date: formatDate(ticket.closed.closedAt) })),
          ...(ticket.closed.reason ? [fact(t('tickets.view.reason'), ticket.closed.reason)] : []),
        ]
      : []),
  ].join('');

  const answers = ticket.templateAnswers.length
    ? `<section><h2>${text(t('tickets.formAnswers'))}</h2><dl>${ticket.templateAnswers.map((a) => fact(a.question, a.answer)).join('')}</dl></section>`
    : '';

  const members = [ticket.author, ...ticket.members.filter((id) => id !== ticket.author)]
    .map((id) => `<li>${text(nameOf(id))}${id === ticket.author ? ` <span class="muted">(${text(t('tickets.columns.author'))})</span>` : ''}</li>`)
    .join('');

  const embedHtml = (embed: TicketMessage['message']['embeds'][number]) => {
    const color = embed.color === undefined ? '' : ` style="--embed: #${embed.color.toString(16).padStart(6, '0')}"`;
    const parts = [
      embed.author?.name ? `<div class="muted">${text(embed.author.name)}</div>` : '',
      embed.title ? `<div class="title">${text(embed.title)}</div>` : '',
      embed.description ? `<div class="content">${text(withMentions(embed.description))}</div>` : '',
      ...(embed.fields ?? []).map((field) => `<div><strong>${text(field.name)}</strong><div class="content">${text(field.value)}</div></div>`),
      embed.footer?.text ? `<div class="muted">${text(embed.footer.text)}</div>` : '',
    ];
    return `<div class="embed"${color}>${parts.join('')}</div>`;
  };

  const messageHtml = (message: TicketMessage) => {
    const classes = ['message', message.deleted ? 'deleted' : ''].filter(Boolean).join(' ');
    const type = message.messageType === 'User' ? '' : `<span class="tag">${text(t(`tickets.messageTypes.${message.messageType}`))}</span>`;
    const marks = [
      message.modified ? `<span class="mark">${text(t('tickets.message.edited'))}</span>` : '',
      message.deleted
        ? `<span class="mark deleted">${text(message.deletedAt ? t('tickets.message.deletedAt', { date: formatDate(message.deletedAt) }) : t('tickets.message.deleted'))}</span>`
        : '',
    ].join('');
    const history = message.history.length
      ? `<details><summary>${text(t('tickets.message.earlierVersions', { count: message.history.length }))}</summary>${message.history
          .map(
            (revision) =>
              `<div class="revision"><div class="muted">${text(t('tickets.message.replacedAt', { date: formatDate(revision.editedAt) }))}</div><div class="content">${text(withMentions(revision.content))}</div></div>`,
          )
          .join('')}</details>`
      : '';
    const files = attachmentsOf(message)
      .map((item) => {
        const href = absoluteHref(item.url, origin);
        const label = `${text(item.name)} <span class="muted">(${text(formatBytes(item.size))})</span>`;
        if (!href) return `<li>${label}</li>`;
        const image = item.isImage ? `<img src="${text(href)}" alt="${text(item.name)}" loading="lazy">` : '';
        return `<li><a href="${text(href)}" rel="noopener noreferrer">${image}${label}</a></li>`;
      })
      .join('');
    const reactions = message.reactions
      .map((reaction) => `<li>${text(emojiText(reaction.emoji))} ${reaction.count}</li>`)
      .join('');
    return [
      `<li class="${classes}" id="message-${text(message.messageId)}">`,
      `<header><span class="author">${text(nameOf(message.authorId))}</span>${type}<time class="muted" datetime="${text(message.createdAt)}">${text(formatDate(message.createdAt))}</time>${marks}</header>`,
      message.message.content ? `<div class="content">${text(withMentions(message.message.content))}</div>` : '',
      message.message.embeds.map(embedHtml).join(''),
      files ? `<ul class="files" aria-label="${text(t('tickets.message.attachments'))}">${files}</ul>` : '',
      reactions ? `<ul class="reactions" aria-label="${text(t('tickets.message.reactions'))}">${reactions}</ul>` : '',
      history,
      '</li>',
    ].join('');
  };

  const messages = ticket.messages.length
    ? `<ol class="messages">${ticket.messages.map(messageHtml).join('\n')}</ol>`
    : `<p class="muted">${text(t('tickets.noMessages'))}</p>`;

  return `<!doctype html>
<html lang="${text(context.locale)}" dir="${context.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:">
<title>${text(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${text(title)}</h1>
<p class="muted">${text(t('tickets.export.exportedAt', { date: formatDate(new Date().toISOString()) }))}</p>
<section><h2>${text(t('tickets.view.details'))}</h2><dl>${details}</dl></section>
${answers}
<section><h2>${text(t('tickets.view.members'))}</h2><ul>${members}</ul></section>
<section><h2>${text(t('tickets.messages', { count: ticket.messages.length }))}</h2>
${messages}
</section>
</main>
</body>
</html>
`;
}

/** Hands `content` to the browser as a download named `fileName`. */
export function downloadFile(fileName: string, content: string, type: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers start the download after the click returns: the address must outlive it a little.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
