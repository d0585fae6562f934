import { randomUUID } from 'node:crypto';
import {
  PLANS,
  type PlanType,
} from '@ticket/contracts';
import type {
  ApiKeyCalls,
  ApiKeyCallsQuery,
  ApiKeyInfo,
  ApiKeyResponse,
  AuthenticateRequest,
  AuthenticateResponse,
  BearerUser,
  Identity,
  IsAuthenticatedRequest,
  LoginConfig,
  ServerRole,
  SessionInfo,
} from '@ticket/contracts';
import { PermissionFlagsBits, type APIUser, type RESTAPIPartialCurrentUserGuild } from 'discord-api-types/v10';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import { fromJson, toTimestamp } from '../../db/database';
import { staffSubjectsByServer } from '../settings';
import type { DB } from '../../db/schema';
import { ForbiddenError, LimitReachedError, NotFoundError, UnauthorizedError } from '../../http/errors';
import type { Caller } from '../../http/route';
import { hashSecret, randomToken, safeEqual, seal, unseal } from '../../platform/crypto';
import { OAUTH_SCOPES, type MemberStanding, type PlatformClient, type TokenSet } from '../../platform/discord';
import { ApiKeyCallLog, type ApiKeyCallLogOptions, type ApiKeyCallRecord } from './api-key-calls';
import * as repo from './repository';
import { createAccessChanges, isSessionEnd, type AccessChange, type AccessChanges, type RoleChange } from './access-changes';

export type RefreshMode = 'normal' | 'bypass_cache' | 'force';

const SESSION_PREFIX = 'tds_';
const API_KEY_PREFIX = 'tdk_';
/** Refresh the platform token this long before it actually expires. */
const TOKEN_LEEWAY_MS = 60_000;
/** last_used_at is written at most this often per session, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;
/**
 * How long a role looked up for an access check is reused in this process (never past the role's
 * own age bound); a sync, a re-read or a reported change in any process replaces it at once (see
 * access-changes.ts).
 */
const ROLE_REUSE_MS = 10_000;
/**
 * How long a session looked up for a call is reused in this process (never past its expiry): a
 * signed-in call then reads no session from the database. Ending a session in any process ends its
 * reuse in all of them at once (see access-changes.ts).
 */
const SESSION_REUSE_MS = 10_000;
/** Reused roles and sessions are bounded: past this many, a process starts again from nothing. */
const MAX_REUSED = 10_000;

/** Owner, then Admin (ADMINISTRATOR or MANAGE_GUILD), then Staff (holds a staff role), else Member. */
export function computeRole(guild: RESTAPIPartialCurrentUserGuild, memberRoleIds: string[], staffRoles: Set<string> | undefined): ServerRole {
  if (guild.owner) return 'Owner';
  const permissions = BigInt(guild.permissions ?? '0');
  if ((permissions & (PermissionFlagsBits.Administrator | PermissionFlagsBits.ManageGuild)) !== 0n) return 'Admin';
  if (staffRoles && memberRoleIds.some((id) => staffRoles.has(id))) return 'Staff';
  return 'Member';
}

/** The same rule as computeRole, from what the bot sees of the server instead of the user's own guild list. */
export function roleFromStanding(standing: MemberStanding, guildId: string, userId: string, staffRoles: Set<string> | undefined): ServerRole | null {
  if (standing.ownerId === userId) return 'Owner';
  if (!standing.memberRoles) return null;
  const held = new Set([guildId, ...standing.memberRoles]);
  const permissions = standing.roles.filter((r) => held.has(r.id)).reduce((all, r) => all | BigInt(r.permissions), 0n);
  if ((permissions & (PermissionFlagsBits.Administrator | PermissionFlagsBits.ManageGuild)) !== 0n) return 'Admin';
  if (staffRoles && standing.memberRoles.some((id) => staffRoles.has(id))) return 'Staff';
  return 'Member';
}

export interface RequestMeta {
  userAgent: string | null;
  ip: string | null;
}

