import type { FastifyInstance, FastifyReply } from 'fastify';
import { AuditLogEvent, GatewayDispatchEvents } from 'discord-api-types/v10';
import type { APIAuditLogChange } from 'discord-api-types/v10';
import { recordAuditLog } from './audit-log.ts';
import { describeApplication } from './applications.ts';
import { publishMembershipChanges, setBotMembership, snapshotBots } from './bot-membership.ts';
import { attachmentJson } from './cdn.ts';
import { registerApplicationControlRoutes } from './control-applications.ts';
import { registerGatewayControlRoutes } from './control-gateway.ts';
import { registerGuildControlRoutes } from './control-guilds.ts';
import { registerInteractionControlRoutes } from './control-interactions.ts';
import { registerMessageControlRoutes } from './control-messages.ts';
import type { Gateway } from './gateway.ts';
import { mintGrant, tokenResponse } from './oauth.ts';
import { describeUser, standingIn } from './personas.ts';
import { describeConfig } from './sandbox-config.ts';
import { publishMember, publishMemberRemove } from './platform-events.ts';
import { toGuildMember } from './serializers.ts';
import { discordTimestamp } from './snowflake.ts';
import type { FaultStatus, GuildState, SandboxState } from './state.ts';

/**
 * Test-only levers under /_sandbox. Nothing here exists on the real platform, which is why these
 * routes answer in their own plain `{ error }` shape and never carry rate-limit headers.
 */
export const CONTROL_PREFIX = '/_sandbox';

const FAULT_STATUSES: readonly FaultStatus[] = [429, 500, 502, 503];
const DEFAULT_FAULT_PATTERN = '^/api/';

type Body = Record<string, unknown>;
type GuildMemberRoute = { Params: { guildId: string; userId: string }; Body: Body | undefined };

function bad(reply: FastifyReply, status: number, error: string) {
  return reply.code(status).send({ error });
}

function compileRegExp(source: unknown): RegExp | null | undefined {
  if (source === undefined || source === null || source === '') return undefined;
  if (typeof source !== 'string') return null;
  try {
    return new RegExp(source);
  } catch {
    return null;
  }
}

