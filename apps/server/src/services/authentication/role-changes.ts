import { createNotices, type Notices } from '../../platform/notices';

/** Redis pub/sub channel of role changes: the JSON of a RoleChange. */
export const ROLE_CHANGES_CHANNEL = 'authentication:role-changes';

/**
 * Roles that are due to be read again: of one user on one server, of everyone on a server
 * (`userId` absent), or of one user everywhere (`serverId` absent: their servers were just read
 * again).
 */
export interface RoleChange {
  serverId?: string;
  userId?: string;
}

/**
 * How a role change reaches the roles each API process reuses for its access checks (a few
 * seconds, AuthService): heard at once here, and with REDIS_URL on Redis pub/sub by every process,
 * so that the bot runtime's report of a change, which reaches one process, is seen by all of them.
 * The truth stays in the database (the memberships marked stale); a lost notice only lets a
 * process reuse a role until its short reuse ends.
 */
export type RoleChanges = Notices<RoleChange>;

const id = (value: unknown): string | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d{1,20}$/.test(value)) throw new Error(`Not a role change: ${JSON.stringify(value)}`);
  return value;
};

export function createRoleChanges(redisUrl: string | null): RoleChanges {
  return createNotices({
    redisUrl,
    channel: ROLE_CHANGES_CHANNEL,
    encode: (change) => JSON.stringify(change),
    decode: (text) => {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      const change: RoleChange = {};
      const serverId = id(parsed.serverId);
      const userId = id(parsed.userId);
      if (serverId) change.serverId = serverId;
      if (userId) change.userId = userId;
      if (!serverId && !userId) throw new Error('A role change names a server, a user or both');
      return change;
    },
    hereAtOnce: true,
  });
}
