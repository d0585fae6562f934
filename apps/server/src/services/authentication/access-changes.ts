import { createNotices, type Notices } from '../../platform/notices';

/** Redis pub/sub channel of access changes: the JSON of an AccessChange. */
export const ACCESS_CHANGES_CHANNEL = 'authentication:access-changes';

/**
 * Roles that are due to be read again: of one user on one server, of everyone on a server
 * (`userId` absent), or of one user everywhere (`serverId` absent: their servers were just read
 * again).
 */
export interface RoleChange {
  serverId?: string;
  userId?: string;
}

/** A session that ended (signed out, or ended from another of the user's sessions). */
export interface SessionEnd {
  sessionId: string;
}

export type AccessChange = RoleChange | SessionEnd;

export const isSessionEnd = (change: AccessChange): change is SessionEnd => 'sessionId' in change;

/**
 * How a change reaches what each API process reuses for its access checks for a few seconds
 * (AuthService: roles, and sessions): heard at once here, and with REDIS_URL on Redis pub/sub by
 * every process, so that the bot runtime's report of a role change, or a sign-out, which reach one
 * process, are seen by all of them. The truth stays in the database (the memberships marked stale,
 * the session deleted); a lost notice only lets a process reuse a role or a session until its short
 * reuse ends.
 */
export type AccessChanges = Notices<AccessChange>;

const SNOWFLAKE = /^\d{1,20}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const id = (value: unknown, pattern: RegExp): string | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !pattern.test(value)) throw new Error(`Not an access change: ${JSON.stringify(value)}`);
  return value;
};

function decode(text: string): AccessChange {
  const parsed = JSON.parse(text) as Record<string, unknown>;
  const sessionId = id(parsed.sessionId, UUID);
  if (sessionId) return { sessionId };
  const change: RoleChange = {};
  const serverId = id(parsed.serverId, SNOWFLAKE);
  const userId = id(parsed.userId, SNOWFLAKE);
  if (serverId) change.serverId = serverId;
  if (userId) change.userId = userId;
  if (!serverId && !userId) throw new Error('An access change names a session, a server, a user or both');
  return change;
}

export function createAccessChanges(redisUrl: string | null): AccessChanges {
  return createNotices({ redisUrl, channel: ACCESS_CHANGES_CHANNEL, encode: (change) => JSON.stringify(change), decode, hereAtOnce: true });
}
