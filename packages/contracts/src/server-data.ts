import { z } from 'zod';
import { BooleanQuery, defineCall, PlanType, ServerIdParams, Snowflake } from './common';
import { Channel, Emoji, Role } from './platform';

export const ServerSummary = z.object({
  serverId: Snowflake,
  name: z.string(),
  iconUrl: z.string().nullable(),
  active: z.boolean().describe('Whether the bot is in the server'),
  subscription: PlanType,
});
export type ServerSummary = z.infer<typeof ServerSummary>;

export const ServerDetails = ServerSummary.extend({
  bannerUrl: z.string().nullable(),
  ownerId: Snowflake,
  memberCount: z.number().int().nullable(),
});
export type ServerDetails = z.infer<typeof ServerDetails>;

export const Guild = z.object({
  guildId: Snowflake,
  name: z.string(),
  iconUrl: z.string().nullable(),
  bannerUrl: z.string().nullable(),
});
export type Guild = z.infer<typeof Guild>;

export const GuildMember = z.object({
  guildId: Snowflake,
  nickname: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  color: z.number().int().nullable(),
});
export type GuildMember = z.infer<typeof GuildMember>;

export const PublicUser = z.object({
  id: Snowflake,
  name: z.string(),
  avatarUrl: z.string().nullable(),
  color: z.number().int().nullable(),
});
export type PublicUser = z.infer<typeof PublicUser>;

export const ServerMember = z.object({
  userId: Snowflake,
  username: z.string(),
  displayName: z.string(),
  color: z.number().int().nullable().describe('Colour of the highest coloured role'),
  nickname: z.string().nullable(),
  userAvatarUrl: z.string().nullable(),
  serverAvatarUrl: z.string().nullable(),
});
export type ServerMember = z.infer<typeof ServerMember>;

export const UserInfo = z.object({
  discordId: Snowflake,
  username: z.string(),
  displayName: z.string(),
  guildMember: GuildMember.nullable(),
  avatarUrl: z.string().nullable(),
});
export type UserInfo = z.infer<typeof UserInfo>;

export const Testimonial = z.object({
  testimonial: z.string(),
  author: z.string(),
  server: z.string(),
  serverSize: z.number().int(),
});
export type Testimonial = z.infer<typeof Testimonial>;

export const IdsRequest = z.object({ ids: z.array(Snowflake).max(1000) });
export type IdsRequest = z.infer<typeof IdsRequest>;

/** What the bot worker reports when it joins a server. */
export const CreateServerRequest = z.object({
  serverId: Snowflake,
  name: z.string().min(1).max(100),
  icon: z.string().nullable().optional().describe('Icon hash. Default: null (no icon)'),
  ownerId: Snowflake,
});
export type CreateServerRequest = z.infer<typeof CreateServerRequest>;

export const ClearCacheQuery = z.object({
  clearCache: BooleanQuery.optional().describe('Fetch fresh data from the platform. Default: false (cached platform data is used)'),
});

export const UserSearchRequest = z.object({
  term: z.string().min(1).max(100),
  serverId: Snowflake,
});
export type UserSearchRequest = z.infer<typeof UserSearchRequest>;

export const UsersRequest = z.object({
  ids: z.array(Snowflake).min(1).max(100),
  serverId: Snowflake.optional(),
});
export type UsersRequest = z.infer<typeof UsersRequest>;

const serverQuery = z.object({ serverId: Snowflake });

export const serverDataCalls = {
  getServersBulk: defineCall({
    method: 'POST',
    path: '/servers/bulk',
    summary: 'Summaries of the given servers the caller may see',
    body: IdsRequest,
    response: z.array(ServerSummary),
  }),
  createServer: defineCall({
    method: 'POST',
    path: '/servers/discord',
    summary: 'Record that the bot joined a server (bot worker)',
    body: CreateServerRequest,
    response: ServerSummary,
    status: 201,
  }),
  getServer: defineCall({
    method: 'GET',
    path: '/servers/:serverId',
    summary: 'One server',
    params: ServerIdParams,
    query: ClearCacheQuery,
    response: ServerDetails,
  }),
  getServerChannels: defineCall({
    method: 'GET',
    path: '/servers/:serverId/channels',
    summary: "The server's channels",
    params: ServerIdParams,
    query: ClearCacheQuery,
    response: z.array(Channel),
  }),
  getServerEmojis: defineCall({
    method: 'GET',
    path: '/servers/:serverId/emojis',
    summary: "The server's custom emojis",
    params: ServerIdParams,
    query: ClearCacheQuery,
    response: z.array(Emoji),
  }),
  getServerRoles: defineCall({
    method: 'GET',
    path: '/servers/:serverId/roles',
    summary: "The server's roles",
    params: ServerIdParams,
    query: ClearCacheQuery,
    response: z.array(Role),
  }),
  getTestimonials: defineCall({
    method: 'GET',
    path: '/testimonials',
    summary: 'Public testimonials',
    response: z.array(Testimonial),
  }),
  getUsersBulk: defineCall({
    method: 'POST',
    path: '/users/bulk',
    summary: 'Members of a server by id',
    query: serverQuery,
    body: IdsRequest,
    response: z.array(ServerMember),
  }),
  getUser: defineCall({
    method: 'GET',
    path: '/users/:id',
    summary: 'One user, with their membership of the server',
    params: z.object({ id: Snowflake }),
    query: serverQuery,
    response: UserInfo,
  }),
  getUsers: defineCall({
    method: 'POST',
    path: '/users',
    summary: 'Public profiles of users, coloured by their role in the server when given',
    body: UsersRequest,
    response: z.array(PublicUser),
  }),
  searchUsers: defineCall({
    method: 'POST',
    path: '/users/search',
    summary: 'Members of a server whose name starts with the term',
    body: UserSearchRequest,
    response: z.array(ServerMember),
  }),
};
