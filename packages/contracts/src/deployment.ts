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
  token: BotToken.optional().describe('Only with includeToken, for the bot runner'),
});
export type WhitelabelEntry = z.infer<typeof WhitelabelEntry>;

export const CreateWhitelabelRequest = z.object({
  token: BotToken,
  activity: Activity.optional(),
});
export type CreateWhitelabelRequest = z.infer<typeof CreateWhitelabelRequest>;

export const UpdateWhitelabelRequest = z
  .object({
    token: BotToken.optional(),
    activity: Activity.optional(),
  })
  .refine((r) => r.token !== undefined || r.activity !== undefined, { message: 'Nothing to update' });
export type UpdateWhitelabelRequest = z.infer<typeof UpdateWhitelabelRequest>;

const IncludeToken = BooleanQuery.optional().describe('Include bot tokens (platform admin, for the bot runner)');

export const WhitelabelListQuery = PageQuery.extend({
  includeToken: IncludeToken,
  shardId: z.coerce.number().int().min(0).optional().describe('Only the bots assigned to this runner shard'),
});
export type WhitelabelListQuery = z.infer<typeof WhitelabelListQuery>;

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
};
