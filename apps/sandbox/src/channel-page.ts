import type { FastifyInstance, FastifyReply } from 'fastify';
import { ButtonStyle, ComponentType, InteractionResponseType, PermissionFlagsBits, TextInputStyle } from 'discord-api-types/v10';
import type { APIEmbed, APIMessage } from 'discord-api-types/v10';
import { ControlError } from './control-error.ts';
import type { FixtureChannel } from './fixtures.ts';
import { html, page } from './html.ts';
import type { Html } from './html.ts';
import { clickComponent, dismissModal, submitModal } from './member-interactions.ts';
import { postMemberMessage } from './member-messages.ts';
import { modalTextInputs } from './modal-validation.ts';
import { displayName, renderMessagePage } from './oauth-pages.ts';
import { hasPermission } from './permissions.ts';
import { compareSnowflakes } from './snowflake.ts';
import type { GuildState, OpenModal, SandboxState } from './state.ts';

/**
 * A member's view of one channel, for people trying the product by hand and for browser tests:
 * plain server-rendered HTML whose forms drive the same logic as the control routes, each POST
 * answering 303 back to the page (so reloading never repeats an action).
 */
export const CHANNEL_PAGE_PREFIX = '/app/channels';
const MESSAGES_SHOWN = 100;

type PageRoute = { Params: { guildId: string; channelId: string }; Querystring: Record<string, string | undefined>; Body: unknown };
type Form = Record<string, string | string[] | undefined>;

interface View {
  state: SandboxState;
  guild: GuildState;
  channel: FixtureChannel;
  as: string;
  base: string;
  /** Unique element ids within one page. */
  nextId(prefix: string): string;
}

/** A loosely typed component node: message layouts mix many component shapes. */
interface Node {
  type: number;
  [key: string]: unknown;
}

export function channelPageUrl(guildId: string, channelId: string, as: string, error?: string): string {
  const query = new URLSearchParams();
  if (as !== '') query.set('as', as);
  if (error) query.set('error', error);
  const search = query.toString();
  return `${CHANNEL_PAGE_PREFIX}/${guildId}/${channelId}${search ? `?${search}` : ''}`;
}

function nameIn(state: SandboxState, guild: GuildState, userId: string): string {
  if (userId === state.botUserId) return state.application.name ?? state.application.botUsername;
  const user = state.users.get(userId);
  return guild.members.get(userId)?.nick ?? (user ? displayName(user) : userId);
}