export function registerControlRoutes(app: FastifyInstance, state: SandboxState, gateway: Gateway): void {
  const p = CONTROL_PREFIX;

  app.get(`${p}/state`, async () => ({
    application: describeApplication(state.application, state.guildIdsOf(state.application), state.interactionsUrlOf(state.application)),
    /** The main application first, then every white-label one. */
    applications: [...state.applications.values()].map((a) => describeApplication(a, state.guildIdsOf(a), state.interactionsUrlOf(a))),
    /** Hex of the raw Ed25519 key interactions are signed with (the portal's "Public Key"). */
    publicKey: state.publicKey,
    config: describeConfig(state),
    now: discordTimestamp(state.now()),
    users: [...state.users.values()].map((user) => ({
      ...user,
      demo: user.demo ?? false,
      description: describeUser(state, user.id),
      guilds: state.guildsOf(user.id).map((g) => ({
        id: g.id,
        name: g.name,
        standing: standingIn(state, g, user.id),
        permissions: state.memberPermissions(g, user.id).toString(),
        roles: g.members.get(user.id)?.roles ?? [],
        botMember: state.isBotIn(g),
      })),
    })),
    guilds: [...state.guilds.values()].map((g) => ({
      id: g.id,
      name: g.name,
      ownerId: g.owner_id,
      botMember: state.isBotIn(g),
      /** Client ids of every application whose bot is in the guild, the main one included. */
      bots: [...state.applications.values()].filter((a) => state.isBotIn(g, a)).map((a) => a.clientId),
      memberCount: g.members.size,
      roles: g.roles.map((r) => ({ id: r.id, name: r.name, permissions: r.permissions, managed: r.managed })),
      channels: g.channels.map((c) => ({
        id: c.id,
        name: c.name,
        type: c.type,
        parentId: 'parent_id' in c ? (c.parent_id ?? null) : null,
        createdByBot: state.botCreatedChannels.has(c.id),
      })),
    })),
    counts: {
      codes: state.codes.size,
      accessTokens: state.grantsByAccessToken.size,
      messages: state.messages.size,
      faults: state.faults.length,
      requests: state.requests.length,
      interactions: state.interactions.size,
      ephemeralMessages: state.ephemeralMessages.size,
      openModals: state.openModals.size,
    },
  }));

  app.post(`${p}/reset`, async () => {
    const before = snapshotBots(state);
    state.reset();
    // Gateway sessions stay connected; they hear about the guilds their bot joined or left by it.
    publishMembershipChanges(state, before);
    return { ok: true };
  });

  app.get(`${p}/faults`, async () => ({ faults: state.faults.map(describeFault) }));

  app.post<{ Body: Body | undefined }>(`${p}/faults`, async (request, reply) => {
    const body = request.body ?? {};
    const status = body.status as FaultStatus;
    if (!FAULT_STATUSES.includes(status)) return bad(reply, 400, `status must be one of ${FAULT_STATUSES.join(', ')}`);
    const count = body.count ?? 1;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) return bad(reply, 400, 'count must be a positive integer');
    const retryAfter = body.retryAfter ?? 2;
    if (typeof retryAfter !== 'number' || !(retryAfter >= 0)) return bad(reply, 400, 'retryAfter must be a number of seconds >= 0');
    const compiled = compileRegExp(body.pathPattern);
    if (compiled === null) return bad(reply, 400, 'pathPattern must be a valid RegExp source');
    const pattern = compiled ?? new RegExp(DEFAULT_FAULT_PATTERN);
    if (body.method !== undefined && typeof body.method !== 'string') return bad(reply, 400, 'method must be a string');
    const fault = state.addFault({
      status,
      remaining: count,
      pattern,
      method: typeof body.method === 'string' ? body.method.toUpperCase() : null,
      retryAfter,
      global: body.global === true,
    });
    return reply.code(201).send({ fault: describeFault(fault) });
  });

  app.delete(`${p}/faults`, async () => {
    const cleared = state.faults.length;
    state.faults = [];
    return { cleared };
  });

  app.get<{ Querystring: Record<string, string | undefined> }>(`${p}/direct-messages`, async (request) => {
    const { userId } = request.query;
    return { messages: state.directMessages.filter((m) => !userId || m.recipientId === userId).map((m) => ({ ...m, content: m.message.content, embeds: m.message.embeds })) };
  });

  app.get<{ Querystring: Record<string, string | undefined> }>(`${p}/messages`, async (request) => {
    const { channelId, guildId } = request.query;
    const includeDeleted = request.query.includeDeleted !== 'false';
    const messages = [...state.messages.values()]
      .filter((m) => (!channelId || m.message.channel_id === channelId) && (!guildId || m.guildId === guildId) && (includeDeleted || !m.deleted))
      .sort((a, b) => (BigInt(a.message.id) < BigInt(b.message.id) ? -1 : 1))
      .map((m) => ({
        id: m.message.id,
        channelId: m.message.channel_id,
        guildId: m.guildId,
        authorId: m.message.author.id,
        content: m.message.content,
        embeds: m.message.embeds,
        components: m.message.components ?? [],
        flags: m.message.flags ?? 0,
        timestamp: m.message.timestamp,
        editedTimestamp: m.message.edited_timestamp,
        deleted: m.deleted,
        deletedAt: m.deletedAt,
        revisions: m.revisions,
        message: m.message,
      }));
    return { messages };
  });

  app.get<{ Querystring: Record<string, string | undefined> }>(`${p}/requests`, async (request, reply) => {
    const { pathPattern, method, auth, since } = request.query;
    const pattern = compileRegExp(pathPattern);
    if (pattern === null) return bad(reply, 400, 'pathPattern must be a valid RegExp source');
    const after = since === undefined ? 0 : Number(since);
    return {
      requests: state.requests.filter(
        (r) => r.id > after && (!pattern || pattern.test(r.path)) && (!method || r.method === method.toUpperCase()) && (!auth || r.auth === auth),
      ),
    };
  });

  app.delete(`${p}/requests`, async () => {
    const cleared = state.requests.length;
    state.requests = [];
    return { cleared };
  });

  const guildOr404 = (reply: FastifyReply, guildId: string): GuildState | null => {
    const guild = state.guilds.get(guildId);
    if (!guild) void bad(reply, 404, `unknown guild ${guildId}`);
    return guild ?? null;
  };

  const checkRoles = (guild: GuildState, roles: unknown): string | null => {
    if (roles === undefined) return null;
    if (!Array.isArray(roles) || roles.some((r) => typeof r !== 'string')) return 'roles must be an array of role ids';
    const unknown = roles.filter((r: string) => !guild.roles.some((role) => role.id === r) || r === guild.id);
    return unknown.length > 0 ? `unknown or @everyone role(s): ${unknown.join(', ')}` : null;
  };

  app.patch<GuildMemberRoute>(`${p}/guilds/:guildId/members/:userId`, async (request, reply) => {
    const guild = guildOr404(reply, request.params.guildId);
    if (!guild) return reply;
    const member = guild.members.get(request.params.userId);
    if (!member) return bad(reply, 404, `user ${request.params.userId} is not a member of ${guild.name}`);
    const body = request.body ?? {};
    const roleProblem = checkRoles(guild, body.roles);
    if (roleProblem) return bad(reply, 400, roleProblem);
    if (body.nick !== undefined && body.nick !== null && typeof body.nick !== 'string') return bad(reply, 400, 'nick must be a string or null');
    const actorId = body.actorId ?? guild.owner_id;
    if (typeof actorId !== 'string' || !guild.members.has(actorId)) return bad(reply, 400, 'actorId must be a member of the guild');
    const before = [...member.roles];
    if (Array.isArray(body.roles)) member.roles = [...(body.roles as string[])];
    if (body.nick !== undefined) member.nick = (body.nick as string | null) || null;
    const added = member.roles.filter((r) => !before.includes(r));
    const removed = before.filter((r) => !member.roles.includes(r));
    if (added.length > 0 || removed.length > 0) {
      const named = (ids: string[]) => ids.map((id) => ({ id, name: guild.roles.find((r) => r.id === id)?.name ?? '' }));
      const changes = [
        ...(added.length > 0 ? [{ key: '$add', new_value: named(added) }] : []),
        ...(removed.length > 0 ? [{ key: '$remove', new_value: named(removed) }] : []),
      ];
      recordAuditLog(state, guild.id, { actionType: AuditLogEvent.MemberRoleUpdate, userId: actorId, targetId: member.userId, changes: changes as APIAuditLogChange[] });
    }
    publishMember(state, GatewayDispatchEvents.GuildMemberUpdate, guild, member);
    return toGuildMember(state, member);
  });

  app.post<GuildMemberRoute>(`${p}/guilds/:guildId/members/:userId`, async (request, reply) => {
    const guild = guildOr404(reply, request.params.guildId);
    if (!guild) return reply;
    const { userId } = request.params;
    if (!state.users.has(userId)) return bad(reply, 404, `unknown user ${userId}`);
    if (guild.members.has(userId)) return bad(reply, 409, `user ${userId} is already a member of ${guild.name}`);
    const body = request.body ?? {};
    const roleProblem = checkRoles(guild, body.roles);
    if (roleProblem) return bad(reply, 400, roleProblem);
    const member = {
      userId,
      roles: Array.isArray(body.roles) ? [...(body.roles as string[])] : [],
      nick: typeof body.nick === 'string' && body.nick !== '' ? body.nick : null,
      avatar: null,
      joinedAt: typeof body.joined_at === 'string' ? body.joined_at : discordTimestamp(state.now()),
      premiumSince: null,
      pending: false,
      communicationDisabledUntil: null,
      flags: 0,
    };
    guild.members.set(userId, member);
    publishMember(state, GatewayDispatchEvents.GuildMemberAdd, guild, member);
    return reply.code(201).send(toGuildMember(state, member));
  });

  app.delete<GuildMemberRoute>(`${p}/guilds/:guildId/members/:userId`, async (request, reply) => {
    const guild = guildOr404(reply, request.params.guildId);
    if (!guild) return reply;
    const { userId } = request.params;
    if (userId === guild.owner_id) return bad(reply, 400, 'the owner cannot leave their guild');
    if (state.applicationByBotUser(userId)) return bad(reply, 400, `use POST ${p}/guilds/:guildId/bot to remove a bot`);
    if (!guild.members.delete(userId)) return bad(reply, 404, `user ${userId} is not a member of ${guild.name}`);
    publishMemberRemove(state, guild, userId);
    return reply.code(204).send();
  });

  app.post<{ Params: { guildId: string }; Body: Body | undefined }>(`${p}/guilds/:guildId/bot`, async (request, reply) => {
    const guild = guildOr404(reply, request.params.guildId);
    if (!guild) return reply;
    const body = request.body ?? {};
    if (typeof body.member !== 'boolean') return bad(reply, 400, 'member must be a boolean');
    if (body.permissions !== undefined && (typeof body.permissions !== 'string' || !/^\d+$/.test(body.permissions))) {
      return bad(reply, 400, 'permissions must be a decimal string');
    }
    if (body.applicationId !== undefined && typeof body.applicationId !== 'string') return bad(reply, 400, 'applicationId must be a client id string');
    const bot = body.applicationId === undefined ? state.application : state.applications.get(body.applicationId);
    if (!bot) return bad(reply, 404, `unknown application ${String(body.applicationId)}`);
    setBotMembership(state, guild, body.member, { app: bot, ...(body.permissions === undefined ? {} : { permissions: body.permissions as string }) });
    return { guildId: guild.id, applicationId: bot.clientId, botMember: state.isBotIn(guild, bot) };
  });

  app.post<{ Body: Body | undefined }>(`${p}/tokens`, async (request, reply) => {
    const body = request.body ?? {};
    const userId = body.userId;
    if (typeof userId !== 'string' || !state.users.has(userId)) return bad(reply, 404, `unknown user ${String(userId)}`);
    const rawScopes = body.scopes ?? ['identify', 'guilds'];
    const scopes = typeof rawScopes === 'string' ? rawScopes.split(/\s+/).filter(Boolean) : rawScopes;
    if (!Array.isArray(scopes) || scopes.some((s) => typeof s !== 'string')) return bad(reply, 400, 'scopes must be a string or string array');
    return tokenResponse(mintGrant(state, userId, scopes as string[]));
  });

  // Puts bytes on the CDN as if a member had attached them to a message in the channel.
  app.post<{ Body: Body | undefined }>(`${p}/attachments`, { bodyLimit: 64 * 1024 * 1024 }, async (request, reply) => {
    const body = request.body ?? {};
    const { channelId, filename, data } = body;
    const contentType = body.contentType ?? 'application/octet-stream';
    if (typeof channelId !== 'string' || !/^\d{1,20}$/.test(channelId)) return bad(reply, 400, 'channelId must be a snowflake string');
    const plainName = typeof filename === 'string' && filename.length > 0 && filename.length <= 255 && ![...filename].some((c) => c === '/' || c === '\\' || c.charCodeAt(0) < 0x20);
    if (!plainName) return bad(reply, 400, 'filename must be a plain file name');
    if (typeof contentType !== 'string') return bad(reply, 400, 'contentType must be a string');
    if (typeof data !== 'string') return bad(reply, 400, 'data must be the bytes in base64');
    const attachment = { id: state.nextId(), channelId, filename, contentType, data: Buffer.from(data, 'base64') };
    state.attachments.set(attachment.id, attachment);
    return reply.code(201).send({ attachment: attachmentJson(state, `${request.protocol}://${request.host}`, attachment) });
  });

  app.post<{ Body: Body | undefined }>(`${p}/clock`, async (request, reply) => {
    const body = request.body ?? {};
    const seconds = body.advanceSeconds ?? 0;
    if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return bad(reply, 400, 'advanceSeconds must be a number');
    state.clockOffsetMs += seconds * 1000;
    for (const listener of state.clockListeners) await listener(state.now());
    return { now: discordTimestamp(state.now()), offsetMs: state.clockOffsetMs };
  });

  registerInteractionControlRoutes(app, state, p);
  registerMessageControlRoutes(app, state, p);
  registerGuildControlRoutes(app, state, p);
  registerGatewayControlRoutes(app, gateway, p);
  registerApplicationControlRoutes(app, state, p);
}

function describeFault(fault: SandboxState['faults'][number]) {
  return {
    id: fault.id,
    status: fault.status,
    remaining: fault.remaining,
    pathPattern: fault.pattern.source,
    method: fault.method,
    retryAfter: fault.retryAfter,
    global: fault.global,
  };
}
