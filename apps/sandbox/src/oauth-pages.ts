import { OAuth2Scopes, PermissionFlagsBits } from 'discord-api-types/v10';
import { avatarColour, html, initial, page } from './html.ts';
import type { Html } from './html.ts';
import { hasPermission } from './permissions.ts';
import { describeUser } from './personas.ts';
import type { FixtureUser } from './fixtures.ts';
import type { SandboxState } from './state.ts';

/** The authorize request as received; re-posted verbatim through hidden inputs. */
export interface AuthorizeParams {
  client_id: string;
  redirect_uri: string;
  response_type: string;
  scope: string;
  state: string;
  prompt: string;
  permissions: string;
  guild_id: string;
  disable_guild_select: string;
  integration_type: string;
}

export const AUTHORIZE_FIELDS: readonly (keyof AuthorizeParams)[] = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'prompt',
  'permissions',
  'guild_id',
  'disable_guild_select',
  'integration_type',
];

const SCOPE_TEXT: Partial<Record<string, string>> = {
  [OAuth2Scopes.Identify]: 'Access your username, avatar, and banner',
  [OAuth2Scopes.Email]: 'Access your email address',
  [OAuth2Scopes.Guilds]: 'Know what servers you’re in',
  [OAuth2Scopes.GuildsMembersRead]: 'Read your member info (nickname, avatar, roles) for servers you belong to',
  [OAuth2Scopes.GuildsJoin]: 'Join servers for you',
  [OAuth2Scopes.Connections]: 'Access your third-party connections',
  [OAuth2Scopes.Bot]: 'Add a bot to a server',
  [OAuth2Scopes.ApplicationsCommands]: 'Create commands in a server',
};

export function displayName(user: Pick<FixtureUser, 'global_name' | 'username'>): string {
  return user.global_name ?? user.username;
}

function hiddenFields(params: AuthorizeParams, skip: readonly string[] = []): Html[] {
  return AUTHORIZE_FIELDS.filter((name) => params[name] !== '' && !skip.includes(name)).map(
    (name) => html`<input type="hidden" name="${name}" value="${params[name]}">`,
  );
}

export function renderConsentPage(
  state: SandboxState,
  params: AuthorizeParams,
  scopes: readonly string[],
  signedInUserId: string | null,
  formAction: string,
): string {
  const app = state.applications.get(params.client_id) ?? state.application;
  const appName = app.name;
  const installsBot = scopes.includes(OAuth2Scopes.Bot);
  const lockedGuild = installsBot && params.guild_id !== '' && params.disable_guild_select === 'true';
  const demoUsers = [...state.users.values()].filter((u) => u.demo);

  const userItem = (user: FixtureUser): Html => {
    const name = displayName(user);
    const selectId = `guild-${user.id}`;
    // Only guilds the person may install into (Manage Server) and the bot has not joined yet.
    const installable = installsBot
      ? state
          .guildsOf(user.id)
          .filter((g) => !state.isBotIn(g, app) && hasPermission(state.memberPermissions(g, user.id), PermissionFlagsBits.ManageGuild))
      : [];
    const canInstall = !installsBot || (lockedGuild ? installable.some((g) => g.id === params.guild_id) : installable.length > 0);
    const guildPicker = !installsBot
      ? null
      : lockedGuild
        ? html`<p class="muted">Server: ${state.guilds.get(params.guild_id)?.name ?? params.guild_id}</p>`
        : installable.length === 0
          ? html`<p class="muted">No server where ${name} can add ${appName}</p>`
          : html`<label for="${selectId}">Add to server</label>
              <select id="${selectId}" name="guild_id">
                ${installable.map((g) => html`<option value="${g.id}"${g.id === params.guild_id ? html` selected` : ''}>${g.name}</option>`)}
              </select>`;
    return html`<li>
      <form method="post" action="${formAction}" aria-label="${name}">
        ${hiddenFields(params, lockedGuild ? [] : ['guild_id'])}
        <input type="hidden" name="user_id" value="${user.id}">
        <div class="avatar" aria-hidden="true" style="background:${avatarColour(user.id)}">${initial(name)}</div>
        <div>
          <p class="name">${name}${user.id === signedInUserId ? html`<span class="signed-in">Signed in</span>` : ''}</p>
          <p class="muted">@${user.username}</p>
          <p class="muted">${describeUser(state, user.id)}</p>
        </div>
        <div class="actions">
          ${guildPicker}
          <button type="submit" name="action" value="authorize" data-user-id="${user.id}"${canInstall ? '' : html` disabled`}>Authorize as ${name}</button>
        </div>
      </form>
    </li>`;
  };

  const body = html`
    <p class="center"><span class="badge">Local sandbox – not the real chat platform</span></p>
    <div class="avatar app-avatar" aria-hidden="true">${initial(appName)}</div>
    <h1>${appName} wants to access your account</h1>
    <p class="center muted">Pick one of the demo people below to continue as them.</p>
    <section aria-labelledby="scopes-title">
      <h2 id="scopes-title">This will allow the developer of ${appName} to</h2>
      <ul class="plain scopes">
        ${scopes.map((s) => html`<li>${SCOPE_TEXT[s] ?? s} <span class="muted">(${s})</span></li>`)}
      </ul>
      ${installsBot && params.permissions !== '' ? html`<p class="muted">Requested bot permissions: <code>${params.permissions}</code></p>` : ''}
    </section>
    <section aria-labelledby="users-title">
      <h2 id="users-title">Choose who you are</h2>
      <ul class="plain users">
        ${demoUsers.map(userItem)}
      </ul>
    </section>
    ${params.redirect_uri !== '' ? html`<p class="muted">Once you authorize, you will be redirected to <code>${params.redirect_uri}</code></p>` : ''}
    <form method="post" action="${formAction}" class="center">
      ${hiddenFields(params)}
      <button type="submit" name="action" value="cancel" class="secondary">Cancel</button>
    </form>`;
  return page(`Authorize ${appName} – chat platform sandbox`, body);
}

export function renderMessagePage(title: string, message: string, tone: 'error' | 'info' = 'error'): string {
  return page(
    `${title} – chat platform sandbox`,
    html`<p class="center"><span class="badge">Local sandbox – not the real chat platform</span></p>
      <h1>${title}</h1>
      <p class="${tone === 'error' ? 'error' : 'center'}" role="${tone === 'error' ? 'alert' : 'status'}">${message}</p>`,
  );
}