export class AuthService {
  private readonly roles = new Map<string, { role: ServerRole | null; until: number }>();
  /** Sessions by their token's hash. */
  private readonly sessions = new Map<string, { session: repo.SessionRow; until: number }>();
  /** The calls made with API keys, written in batches. */
  readonly apiKeyCalls: ApiKeyCallLog;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly platform: PlatformClient,
    private readonly config: Config,
    callLog: ApiKeyCallLogOptions = {},
    private readonly accessChanges: AccessChanges = createAccessChanges(null),
  ) {
    this.apiKeyCalls = new ApiKeyCallLog(db, callLog);
    accessChanges.subscribe((change) => this.forget(change));
  }

  loginConfig(): LoginConfig {
    const invite = new URL(this.config.platform.authorizeUrl);
    invite.searchParams.set('client_id', this.platform.clientId);
    invite.searchParams.set('scope', 'bot applications.commands');
    invite.searchParams.set('permissions', String(PermissionFlagsBits.Administrator));
    return {
      clientId: this.platform.clientId,
      authorizeUrl: this.config.platform.authorizeUrl,
      scope: OAUTH_SCOPES.join(' '),
      responseType: 'code',
      prompt: 'none',
      inviteUrl: invite.toString(),
    };
  }

  // --- Sign-in, sessions --------------------------------------------------------------------

  async signIn({ code, redirectUri }: AuthenticateRequest, meta: RequestMeta): Promise<AuthenticateResponse> {
    const tokens = await this.platform.exchangeCode(code, redirectUri);
    const granted = new Set(tokens.scope.split(' '));
    const missing = (['identify', 'guilds'] as const).filter((s) => !granted.has(s));
    if (missing.length > 0) throw new UnauthorizedError(`Sign-in did not grant the required scopes: ${missing.join(', ')}`);

    // Read everything from the platform first, then write it all at once: a platform failure
    // half-way leaves no user, membership or session behind.
    const me = await this.platform.getCurrentUser(tokens.accessToken);
    const guilds = await this.readGuilds(me.id, tokens.accessToken, false);
    const token = randomToken(SESSION_PREFIX);
    const sessionId = randomUUID();
    const expiresAt = toTimestamp(Date.now() + this.config.sessionTtlSeconds * 1000);
    await this.db.transaction().execute(async (trx) => {
      await repo.upsertUser(trx, { ...this.userRow(me, tokens), synced_at: null });
      await repo.replaceMemberships(trx, me.id, guilds);
      await repo.insertSession(trx, {
        id: sessionId,
        token_hash: hashSecret(token),
        user_id: me.id,
        expires_at: expiresAt,
        user_agent: meta.userAgent?.slice(0, 512) ?? null,
        ip: meta.ip,
      });
    });
    await this.forgetRoles(me.id);
    return { user: await this.bearerUser(me.id, expiresAt), token };
  }

  async logout(caller: Caller | null): Promise<void> {
    if (caller?.kind !== 'user') throw new UnauthorizedError();
    await repo.deleteSession(this.db, caller.sessionId);
    await this.accessChanges.publish({ sessionId: caller.sessionId });
  }

  async listSessions(caller: Caller | null): Promise<SessionInfo[]> {
    if (caller?.kind !== 'user') throw new UnauthorizedError();
    const rows = await repo.listLiveSessions(this.db, caller.userId);
    return rows.map((r) => ({
      id: r.id,
      createdAt: r.created_at,
      lastUsedAt: r.last_used_at,
      expiresAt: r.expires_at,
      userAgent: r.user_agent,
      current: r.id === caller.sessionId,
    }));
  }

  async deleteSession(caller: Caller | null, sessionId: string): Promise<void> {
    if (caller?.kind !== 'user') throw new UnauthorizedError();
    if (!(await repo.deleteUserSession(this.db, caller.userId, sessionId))) throw new NotFoundError('No such session');
    await this.accessChanges.publish({ sessionId });
  }

  /** normal reuses platform data younger than the cache TTL; bypass_cache rereads it; force also renews the platform token. */
  async refresh(caller: Caller | null, mode: RefreshMode): Promise<BearerUser> {
    if (caller?.kind !== 'user') throw new UnauthorizedError();
    const session = await repo.findSessionById(this.db, caller.sessionId);
    if (!session) throw new UnauthorizedError();
    await this.syncIfNeeded(caller.userId, mode);
    return this.bearerUser(caller.userId, session.expires_at);
  }

  private async syncIfNeeded(userId: string, mode: RefreshMode): Promise<void> {
    const user = await repo.findUser(this.db, userId);
    if (!user) throw new UnauthorizedError();
    const stale = !user.synced_at || Date.parse(user.synced_at) + this.config.platformCacheTtlSeconds * 1000 <= Date.now();
    if (mode === 'normal' && !stale) return;
    const accessToken = await this.platformToken(user, mode === 'force');
    const guilds = await this.readGuilds(userId, accessToken, mode !== 'normal');
    await this.db.transaction().execute((trx) => repo.replaceMemberships(trx, userId, guilds));
    await this.forgetRoles(userId);
  }

  /** A usable platform access token for the user, renewed when expiring or when forced. */
  private async platformToken(user: NonNullable<Awaited<ReturnType<typeof repo.findUser>>>, force: boolean): Promise<string> {
    if (!user.access_token || !user.refresh_token) throw new UnauthorizedError('Please sign in again');
    const key = this.config.encryptionKey;
    const expiring = !user.token_expires_at || Date.parse(user.token_expires_at) - TOKEN_LEEWAY_MS <= Date.now();
    if (!force && !expiring) return unseal(user.access_token, key);
    const tokens = await this.platform.refreshToken(unseal(user.refresh_token, key));
    await repo.updateUserTokens(this.db, user.id, {
      access_token: seal(tokens.accessToken, key),
      refresh_token: seal(tokens.refreshToken, key),
      token_expires_at: tokens.expiresAt.toISOString(),
      scope: tokens.scope,
    });
    return tokens.accessToken;
  }

  private userRow(me: APIUser, tokens: TokenSet) {
    const key = this.config.encryptionKey;
    return {
      id: me.id,
      username: me.username,
      global_name: me.global_name ?? null,
      avatar: me.avatar ?? null,
      email: me.email ?? null,
      locale: me.locale ?? null,
      access_token: seal(tokens.accessToken, key),
      refresh_token: seal(tokens.refreshToken, key),
      token_expires_at: tokens.expiresAt.toISOString(),
      scope: tokens.scope,
    };
  }

  /** The user's guilds with their role in each and whether the bot is there. */
  private async readGuilds(userId: string, accessToken: string, fresh: boolean): Promise<repo.GuildFact[]> {
    const [guilds, botIds] = await Promise.all([
      this.platform.getCurrentUserGuilds(accessToken),
      this.platform.botGuildIds(fresh),
    ]);
    const bot = new Set(botIds);
    const staffSubjects = await staffSubjectsByServer(
      this.db,
      guilds.filter((g) => bot.has(g.id)).map((g) => g.id),
    );
    const staffRoles = new Map([...staffSubjects].map(([id, subjects]) => [id, new Set(subjects.flatMap((s) => [...s.roleIds]))]));
    return Promise.all(
      guilds.map(async (guild): Promise<repo.GuildFact> => {
        const botPresent = bot.has(guild.id);
        let role = computeRole(guild, [], undefined);
        let member = null;
        // Member roles are only worth a platform call where they can make the user staff.
        if (botPresent && role === 'Member' && (staffRoles.get(guild.id)?.size ?? 0) > 0) {
          member = await this.platform.getMember(guild.id, userId, fresh);
          role = computeRole(guild, member?.roles ?? [], staffRoles.get(guild.id));
        }
        return {
          serverId: guild.id,
          name: guild.name,
          icon: guild.icon ?? null,
          ownerId: guild.owner ? userId : null,
          botPresent,
          role,
          nickname: member?.nick ?? null,
          avatar: member?.avatar ?? null,
          roleIds: member?.roles ?? [],
        };
      }),
    );
  }

  async bearerUser(userId: string, expires: string): Promise<BearerUser> {
    const user = await repo.findUser(this.db, userId);
    if (!user) throw new UnauthorizedError();
    const memberships = await repo.listMemberships(this.db, userId);
    const staffSubjects = await staffSubjectsByServer(
      this.db,
      memberships.filter((m) => m.active === 1 && m.role !== 'Member').map((m) => m.serverId),
    );
    const servers: BearerUser['servers'] = [];
    const uServers: BearerUser['uServers'] = [];
    for (const m of memberships) {
      const serverIcon = this.platform.iconUrl(m.serverId, m.icon);
      const role = m.role as ServerRole;
      if (m.active === 1) {
        servers.push({
          integrationType: 'Discord',
          serverId: m.serverId,
          name: m.name,
          role,
          subjects: this.actingSubjects(role, fromJson<string[]>(m.roleIds), staffSubjects.get(m.serverId) ?? []),
          serverIcon,
          nickname: m.nickname,
          avatarUrl: this.platform.memberAvatarUrl(m.serverId, userId, m.avatar),
        });
      } else if (role === 'Owner' || role === 'Admin') {
        // Only servers the user could add the bot to are worth offering.
        uServers.push({ integrationType: 'Discord', serverId: m.serverId, name: m.name, role, serverIcon });
      }
    }
    return {
      authType: 'Bearer',
      servers,
      userId,
      username: user.username,
      globalName: user.global_name,
      expires,
      uServers,
      avatarUrl: this.platform.avatarUrl(userId, user.avatar),
    };
  }

  /** Admins act in every subject; staff in those naming one of their roles; members in none. */
  private actingSubjects(role: ServerRole, held: string[], subjects: { subjectId: string; roleIds: Set<string> }[]): string[] {
    if (role === 'Owner' || role === 'Admin') return subjects.map((s) => s.subjectId);
    if (role === 'Member') return [];
    return subjects.filter((s) => held.some((r) => s.roleIds.has(r))).map((s) => s.subjectId);
  }

  // --- Access keys --------------------------------------------------------------------------

  /** The caller behind any access key: an operator key, a server API key or a session token. */
  async resolve(accessKey: string): Promise<Caller | null> {
    if (accessKey.startsWith(API_KEY_PREFIX)) {
      const row = await repo.findApiKeyByHash(this.db, hashSecret(accessKey));
      if (!row) return null;
      if (!row.last_used_at || Date.parse(row.last_used_at) + TOUCH_INTERVAL_MS < Date.now()) {
        await repo.touchApiKey(this.db, row.server_id);
      }
      return { kind: 'apiKey', serverId: row.server_id, keyPrefix: row.key_prefix };
    }
    if (this.config.adminKeys.some((k) => safeEqual(k, accessKey))) return { kind: 'admin' };
    if (!accessKey.startsWith(SESSION_PREFIX)) return null;
    const session = await this.liveSession(hashSecret(accessKey));
    if (!session) return null;
    if (Date.parse(session.last_used_at) + TOUCH_INTERVAL_MS < Date.now()) {
      session.last_used_at = toTimestamp(Date.now());
      await repo.touchSession(this.db, session.id);
    }
    return { kind: 'user', userId: session.user_id, sessionId: session.id };
  }

  /** The session of a token, reused for a few seconds and never past its expiry; a token of no live session is asked of the database every time. */
  private async liveSession(tokenHash: string): Promise<repo.SessionRow | undefined> {
    const known = this.sessions.get(tokenHash);
    if (known && known.until > Date.now()) return known.session;
    this.sessions.delete(tokenHash);
    const session = await repo.findLiveSession(this.db, tokenHash);
    if (!session) return undefined;
    if (this.sessions.size >= MAX_REUSED) this.sessions.clear();
    this.sessions.set(tokenHash, { session, until: Math.min(Date.now() + SESSION_REUSE_MS, Date.parse(session.expires_at)) });
    return session;
  }

  /**
   * The user's role on the server, never older than ROLE_MAX_AGE_SECONDS: past that it is read
   * again from the platform (what the bot sees: owner, roles held, their permissions), and a user
   * who left, was kicked or was banned has no role there any more.
   */
  async roleOn(userId: string, serverId: string): Promise<ServerRole | null> {
    const key = `${userId}:${serverId}`;
    const known = this.roles.get(key);
    if (known && known.until > Date.now()) return known.role;
    const maxAgeMs = this.config.roleMaxAgeSeconds * 1000;
    const stored = await repo.findRole(this.db, userId, serverId);
    let role = stored?.role ?? null;
    let checkedAt = stored ? Date.parse(stored.checkedAt) : Date.now();
    if (stored && checkedAt + maxAgeMs <= Date.now()) {
      role = await this.readRole(userId, serverId, stored.role, checkedAt);
      checkedAt = Date.now();
    }
    if (this.roles.size >= MAX_REUSED) this.roles.clear();
    this.roles.set(key, { role, until: Math.min(Date.now() + ROLE_REUSE_MS, checkedAt + maxAgeMs) });
    return role;
  }

  /**
   * Reads the role again from the platform and records it for every process. While the platform
   * cannot answer (rate limited, down), the last role read stands for as long as platform data is
   * reused anyway; past that, the caller gets the platform's error rather than stale rights.
   */
  private async readRole(userId: string, serverId: string, last: ServerRole, checkedAt: number): Promise<ServerRole | null> {
    let standing;
    try {
      standing = await this.platform.standing(serverId, userId, this.config.roleMaxAgeSeconds);
    } catch (error) {
      if (checkedAt + this.config.platformCacheTtlSeconds * 1000 > Date.now()) return last;
      throw error;
    }
    // The bot is not in the server: nothing there can be read again, and nothing there acted on.
    if (!standing) return last;
    const staffRoles = (await staffSubjectsByServer(this.db, [serverId])).get(serverId) ?? [];
    const role = roleFromStanding(standing, serverId, userId, new Set(staffRoles.flatMap((s) => [...s.roleIds])));
    await repo.putRole(this.db, userId, serverId, role ? { role, roleIds: standing.memberRoles ?? [] } : null);
    return role;
  }

  /**
   * The platform says roles changed in the server (for one member, or for all): their roles there
   * are read again at their next access check, in every process.
   */
  async staleRoles(serverId: string, userId?: string): Promise<void> {
    await repo.markRolesStale(this.db, serverId, userId);
    await this.accessChanges.publish(userId ? { serverId, userId } : { serverId });
  }

  /** The user's servers and roles were just replaced: what every process reused of them goes. */
  private async forgetRoles(userId: string): Promise<void> {
    await this.accessChanges.publish({ userId });
  }

  /** What this process reuses and a change makes out of date: a session that ended, or roles. */
  private forget(change: AccessChange): void {
    if (isSessionEnd(change)) {
      for (const [hash, known] of this.sessions) if (known.session.id === change.sessionId) this.sessions.delete(hash);
    } else this.dropRoles(change);
  }

  private dropRoles({ serverId, userId }: RoleChange): void {
    for (const key of this.roles.keys()) {
      const [user, server] = key.split(':');
      if ((!serverId || server === serverId) && (!userId || user === userId)) this.roles.delete(key);
    }
  }

  /** POST /: what other services and external callers use to check a key. */
  async identify({ accessKey, type }: IsAuthenticatedRequest): Promise<Identity> {
    const caller = await this.resolve(accessKey);
    const expected = { Bearer: 'user', ApiKey: 'apiKey', Admin: 'admin' } as const;
    if (!caller || caller.kind !== expected[type]) throw new UnauthorizedError('The access key is not valid');
    if (caller.kind === 'admin') return { authType: 'Admin' };
    if (caller.kind === 'apiKey') return { authType: 'ApiKey', serverId: caller.serverId };
    const session = await repo.findSessionById(this.db, caller.sessionId);
    if (!session) throw new UnauthorizedError('The access key is not valid');
    await this.syncIfNeeded(caller.userId, 'normal');
    return this.bearerUser(caller.userId, session.expires_at);
  }

  async getApiKey(serverId: string): Promise<ApiKeyInfo> {
    const row = await repo.findApiKey(this.db, serverId);
    if (!row) throw new NotFoundError('This server has no API key yet');
    return { key: `${row.key_prefix}…`, createdAt: row.created_at, lastUsedAt: row.last_used_at };
  }

  async createApiKey(serverId: string, caller: Caller | null): Promise<ApiKeyResponse> {
    const server = await repo.findServer(this.db, serverId);
    if (!server || server.active !== 1) throw new NotFoundError('The bot is not in this server');
    if (!PLANS[server.plan as PlanType]?.features.apiAccess) {
      throw new LimitReachedError('API access is part of the Enterprise plan; upgrade this server to create an API key');
    }
    if (caller?.kind === 'apiKey') throw new ForbiddenError('An API key cannot create API keys');
    const key = randomToken(API_KEY_PREFIX);
    await repo.putApiKey(this.db, {
      server_id: serverId,
      key_hash: hashSecret(key),
      key_prefix: key.slice(0, API_KEY_PREFIX.length + 6),
      created_by: caller?.kind === 'user' ? caller.userId : null,
    });
    return { key };
  }

  async deleteApiKey(serverId: string): Promise<void> {
    if (!(await repo.deleteApiKey(this.db, serverId))) throw new NotFoundError('This server has no API key');
  }

  recordApiKeyCall(call: ApiKeyCallRecord): void {
    this.apiKeyCalls.record(call);
  }

  /** The server's API key calls, newest first (those of this process included, however recent), and the limit keys have. */
  async getApiKeyCalls(serverId: string, query: ApiKeyCallsQuery): Promise<ApiKeyCalls> {
    const calls = await this.apiKeyCalls.list(serverId, query);
    return { ...calls, limit: { max: this.config.apiKeyRateLimitMax, windowMs: this.config.rateLimit.windowMs } };
  }

  async purgeExpiredSessions(): Promise<number> {
    return repo.deleteExpiredSessions(this.db);
  }

}

