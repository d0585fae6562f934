import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import { ChannelType } from 'discord-api-types/v10';
import { channelPageUrl } from './channel-page.ts';
import { avatarColour, html, initial, page } from './html.ts';
import { displayName } from './oauth-pages.ts';
import { describeUser } from './personas.ts';
import type { SandboxState } from './state.ts';

/** A first text channel of a guild with the bot, seen by its owner: somewhere to start clicking. */
function channelPageExample(state: SandboxState): { href: string; text: string } | null {
  for (const guild of state.guilds.values()) {
    if (!state.isBotIn(guild)) continue;
    const channel = guild.channels.find((c) => c.type === ChannelType.GuildText);
    const owner = state.users.get(guild.owner_id);
    if (channel && owner) return { href: channelPageUrl(guild.id, channel.id, owner.id), text: `#${channel.name} as ${displayName(owner)}` };
  }
  return null;
}

export function registerPages(app: FastifyInstance, state: SandboxState): void {
  app.get('/', async (request, reply) => {
    const base = `${request.protocol}://${request.host}`;
    const appInfo = state.application;
    const example = `${base}/oauth2/authorize?client_id=${appInfo.clientId}&response_type=code&scope=identify%20guilds&redirect_uri=${encodeURIComponent('http://localhost:3000/auth/callback')}&state=xyz`;
    const installExample = `${base}/oauth2/authorize?client_id=${appInfo.clientId}&scope=bot%20applications.commands&permissions=8`;
    const demo = [...state.users.values()].filter((u) => u.demo);
    const memberView = channelPageExample(state);
    const body = html`
      <p class="center"><span class="badge">Local sandbox – not the real chat platform</span></p>
      <h1>Chat platform sandbox</h1>
      <p class="center muted">A local stand-in for the chat platform's OAuth2 and REST API v10, for development and tests without internet or credentials.</p>
      <h2>Sign in flow</h2>
      <p>Send a browser to <code>/oauth2/authorize</code> with the usual query, for example:</p>
      <p><a href="${example}">${example}</a></p>
      <p class="muted">Exchange the code at <code>POST /api/v10/oauth2/token</code> with client id <code>${appInfo.clientId}</code> and the fixture client secret.</p>
      <p>Bot install flow: <a href="${installExample}">${installExample}</a></p>
      <h2>REST API</h2>
      <p>Point a REST client at <code>${base}/api</code> (requests go to <code>${base}/api/v10/…</code>) with <code>Authorization: Bot &lt;token&gt;</code> or <code>Bearer &lt;access token&gt;</code>.</p>
      <h2>Demo people</h2>
      <table>
        <thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Who they are</th></tr></thead>
        <tbody>
          ${demo.map(
            (u) => html`<tr><td><span class="avatar" style="display:inline-flex;width:22px;height:22px;font-size:12px;background:${avatarColour(u.id)}" aria-hidden="true">${initial(displayName(u))}</span> ${displayName(u)} <span class="muted">@${u.username}</span></td><td><code class="id">${u.id}</code></td><td>${describeUser(state, u.id)}</td></tr>`,
          )}
        </tbody>
      </table>
      <h2>Test controls</h2>
      <p class="muted">Not part of the platform: <code>GET /_sandbox/state</code>, <code>POST /_sandbox/reset</code>, <code>POST|GET|DELETE /_sandbox/faults</code>, <code>GET /_sandbox/messages</code>, <code>GET|DELETE /_sandbox/requests</code>, <code>POST|PATCH|DELETE /_sandbox/guilds/:id/members/:userId</code>, <code>POST /_sandbox/guilds/:id/bot</code>, <code>POST /_sandbox/tokens</code>, <code>POST /_sandbox/clock</code>, <code>POST /_sandbox/attachments</code> (bytes served at <code>/cdn/attachments/…</code>), <code>GET|PUT /_sandbox/config</code>, <code>POST /_sandbox/interactions/component|modal</code>, <code>GET /_sandbox/interactions</code>, <code>POST /_sandbox/channels/:id/messages</code>.</p>
      <h2>Members’ view</h2>
      <p>See a channel as a member and click, fill in modals and write there: <code>/app/channels/:guildId/:channelId?as=:userId</code>${memberView ? html`, for example <a href="${memberView.href}">${memberView.text}</a>` : ''}.</p>
      <p class="muted">Interactions are signed with the application’s public key <code>${state.publicKey}</code>.</p>`;
    return reply.header('content-type', 'text/html; charset=utf-8').send(page('Chat platform sandbox', body, { wide: true }));
  });

  /**
   * A stand-in CDN so avatars, icons and emojis render offline: every image path answers a
   * coloured SVG tile derived from the path. Clients point their CDN base at <sandbox>/cdn.
   */
  app.get('/cdn/*', async (request, reply) => {
    // Hue from the resource id (not the whole path) so one user's avatar keeps one colour in every size.
    const segments = (request.url.split('?')[0] ?? '').split('/').filter(Boolean);
    const key = segments.find((s) => /^\d{5,}/.test(s)) ?? segments.join('/');
    const hue = Math.round(((createHash('sha1').update(key).digest()[0] ?? 0) * 360) / 256);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128"><rect width="128" height="128" rx="16" fill="hsl(${hue} 45% 42%)"/><circle cx="64" cy="50" r="22" fill="#ffffff" fill-opacity="0.85"/><rect x="26" y="80" width="76" height="30" rx="15" fill="#ffffff" fill-opacity="0.85"/></svg>`;
    return reply.header('content-type', 'image/svg+xml').header('cache-control', 'public, max-age=86400').send(svg);
  });
}