/** Mentions read as names, the way the client shows them. */
function readableContent(view: View, content: string): string {
  return content
    .replace(/<@!?(\d{17,20})>/g, (_m, id: string) => `@${nameIn(view.state, view.guild, id)}`)
    .replace(/<@&(\d{17,20})>/g, (_m, id: string) => `@${view.guild.roles.find((r) => r.id === id)?.name ?? 'deleted-role'}`)
    .replace(/<#(\d{17,20})>/g, (_m, id: string) => `#${view.guild.channels.find((c) => c.id === id)?.name ?? 'unknown'}`);
}

function hiddenFields(fields: Record<string, string>): Html[] {
  return Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
}

const BUTTON_CLASSES: Partial<Record<number, string>> = {
  [ButtonStyle.Secondary]: 'secondary-style',
  [ButtonStyle.Success]: 'success-style',
  [ButtonStyle.Danger]: 'danger-style',
};

function renderButton(view: View, messageId: string, c: Node): Html {
  const emoji = (c.emoji as { name?: string } | undefined)?.name;
  const label = typeof c.label === 'string' ? c.label : (emoji ?? 'Button');
  const disabled = c.disabled === true ? html` disabled` : '';
  if (c.style === ButtonStyle.Link) {
    const url = typeof c.url === 'string' && /^https?:\/\//.test(c.url) ? c.url : null;
    return url ? html`<a href="${url}" rel="noreferrer">${label}</a>` : html`<span>${label}</span>`;
  }
  if (typeof c.custom_id !== 'string') return html`<button type="button" disabled>${label}</button>`;
  return html`<form method="post" action="${view.base}/component">
    ${hiddenFields({ as: view.as, messageId, customId: c.custom_id })}
    <button type="submit" class="${BUTTON_CLASSES[c.style as number] ?? ''}"${disabled}>${label}</button>
  </form>`;
}

function renderSelect(view: View, messageId: string, c: Node): Html {
  const options = (c.options as { label: string; value: string; description?: string; default?: boolean }[] | undefined) ?? [];
  const id = view.nextId('select');
  const placeholder = typeof c.placeholder === 'string' ? c.placeholder : 'Make a selection';
  const max = typeof c.max_values === 'number' ? c.max_values : 1;
  const min = typeof c.min_values === 'number' ? c.min_values : 1;
  const disabled = c.disabled === true ? html` disabled` : '';
  return html`<form method="post" action="${view.base}/component">
    ${hiddenFields({ as: view.as, messageId, customId: String(c.custom_id) })}
    <label for="${id}">${placeholder}</label>
    <select id="${id}" name="values"${max > 1 ? html` multiple size="${Math.min(options.length, 6)}"` : ''}${min > 0 ? html` required` : ''}${disabled}>
      ${max > 1 ? '' : html`<option value="">Choose…</option>`}
      ${options.map((o) => html`<option value="${o.value}"${o.default ? html` selected` : ''}>${o.label}${o.description ? ` – ${o.description}` : ''}</option>`)}
    </select>
    <button type="submit"${disabled}>Choose</button>
  </form>`;
}

function renderNodes(view: View, messageId: string, nodes: unknown): Html[] {
  if (!Array.isArray(nodes)) return [];
  return (nodes as Node[]).map((c) => {
    switch (c.type) {
      case ComponentType.ActionRow:
        return html`<div class="components">${renderNodes(view, messageId, c.components)}</div>`;
      case ComponentType.Button:
        return renderButton(view, messageId, c);
      case ComponentType.StringSelect:
        return renderSelect(view, messageId, c);
      case ComponentType.TextDisplay:
        return html`<p class="content">${readableContent(view, String(c.content ?? ''))}</p>`;
      case ComponentType.Section:
        return html`<div>${renderNodes(view, messageId, c.components)}${c.accessory ? html`<div class="components">${renderNodes(view, messageId, [c.accessory])}</div>` : ''}</div>`;
      case ComponentType.Container:
        return html`<div class="embed">${renderNodes(view, messageId, c.components)}</div>`;
      case ComponentType.Separator:
        return html`<hr>`;
      default:
        // User, role, channel and mentionable selects cannot be driven from here; say so rather than hide them.
        return html`<p class="muted">(component type ${c.type} is not shown in the sandbox)</p>`;
    }
  });
}

function renderEmbed(view: View, embed: APIEmbed): Html {
  return html`<div class="embed">
    ${embed.author?.name ? html`<p class="muted">${embed.author.name}</p>` : ''}
    ${embed.title ? html`<p><strong>${embed.title}</strong></p>` : ''}
    ${embed.description ? html`<p class="content">${readableContent(view, embed.description)}</p>` : ''}
    ${embed.fields?.length ? html`<dl>${embed.fields.map((f) => html`<dt>${f.name}</dt><dd>${readableContent(view, f.value)}</dd>`)}</dl>` : ''}
    ${embed.footer?.text ? html`<p class="muted">${embed.footer.text}</p>` : ''}
  </div>`;
}

function renderMessage(view: View, message: APIMessage, ephemeral: boolean): Html {
  const isApp = message.author.bot === true;
  return html`<li class="message" id="message-${message.id}">
    <p class="message-head">
      <span class="author">${nameIn(view.state, view.guild, message.author.id)}</span>
      ${isApp ? html`<span class="app-tag">APP</span>` : ''}
      <time class="muted" datetime="${message.timestamp}">${message.timestamp.slice(0, 16).replace('T', ' ')}</time>
      ${message.edited_timestamp ? html`<span class="muted">(edited)</span>` : ''}
      ${ephemeral ? html`<span class="muted">Only you can see this</span>` : ''}
    </p>
    ${message.content ? html`<p class="content">${readableContent(view, message.content)}</p>` : ''}
    ${message.embeds.map((e) => renderEmbed(view, e))}
    ${message.attachments.length > 0 ? html`<ul>${message.attachments.map((a) => html`<li><a href="${a.url}">${a.filename}</a> <span class="muted">(${a.size} bytes)</span></li>`)}</ul>` : ''}
    ${renderNodes(view, message.id, message.components)}
  </li>`;
}

function renderModal(view: View, modal: OpenModal): Html {
  const field = (c: Node): Html => {
    if (c.type === ComponentType.TextDisplay) return html`<p class="content">${String(c.content ?? '')}</p>`;
    const [entry] = modalTextInputs([c as never]);
    if (!entry) return html``;
    const { input, label, description } = entry;
    const id = view.nextId('field');
    const required = input.required !== false;
    const attributes = html`id="${id}" name="field.${input.custom_id}"${required ? html` required` : ''}${input.min_length !== undefined ? html` minlength="${input.min_length}"` : ''} maxlength="${input.max_length ?? 4000}"${input.placeholder ? html` placeholder="${input.placeholder}"` : ''}${description ? html` aria-describedby="${id}-description"` : ''}`;
    return html`<div class="field">
      <label for="${id}">${label}</label>${required ? '' : html`<span class="muted">Optional</span>`}
      ${description ? html`<span class="muted" id="${id}-description">${description}</span>` : ''}
      ${input.style === TextInputStyle.Paragraph ? html`<textarea ${attributes}>${input.value ?? ''}</textarea>` : html`<input type="text" ${attributes} value="${input.value ?? ''}">`}
    </div>`;
  };
  // A dialog, as the client presents a modal, so browser tests can scope to it by its title.
  return html`<section class="modal" role="dialog" aria-labelledby="modal-title">
    <h2 id="modal-title">${modal.title}</h2>
    <form method="post" action="${view.base}/modal">
      ${hiddenFields({ as: view.as, customId: modal.customId })}
      ${(modal.components as unknown as Node[]).map(field)}
      <button type="submit">${modal.title}</button>
    </form>
    <form method="post" action="${view.base}/modal/dismiss">
      ${hiddenFields({ as: view.as })}
      <button type="submit" class="secondary">Cancel</button>
    </form>
  </section>`;
}

function renderPicker(view: View): Html {
  const { state, guild, channel } = view;
  const people = [...guild.members.keys()]
    .filter((id) => id !== state.botUserId && hasPermission(state.memberChannelPermissions(guild, channel, id), PermissionFlagsBits.ViewChannel))
    .map((id) => ({ id, name: nameIn(state, guild, id), demo: state.users.get(id)?.demo === true }))
    .sort((a, b) => Number(b.demo) - Number(a.demo) || a.name.localeCompare(b.name));
  return html`<nav class="people" aria-labelledby="people-title">
    <h2 id="people-title">View as</h2>
    <ul>
      ${people.map((p) => html`<li><a href="${channelPageUrl(guild.id, channel.id, p.id)}"${p.id === view.as ? html` aria-current="page"` : ''}>${p.name}</a></li>`)}
    </ul>
  </nav>`;
}

/** The member's latest interaction here, when it failed or is still loading: what the client shows under the message. */
function renderOutcome(view: View): Html | null {
  const latest = [...view.state.interactions.values()]
    .filter((r) => r.userId === view.as && r.channelId === view.channel.id)
    .sort((a, b) => compareSnowflakes(a.id, b.id))
    .at(-1);
  if (!latest) return null;
  const failed = latest.errors.length > 0 || latest.status === null || latest.status < 200 || latest.status > 299;
  if (failed && !latest.acknowledged) {
    return html`<div class="error" role="alert">
      <p>This interaction failed</p>
      <ul class="muted">${latest.errors.map((e) => html`<li>${e.message}</li>`)}</ul>
    </div>`;
  }
  if (latest.responseType === InteractionResponseType.DeferredChannelMessageWithSource && latest.originalMessageId === null) {
    return html`<p class="muted">${nameIn(view.state, view.guild, view.state.botUserId)} is thinking…</p>`;
  }
  return null;
}

function renderChannelPage(view: View, error: string | undefined, problem: string | null): string {
  const { state, guild, channel, as } = view;
  const title = `#${channel.name} – ${guild.name}`;
  const heading = html`<p class="center"><span class="badge">Local sandbox – not the real chat platform</span></p>
    <h1>#${channel.name}</h1>
    <p class="center muted">${guild.name}${as !== '' && !problem ? html` · viewing as ${nameIn(state, guild, as)}` : ''}</p>
    ${error ? html`<p class="error" role="alert">${error}</p>` : ''}`;
  if (problem) return page(title, html`${heading}<p class="error" role="alert">${problem}</p>${renderPicker(view)}`, { wide: true });

  const messages = [...state.messages.values()]
    .filter((m) => !m.deleted && m.message.channel_id === channel.id)
    .sort((a, b) => compareSnowflakes(a.message.id, b.message.id))
    .slice(-MESSAGES_SHOWN)
    .map((m) => m.message);
  const ephemeral = [...state.ephemeralMessages.values()]
    .filter((m) => !m.deleted && m.userId === as && m.message.channel_id === channel.id)
    .sort((a, b) => compareSnowflakes(a.message.id, b.message.id))
    .map((m) => m.message);
  const modal = state.openModals.get(as);
  const canSend = hasPermission(state.memberChannelPermissions(guild, channel, as), PermissionFlagsBits.SendMessages);
  const body = html`${heading}
    ${renderPicker(view)}
    <section class="channel-section" aria-labelledby="messages-title">
      <h2 id="messages-title">Messages</h2>
      ${messages.length > 0 ? html`<ol class="messages">${messages.map((m) => renderMessage(view, m, false))}</ol>` : html`<p class="muted">No messages yet.</p>`}
    </section>
    ${renderOutcome(view)}
    <section class="only-you channel-section" aria-labelledby="only-you-title">
      <h2 id="only-you-title">Only you can see these</h2>
      <div role="status">
        ${ephemeral.length > 0 ? html`<ol class="messages">${ephemeral.map((m) => renderMessage(view, m, true))}</ol>` : html`<p class="muted">Nothing yet.</p>`}
      </div>
    </section>
    ${modal && modal.channelId === channel.id ? renderModal(view, modal) : ''}
    <section class="channel-section" aria-labelledby="send-title">
      <h2 id="send-title">Send a message</h2>
      ${
        canSend
          ? html`<form method="post" action="${view.base}/messages">
              ${hiddenFields({ as })}
              <div class="field"><label for="message-content">Message #${channel.name}</label>
              <textarea id="message-content" name="content" required maxlength="2000"></textarea></div>
              <button type="submit">Send</button>
            </form>`
          : html`<p class="muted">${nameIn(state, guild, as)} cannot send messages here.</p>`
      }
    </section>`;
  return page(title, body, { wide: true });
}

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

export function registerChannelPages(app: FastifyInstance, state: SandboxState): void {
  const sendHtml = (reply: FastifyReply, markup: string) => reply.header('content-type', 'text/html; charset=utf-8').send(markup);

  app.get<PageRoute>(`${CHANNEL_PAGE_PREFIX}/:guildId/:channelId`, async (request, reply) => {
    const { guildId, channelId } = request.params;
    const guild = state.guilds.get(guildId);
    const channel = guild?.channels.find((c) => c.id === channelId);
    if (!guild || !channel) return sendHtml(reply.code(404), renderMessagePage('Unknown channel', `There is no channel ${channelId} in guild ${guildId}.`));
    const as = request.query.as ?? '';
    let counter = 0;
    const view: View = { state, guild, channel, as, base: `${CHANNEL_PAGE_PREFIX}/${guild.id}/${channel.id}`, nextId: (p) => `${p}-${(counter += 1)}` };
    let problem: string | null = null;
    if (as === '') problem = 'Choose whose view of the channel to show.';
    else if (!guild.members.has(as)) problem = `${state.users.get(as)?.username ?? as} is not a member of ${guild.name}.`;
    else if (!hasPermission(state.memberChannelPermissions(guild, channel, as), PermissionFlagsBits.ViewChannel)) {
      problem = `${nameIn(state, guild, as)} cannot see #${channel.name}.`;
    }
    if (problem && as !== '') reply.code(403);
    return sendHtml(reply, renderChannelPage(view, request.query.error, problem));
  });

  /** Runs a page action and answers 303 back to the page, with the refusal shown there if any. */
  const act = async (request: { params: PageRoute['Params']; body: unknown }, reply: FastifyReply, run: (form: Form, as: string) => Promise<unknown>) => {
    const { guildId, channelId } = request.params;
    const form = (request.body ?? {}) as Form;
    const as = first(form.as) ?? '';
    let error: string | undefined;
    try {
      await run(form, as);
    } catch (caught) {
      if (!(caught instanceof ControlError)) throw caught;
      error = caught.message;
    }
    return reply.code(303).header('location', channelPageUrl(guildId, channelId, as, error)).send();
  };

  app.post<PageRoute>(`${CHANNEL_PAGE_PREFIX}/:guildId/:channelId/component`, async (request, reply) =>
    act(request, reply, (form, as) => {
      const values = form.values === undefined ? undefined : [form.values].flat().filter((v) => v !== '');
      return clickComponent(state, { ...request.params, userId: as, messageId: first(form.messageId), customId: first(form.customId), values });
    }),
  );

  app.post<PageRoute>(`${CHANNEL_PAGE_PREFIX}/:guildId/:channelId/modal`, async (request, reply) =>
    act(request, reply, (form, as) => {
      const fields: Record<string, string> = {};
      for (const [key, value] of Object.entries(form)) if (key.startsWith('field.')) fields[key.slice('field.'.length)] = first(value) ?? '';
      return submitModal(state, { ...request.params, userId: as, customId: first(form.customId), fields });
    }),
  );

  app.post<PageRoute>(`${CHANNEL_PAGE_PREFIX}/:guildId/:channelId/modal/dismiss`, async (request, reply) =>
    act(request, reply, async (_form, as) => dismissModal(state, as)),
  );

  app.post<PageRoute>(`${CHANNEL_PAGE_PREFIX}/:guildId/:channelId/messages`, async (request, reply) =>
    act(request, reply, (form, as) =>
      postMemberMessage(state, request.params.channelId, { userId: as, content: first(form.content) ?? '' }, `${request.protocol}://${request.host}`),
    ),
  );
}
