import { z } from 'zod';
import { BooleanQuery, defineCall, PageQuery, pagedResult, ServerIdParams, Snowflake } from './common';
import { DISCORD_LIMITS } from './rules';

export const WhitelabelStatus = z.enum(['NotRunning', 'Starting', 'Running', 'Failed']);
export type WhitelabelStatus = z.infer<typeof WhitelabelStatus>;

/** A bot token as the platform issues it: three dot-separated base64url parts. */
export const BotToken = z
  .string()
  .max(256, 'Invalid token')
  .regex(/^[\w-]{20,}\.[\w-]{4,}\.[\w-]{20,}$/, 'Invalid token')
  .describe('Bot token from the platform’s developer portal');

const Activity = z
  .string()
  .trim()
  .max(DISCORD_LIMITS.activityName)
  .nullable()
  .describe('Custom status the bot shows; null for none');

export const WhitelabelEntry = z.object({
  serverId: Snowflake,
  activity: Activity,
  userId: Snowflake.describe('User id of the bot account'),
  name: z.string().describe('Bot name'),
  avatarUrl: z.string().nullable(),
  status: WhitelabelStatus,
  statusMessage: z.string().nullable().optional().describe('Why the bot is not running, e.g. why it failed'),
  clientId: Snowflake.describe('Application id, for the bot’s invite link'),
  revision: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Goes up with every change the runner must act on (set up, new token, start, removal); a status report may name the revision it is about'),
  token: BotToken.optional().describe('Only with includeToken, for the bot runner'),
});
export type WhitelabelEntry = z.infer<typeof WhitelabelEntry>;

export const CreateWhitelabelRequest = z.object({
  token: BotToken,
  activity: Activity.optional().describe('Custom status the bot shows. Default: null (none)'),
});
export type CreateWhitelabelRequest = z.infer<typeof CreateWhitelabelRequest>;

export const UpdateWhitelabelRequest = z
  .object({
    token: BotToken.optional(),
    activity: Activity.optional(),
  })
  .refine((r) => r.token !== undefined || r.activity !== undefined, { message: 'Nothing to update' });
export type UpdateWhitelabelRequest = z.infer<typeof UpdateWhitelabelRequest>;

const IncludeToken = BooleanQuery.optional().describe('Include bot tokens (platform admin, for the bot runner). Default: false');

export const WhitelabelListQuery = PageQuery.extend({
  includeToken: IncludeToken,
  shardId: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Only the bots of servers on this shard: (serverId >> 22) % shardCount = shardId, the platform’s own formula; needs shardCount'),
  shardCount: z.coerce.number().int().min(1).max(65_536).optional().describe('How many shards the runners split the servers into (their SHARD_COUNT)'),
});
export type WhitelabelListQuery = z.infer<typeof WhitelabelListQuery>;

/** What the runner reports of a bot: it is the one that knows whether the bot is connected. */
export const WhitelabelStatusReport = z
  .object({
    status: WhitelabelStatus,
    reason: z.string().trim().max(500).nullable().optional().describe('Why it is not running (shown to the server’s admins); required with Failed'),
    revision: z.number().int().min(1).optional().describe('The revision of the bot this report is about; a report about an older one is refused (409)'),
  })
  .refine((r) => r.status !== 'Failed' || (r.reason ?? '') !== '', { message: 'A failed bot needs a reason', path: ['reason'] });
export type WhitelabelStatusReport = z.infer<typeof WhitelabelStatusReport>;

/**
 * Published by the deployment service whenever a white-label bot is set up, changed, started,
 * removed or reported on, so the runners act at once instead of waiting for their next poll. The
 * notice carries no token: a runner reads the bot (`POST /whitelabel/bulk?includeToken=true`) when
 * it needs one. In process it is an event; with REDIS_URL it is also published on Redis, on
 * WHITELABEL_CHANGES_CHANNEL, as this object in JSON.
 */
export const WhitelabelChangeNotice = z.object({
  serverId: Snowflake,
  change: z.enum(['created', 'updated', 'started', 'deleted', 'status']),
  status: WhitelabelStatus,
  revision: z.number().int().min(1),
  at: z.string().describe('ISO-8601 time of the change'),
});
export type WhitelabelChangeNotice = z.infer<typeof WhitelabelChangeNotice>;

/** The Redis pub/sub channel of WhitelabelChangeNotice. */
export const WHITELABEL_CHANGES_CHANNEL = 'deployment:whitelabel-changes';

export const deploymentCalls = {
  getWhitelabels: defineCall({
    method: 'GET',
    path: '/whitelabel',
    summary: 'Every white-label bot, a page at a time (platform admin, bot runner)',
    query: WhitelabelListQuery,
    response: pagedResult(WhitelabelEntry),
  }),
  getWhitelabelsBulk: defineCall({
    method: 'POST',
    path: '/whitelabel/bulk',
    summary: 'White-label bots of several servers',
    query: z.object({ includeToken: IncludeToken }),
    body: z.object({ ids: z.array(Snowflake).min(1).max(1000).describe('Server ids') }),
    response: z.array(WhitelabelEntry),
  }),
  getWhitelabel: defineCall({
    method: 'GET',
    path: '/whitelabel/:serverId',
    summary: 'The server’s white-label bot',
    params: ServerIdParams,
    response: WhitelabelEntry,
  }),
  createWhitelabel: defineCall({
    method: 'POST',
    path: '/whitelabel/:serverId',
    summary: 'Set up the server’s white-label bot; 400 "Invalid token" when the platform refuses the token',
    params: ServerIdParams,
    body: CreateWhitelabelRequest,
    response: WhitelabelEntry,
    status: 201,
  }),
  updateWhitelabel: defineCall({
    method: 'PATCH',
    path: '/whitelabel/:serverId',
    summary: 'Change the bot token or activity',
    params: ServerIdParams,
    body: UpdateWhitelabelRequest,
    response: WhitelabelEntry,
  }),
  deleteWhitelabel: defineCall({
    method: 'DELETE',
    path: '/whitelabel/:serverId',
    summary: 'Stop and remove the server’s white-label bot',
    params: ServerIdParams,
    response: null,
    status: 204,
  }),
  startWhitelabel: defineCall({
    method: 'POST',
    path: '/whitelabel/:serverId/start',
    summary: 'Start (or restart) the bot; it answers with status Starting and the runner takes over',
    params: ServerIdParams,
    response: WhitelabelEntry,
    status: 202,
  }),
  updateWhitelabelStatus: defineCall({
    method: 'PUT',
    path: '/whitelabel/:serverId/status',
    summary: 'The bot runner reports whether the bot is running, starting, stopped or failed (and why)',
    params: ServerIdParams,
    body: WhitelabelStatusReport,
    response: null,
    status: 204,
  }),
};
