import type { FastifyInstance, FastifyReply } from 'fastify';
import { ChannelType, ComponentType, InteractionResponseType, PermissionFlagsBits, TextInputStyle } from 'discord-api-types/v10';
import { removeChannel } from './api-channel-management.ts';
import { hiddenFields, nameIn, renderMessage } from './channel-page-messages.ts';
import type { Node, View } from './channel-page-messages.ts';
import { ControlError } from './control-error.ts';
import { html, page } from './html.ts';
import type { Html } from './html.ts';
import { memberContext } from './member-context.ts';
import { clickComponent, dismissModal, submitModal } from './member-interactions.ts';
import { deleteMemberMessage, editMemberMessage } from './member-message-actions.ts';
import { postMemberMessage } from './member-messages.ts';
import { modalTextInputs } from './modal-validation.ts';
import { renderMessagePage } from './oauth-pages.ts';
import { hasPermission } from './permissions.ts';
import { memberReact, memberRemoveReactions } from './reactions.ts';
import { compareSnowflakes } from './snowflake.ts';
import type { OpenModal, SandboxState } from './state.ts';

/**
 * A member's view of one channel, for people trying the product by hand and for browser tests:
 * plain server-rendered HTML whose forms drive the same logic as the control routes, each POST
 * answering 303 back to the page (so reloading never repeats an action).
 */
export const CHANNEL_PAGE_PREFIX = '/app/channels';
const MESSAGES_SHOWN = 100;

type PageRoute = { Params: { guildId: string; channelId: string }; Querystring: Record<string, string | undefined>; Body: unknown };
type Form = Record<string, string | string[] | undefined>;

export function channelPageUrl(guildId: string, channelId: string, as: string, error?: string): string {
  const query = new URLSearchParams();
  if (as !== '') query.set('as', as);
  if (error) query.set('error', error);
  const search = query.toString();
  return `${CHANNEL_PAGE_PREFIX}/${guildId}/${channelId}${search ? `?${search}` : ''}`;
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
    .filter((id) => !state.applicationByBotUser(id) && hasPermission(state.memberChannelPermissions(guild, channel, id), PermissionFlagsBits.ViewChannel))
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
    const bot = view.state.applications.get(latest.applicationId) ?? view.state.application;
    return html`<p class="muted">${nameIn(view.state, view.guild, bot.botUserId)} is thinking…</p>`;
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
    </section>
    ${
      hasPermission(state.memberChannelPermissions(guild, channel, as), PermissionFlagsBits.ManageChannels)
        ? html`<details class="channel-section">
            <summary>Channel settings</summary>
            <form method="post" action="${view.base}/delete">
              ${hiddenFields({ as })}
              <button type="submit" class="danger-style">Delete channel</button>
            </form>
          </details>`
        : ''
    }`;
  return page(title, body, { wide: true });
}

/** Where to go after deleting a channel: the first text channel the member can still see, else the server's list. */
function landingAfterDelete(state: SandboxState, guildId: string, as: string): string {
  const guild = state.guilds.get(guildId);
  const channel = guild?.channels
    .filter((c) => c.type === ChannelType.GuildText && hasPermission(state.memberChannelPermissions(guild, c, as), PermissionFlagsBits.ViewChannel))
    .sort((a, b) => a.position - b.position)[0];
  return channel ? channelPageUrl(guildId, channel.id, as) : '/';
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
    act(request, reply, async (form, as) =>
      postMemberMessage(state, request.params.channelId, { userId: as, content: first(form.content) ?? '' }, `${request.protocol}://${request.host}`),
    ),
  );

  app.post<PageRoute>(`${CHANNEL_PAGE_PREFIX}/:guildId/:channelId/messages/edit`, async (request, reply) =>
    act(request, reply, async (form, as) =>
      editMemberMessage(state, request.params.channelId, first(form.messageId) ?? '', { userId: as, content: first(form.content) ?? '' }),
    ),
  );

  app.post<PageRoute>(`${CHANNEL_PAGE_PREFIX}/:guildId/:channelId/messages/delete`, async (request, reply) =>
    act(request, reply, async (form, as) => deleteMemberMessage(state, request.params.channelId, first(form.messageId) ?? '', { userId: as })),
  );

  app.post<PageRoute>(`${CHANNEL_PAGE_PREFIX}/:guildId/:channelId/reactions`, async (request, reply) =>
    act(request, reply, async (form, as) => {
      const input = { userId: as, emoji: first(form.emoji) ?? '' };
      const messageId = first(form.messageId) ?? '';
      return first(form.action) === 'remove'
        ? memberRemoveReactions(state, request.params.channelId, messageId, input)
        : memberReact(state, request.params.channelId, messageId, input);
    }),
  );

  // Deleting the channel leaves nothing to go back to, so this one lands elsewhere.
  app.post<PageRoute>(`${CHANNEL_PAGE_PREFIX}/:guildId/:channelId/delete`, async (request, reply) => {
    const { guildId, channelId } = request.params;
    const as = first(((request.body ?? {}) as Form).as) ?? '';
    try {
      const { guild, channel, user, permissions } = memberContext(state, guildId, channelId, as);
      if (!hasPermission(permissions, PermissionFlagsBits.ManageChannels)) throw new ControlError(403, `${user.username} cannot delete #${channel.name}`);
      removeChannel(state, guild, channel, as, null);
    } catch (caught) {
      if (!(caught instanceof ControlError)) throw caught;
      return reply.code(303).header('location', channelPageUrl(guildId, channelId, as, caught.message)).send();
    }
    return reply.code(303).header('location', landingAfterDelete(state, guildId, as)).send();
  });
}
