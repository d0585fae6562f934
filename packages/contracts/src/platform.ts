import { z } from 'zod';
import { Snowflake } from './common';

/** Channel types of the chat platform (SPEC §9). */
export const ChannelType = {
  Text: 0,
  DM: 1,
  Voice: 2,
  Group: 3,
  Category: 4,
  News: 5,
  Store: 6,
  NewsThread: 10,
  PublicThread: 11,
  PrivateThread: 12,
  Stage: 13,
  GuildDirectory: 14,
  Forum: 15,
  Media: 16,
} as const;
export type ChannelType = (typeof ChannelType)[keyof typeof ChannelType];

export const Channel = z.object({
  id: Snowflake,
  type: z.number().int(),
  flags: z.number().int().optional(),
  guild_id: Snowflake.optional(),
  name: z.string().nullable().optional(),
  parent_id: Snowflake.nullable().optional(),
  user_limit: z.number().int().optional(),
  position: z.number().int().optional(),
  nsfw: z.boolean().optional(),
  icon_emoji: z.object({ id: Snowflake.nullable(), name: z.string().nullable() }).nullable().optional(),
});
export type Channel = z.infer<typeof Channel>;

export const Emoji = z.object({
  id: Snowflake.nullable(),
  name: z.string().nullable(),
  require_colons: z.boolean().optional(),
  managed: z.boolean().optional(),
  animated: z.boolean().optional(),
  available: z.boolean().optional(),
});
export type Emoji = z.infer<typeof Emoji>;

export const Role = z.object({
  id: Snowflake,
  name: z.string(),
  permissions: z.string().describe('Permission bit set as a decimal string'),
  position: z.number().int(),
  color: z.number().int(),
  hoist: z.boolean(),
  managed: z.boolean(),
  mentionable: z.boolean(),
  icon: z.string().nullable().optional(),
  unicode_emoji: z.string().nullable().optional(),
  flags: z.number().int().optional(),
});
export type Role = z.infer<typeof Role>;
