import { ButtonStyle, ComponentType, PermissionFlagsBits } from 'discord-api-types/v10';
import type { APIEmbed, APIMessage } from 'discord-api-types/v10';
import type { FixtureChannel } from './fixtures.ts';
import { html } from './html.ts';
import type { Html } from './html.ts';
import { displayName } from './oauth-pages.ts';
import { hasPermission } from './permissions.ts';
import type { GuildState, SandboxState } from './state.ts';

/** Messages as the channel page shows them to one member, with what that member can do to them. */
export interface View {
  state: SandboxState;
  guild: GuildState;
  channel: FixtureChannel;
  as: string;
  base: string;
  /** Unique element ids within one page. */
  nextId(prefix: string): string;
}

/** A loosely typed component node: message layouts mix many component shapes. */
export interface Node {
  type: number;
  [key: string]: unknown;
}

export function nameIn(state: SandboxState, guild: GuildState, userId: string): string {
  const bot = state.applicationByBotUser(userId);
  if (bot) return bot.name;
  const user = state.users.get(userId);
  return guild.members.get(userId)?.nick ?? (user ? displayName(user) : userId);
}

/** Mentions read as names, the way the client shows them. */
export function readableContent(view: View, content: string): string {
  return content
    .replace(/<@!?(\d{17,20})>/g, (_m, id: string) => `@${nameIn(view.state, view.guild, id)}`)
    .replace(/<@&(\d{17,20})>/g, (_m, id: string) => `@${view.guild.roles.find((r) => r.id === id)?.name ?? 'deleted-role'}`)
    .replace(/<#(\d{17,20})>/g, (_m, id: string) => `#${view.guild.channels.find((c) => c.id === id)?.name ?? 'unknown'}`);
}

export function hiddenFields(fields: Record<string, string>): Html[] {
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

export function renderMessage(view: View, message: APIMessage, ephemeral: boolean): Html {
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
    ${ephemeral ? '' : renderReactions(view, message)}
    ${ephemeral ? '' : renderMessageActions(view, message)}
  </li>`;
}

/** How a reaction's emoji is written back in forms: the character, or name:id for a server emoji. */
function emojiValue(emoji: { id: string | null; name: string | null }): string {
  return emoji.id ? `${emoji.name ?? 'emoji'}:${emoji.id}` : (emoji.name ?? '');
}

/** Each reaction is a toggle for the viewer, pressed when they reacted with it. */
function renderReactions(view: View, message: APIMessage): Html | string {
  const entries = view.state.reactions.get(message.id) ?? [];
  if (entries.length === 0) return '';
  return html`<div class="reactions">
    ${entries.map((entry) => {
      const mine = entry.userIds.includes(view.as);
      const label = entry.emoji.id ? `:${entry.emoji.name ?? 'emoji'}:` : (entry.emoji.name ?? '');
      return html`<form method="post" action="${view.base}/reactions">
        ${hiddenFields({ as: view.as, messageId: message.id, emoji: emojiValue(entry.emoji), action: mine ? 'remove' : 'add' })}
        <button type="submit" class="secondary" aria-pressed="${mine ? 'true' : 'false'}" aria-label="${label} reaction, ${entry.userIds.length}">${label} ${entry.userIds.length}</button>
      </form>`;
    })}
  </div>`;
}

/** React, and for the author edit, for the author or a moderator delete: tucked away like the client's message menu. */
function renderMessageActions(view: View, message: APIMessage): Html {
  const own = message.author.id === view.as;
  const permissions = view.state.memberChannelPermissions(view.guild, view.channel, view.as);
  const canDelete = own || hasPermission(permissions, PermissionFlagsBits.ManageMessages);
  const reactId = view.nextId('react');
  const editId = view.nextId('edit');
  return html`<details class="message-actions">
    <summary>Message actions</summary>
    <form method="post" action="${view.base}/reactions">
      ${hiddenFields({ as: view.as, messageId: message.id, action: 'add' })}
      <label for="${reactId}">Add a reaction</label>
      <input type="text" id="${reactId}" name="emoji" required maxlength="64" placeholder="👍 or name:id">
      <button type="submit">React</button>
    </form>
    ${
      own
        ? html`<form method="post" action="${view.base}/messages/edit">
            ${hiddenFields({ as: view.as, messageId: message.id })}
            <label for="${editId}">Edit message</label>
            <textarea id="${editId}" name="content" required maxlength="2000">${message.content}</textarea>
            <button type="submit">Save edit</button>
          </form>`
        : ''
    }
    ${
      canDelete
        ? html`<form method="post" action="${view.base}/messages/delete">
            ${hiddenFields({ as: view.as, messageId: message.id })}
            <button type="submit" class="danger-style">Delete message</button>
          </form>`
        : ''
    }
  </details>`;
}

