import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import type { APIAuditLog, APIAuditLogChange, APIAuditLogEntry, APIAuditLogOptions, AuditLogEvent, APIUser } from 'discord-api-types/v10';
import { requireBot } from './api-auth.ts';
import { parseIntQuery, parseSnowflakeQuery, snowflakeParam } from './api-query.ts';
import type { Query } from './api-query.ts';
import { missingAccess, missingPermissions, unknownGuild } from './errors.ts';
import { hasPermission } from './permissions.ts';
import { publishAuditLogEntry } from './platform-events.ts';
import { compareSnowflakes } from './snowflake.ts';
import type { SandboxState } from './state.ts';

export interface AuditLogInput {
  actionType: AuditLogEvent;
  /** Who did it: a member, or the bot for its own REST calls. */
  userId: string;
  targetId: string | null;
  changes?: APIAuditLogChange[];
  options?: APIAuditLogOptions;
  reason?: string | null;
}

/** Writes an entry to the guild's audit log and tells the gateway (GUILD_AUDIT_LOG_ENTRY_CREATE). */
export function recordAuditLog(state: SandboxState, guildId: string, input: AuditLogInput): APIAuditLogEntry {
  const entry: APIAuditLogEntry = { id: state.nextId(), action_type: input.actionType, user_id: input.userId, target_id: input.targetId };
  if (input.changes) entry.changes = input.changes;
  if (input.options) entry.options = input.options;
  if (input.reason) entry.reason = input.reason;
  state.auditLog.push({ guildId, entry });
  publishAuditLogEntry(state, guildId, entry);
  return structuredClone(entry);
}

/** The `X-Audit-Log-Reason` header, URL-decoded as Discord reads it. */
export function auditLogReason(request: FastifyRequest): string | null {
  const raw = request.headers['x-audit-log-reason'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return null;
  try {
    return decodeURIComponent(value).slice(0, 512);
  } catch {
    return value.slice(0, 512);
  }
}

type AuditLogRoute = { Params: { guildId: string }; Querystring: Query };

/** GET /guilds/{id}/audit-logs: needs View Audit Log; newest first, or oldest first with `after`. */
export function registerAuditLogRoutes(api: FastifyInstance, state: SandboxState): void {
  api.get<AuditLogRoute>('/guilds/:guildId/audit-logs', async (request): Promise<APIAuditLog> => {
    const app = requireBot(state, request);
    const guild = state.guilds.get(snowflakeParam(request.params.guildId, 'guild_id'));
    if (!guild) throw unknownGuild();
    if (!state.isBotIn(guild, app)) throw missingAccess();
    if (!hasPermission(state.memberPermissions(guild, app.botUserId), PermissionFlagsBits.ViewAuditLog)) throw missingPermissions();
    const userId = parseSnowflakeQuery(request.query, 'user_id');
    const actionType = parseIntQuery(request.query, 'action_type', { min: 0, max: 1_000, fallback: 0 });
    const before = parseSnowflakeQuery(request.query, 'before');
    const after = parseSnowflakeQuery(request.query, 'after');
    const limit = parseIntQuery(request.query, 'limit', { min: 1, max: 100, fallback: 50 });
    let entries = state.auditLog
      .filter((r) => r.guildId === guild.id)
      .map((r) => r.entry)
      .filter((e) => (!userId || e.user_id === userId) && (actionType === 0 || e.action_type === actionType));
    if (after !== undefined && before === undefined) {
      entries = entries.filter((e) => compareSnowflakes(e.id, after) > 0).slice(0, limit);
    } else {
      entries = entries.filter((e) => !before || compareSnowflakes(e.id, before) < 0).reverse().slice(0, limit);
    }
    const users = [...new Set(entries.flatMap((e) => [e.user_id, e.target_id]))]
      .map((id) => (id ? state.publicUser(id) : null))
      .filter((u): u is APIUser => u !== null);
    return {
      audit_log_entries: entries.map((e) => structuredClone(e)),
      users,
      integrations: [],
      webhooks: [],
      guild_scheduled_events: [],
      threads: [],
      application_commands: [],
      auto_moderation_rules: [],
    };
  });
}
