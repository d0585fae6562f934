import type { serverDataCalls } from '../server-data';
import { EX } from './fixtures';
import type { ExamplesOf } from './types';

const summary = { serverId: EX.serverId, name: EX.serverName, iconUrl: EX.iconUrl, active: true, subscription: 'premium' } as const;
const member = {
  userId: EX.staffId,
  username: 'jonas.dev',
  displayName: 'Jonas',
  color: 0x2ecc71,
  nickname: 'Jonas | Support',
  userAvatarUrl: 'https://cdn.discordapp.com/avatars/419263048231616523/0a1b2c3d4e5f60718293a4b5c6d7e8f9.png',
  serverAvatarUrl: null,
};

export const serverDataExamples: ExamplesOf<typeof serverDataCalls> = {
  getServersBulk: { body: { ids: [EX.serverId, EX.otherServerId] }, response: [summary] },
  createServer: {
    body: { serverId: EX.serverId, name: EX.serverName, icon: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6', ownerId: EX.ownerId },
    response: { ...summary, subscription: 'free' },
  },
  getServer: {
    params: { serverId: EX.serverId },
    query: { clearCache: false },
    response: { ...summary, bannerUrl: null, ownerId: EX.ownerId, memberCount: 1842 },
  },
  getServerChannels: {
    params: { serverId: EX.serverId },
    query: { clearCache: false },
    response: [
      { id: EX.categoryId, type: 4, guild_id: EX.serverId, name: 'Support', parent_id: null, position: 2 },
      { id: EX.channelId, type: 0, guild_id: EX.serverId, name: 'get-help', parent_id: EX.categoryId, position: 0, nsfw: false },
    ],
  },
  getServerEmojis: {
    params: { serverId: EX.serverId },
    query: { clearCache: false },
    response: [{ id: EX.emojiId, name: 'forge', require_colons: true, managed: false, animated: false, available: true }],
  },
  getServerRoles: {
    params: { serverId: EX.serverId },
    query: { clearCache: false },
    response: [
      {
        id: EX.staffRoleId,
        name: 'Support Staff',
        permissions: '1071698660929',
        position: 5,
        color: 0x2ecc71,
        hoist: true,
        managed: false,
        mentionable: true,
        icon: null,
        unicode_emoji: null,
        flags: 0,
      },
    ],
  },
  getTestimonials: {
    response: [
      {
        testimonial: 'Our support queue went from chaos to calm in a week.',
        author: 'Mira',
        server: EX.serverName,
        serverSize: 1842,
      },
    ],
  },
  getUsersBulk: { query: { serverId: EX.serverId }, body: { ids: [EX.staffId] }, response: [member] },
  getUser: {
    params: { id: EX.staffId },
    query: { serverId: EX.serverId },
    response: {
      discordId: EX.staffId,
      username: 'jonas.dev',
      displayName: 'Jonas',
      guildMember: { guildId: EX.serverId, nickname: 'Jonas | Support', avatarUrl: null, color: 0x2ecc71 },
      avatarUrl: member.userAvatarUrl,
    },
  },
  getUsers: {
    body: { ids: [EX.staffId, EX.memberId], serverId: EX.serverId },
    response: [
      { id: EX.staffId, name: 'Jonas | Support', avatarUrl: member.userAvatarUrl, color: 0x2ecc71 },
      { id: EX.memberId, name: 'Sam', avatarUrl: null, color: null },
    ],
  },
  searchUsers: { body: { term: 'jon', serverId: EX.serverId }, response: [member] },
};
