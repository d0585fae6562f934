import { GatewayDispatchEvents, type GatewayDispatchPayload } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { mapDispatch, toEmbed, type DispatchContext, type TicketChannelAnswer } from './map-dispatch';

const GUILD = '100';
const TICKET = '200';
const OTHER = '201';
const FRESH = '202';
const BOT = '9';

const ctx = (overrides: Partial<DispatchContext> = {}): DispatchContext => ({
  shardId: 0,
  sessionId: 'sess',
  botUserId: BOT,
  ticketChannel: (_g, c): TicketChannelAnswer => (c === TICKET ? 'yes' : c === FRESH ? 'unknown' : 'no'),
  ...overrides,
});

const dispatch = (t: string, d: unknown, s = 42) => ({ op: 0, t, d, s }) as unknown as GatewayDispatchPayload;

const message = (overrides: Record<string, unknown> = {}) => ({
  id: '300',
  channel_id: TICKET,
  guild_id: GUILD,
  author: { id: '5', username: 'member' },
  content: 'Hello <@7>',
  mentions: [{ id: '7' }, { id: '7' }],
  attachments: [{ id: '400', filename: 'shot.png', url: 'https://cdn.example/shot.png', size: 1234, content_type: 'image/png' }],
  embeds: [],
  ...overrides,
});

describe('mapDispatch', () => {
  it('reports a message in a ticket channel with its author, content, mentions and attachments', () => {
    expect(mapDispatch(dispatch(GatewayDispatchEvents.MessageCreate, message()), ctx())).toEqual([
      {
        kind: 'messageCreated',
        guildId: GUILD,
        channelId: TICKET,
        messageId: '300',
        authorId: '5',
        content: 'Hello <@7>',
        embeds: [],
        mentions: ['7'],
        attachments: [{ id: '400', filename: 'shot.png', url: 'https://cdn.example/shot.png', size: 1234, contentType: 'image/png' }],
        replyTo: null,
      },
    ]);
    const [reply] = mapDispatch(dispatch(GatewayDispatchEvents.MessageCreate, message({ message_reference: { message_id: '299', channel_id: TICKET } })), ctx());
    expect((reply as { replyTo: string }).replyTo).toBe('299');
  });

  it('reports other bots’ messages but not its own, and nothing outside ticket channels or in DMs', () => {
    const of = (d: Record<string, unknown>) => mapDispatch(dispatch(GatewayDispatchEvents.MessageCreate, message(d)), ctx());
    expect(of({ author: { id: '77', bot: true } })).toHaveLength(1);
    expect(of({ author: { id: BOT, bot: true } })).toEqual([]);
    expect(of({ channel_id: OTHER })).toEqual([]);
    expect(of({ guild_id: undefined })).toEqual([]);
    // Not known yet (a channel made moments ago): queued, decided when sent.
    expect(of({ channel_id: FRESH })).toHaveLength(1);
    // Nothing to show: a sticker alone.
    expect(of({ content: '', attachments: [] })).toEqual([]);
  });

  it('cuts content longer than the API takes, and keeps only embeds that fit the contract', () => {
    const [report] = mapDispatch(
      dispatch(GatewayDispatchEvents.MessageCreate, message({ content: 'x'.repeat(5000), embeds: [{ title: 'ok', color: 0xff0000 }, { title: 't'.repeat(300) }, { type: 'rich' }] })),
      ctx(),
    );
    expect((report as { content: string }).content).toHaveLength(4000);
    expect((report as { embeds: unknown[] }).embeds).toEqual([{ title: 'ok', color: 0xff0000 }]);
  });

  it('maps an embed to the contract’s names', () => {
    expect(
      toEmbed({
        title: 'T',
        footer: { text: 'f', icon_url: 'https://i/f.png' },
        author: { name: 'a', icon_url: 'https://i/a.png' },
        fields: [{ name: 'n', value: 'v', inline: true }],
        thumbnail: { url: 'https://i/t.png' },
      }),
    ).toEqual({ title: 'T', footer: { text: 'f', iconUrl: 'https://i/f.png' }, author: { name: 'a', iconUrl: 'https://i/a.png' }, fields: [{ name: 'n', value: 'v', inline: true }], thumbnail: { url: 'https://i/t.png' } });
  });

  it('reports an edit only when content or embeds came with it', () => {
    const edit = (d: Record<string, unknown>) => mapDispatch(dispatch(GatewayDispatchEvents.MessageUpdate, { id: '300', channel_id: TICKET, guild_id: GUILD, ...d }), ctx());
    expect(edit({ content: 'changed', embeds: [] })).toEqual([{ kind: 'messageUpdated', guildId: GUILD, channelId: TICKET, messageId: '300', content: 'changed', embeds: [] }]);
    expect(edit({ pinned: true })).toEqual([]);
    expect(edit({ content: 'mine', author: { id: BOT } })).toEqual([]);
  });

  it('reports deletions, one per message of a bulk delete', () => {
    expect(mapDispatch(dispatch(GatewayDispatchEvents.MessageDelete, { id: '300', channel_id: TICKET, guild_id: GUILD }), ctx())).toEqual([
      { kind: 'messageDeleted', guildId: GUILD, channelId: TICKET, messageId: '300' },
    ]);
    expect(mapDispatch(dispatch(GatewayDispatchEvents.MessageDeleteBulk, { ids: ['1', '2'], channel_id: TICKET, guild_id: GUILD }), ctx()).map((r) => (r as { messageId: string }).messageId)).toEqual(['1', '2']);
    expect(mapDispatch(dispatch(GatewayDispatchEvents.MessageDelete, { id: '300', channel_id: OTHER, guild_id: GUILD }), ctx())).toEqual([]);
  });

  it('reports reactions added, removed, all removed and removed per emoji', () => {
    const base = { channel_id: TICKET, guild_id: GUILD, message_id: '300' };
    const unicode = { id: null, name: '👍' };
    const custom = { id: '55', name: 'party', animated: true };
    expect(mapDispatch(dispatch(GatewayDispatchEvents.MessageReactionAdd, { ...base, user_id: '5', emoji: custom }), ctx())).toEqual([
      { kind: 'reactionAdded', guildId: GUILD, channelId: TICKET, messageId: '300', userId: '5', emoji: { id: '55', name: 'party', animated: true } },
    ]);
    expect(mapDispatch(dispatch(GatewayDispatchEvents.MessageReactionRemove, { ...base, user_id: '5', emoji: unicode }), ctx())).toEqual([
      { kind: 'reactionRemoved', guildId: GUILD, channelId: TICKET, messageId: '300', userId: '5', emoji: unicode },
    ]);
    expect(mapDispatch(dispatch(GatewayDispatchEvents.MessageReactionRemoveAll, base), ctx())).toEqual([
      { kind: 'reactionsCleared', guildId: GUILD, channelId: TICKET, messageId: '300', emoji: null },
    ]);
    expect(mapDispatch(dispatch(GatewayDispatchEvents.MessageReactionRemoveEmoji, { ...base, emoji: unicode }), ctx())).toEqual([
      { kind: 'reactionsCleared', guildId: GUILD, channelId: TICKET, messageId: '300', emoji: unicode },
    ]);
    expect(mapDispatch(dispatch(GatewayDispatchEvents.MessageReactionAdd, { ...base, channel_id: OTHER, user_id: '5', emoji: unicode }), ctx())).toEqual([]);
  });

  it('names server events so that the same dispatch gives the same event id, and another dispatch another', () => {
    const leave = (s: number, sessionId = 'sess') =>
      mapDispatch(dispatch(GatewayDispatchEvents.GuildMemberRemove, { guild_id: GUILD, user: { id: '5' } }, s), ctx({ sessionId }));
    expect(leave(42)).toEqual([{ kind: 'serverEvent', guildId: GUILD, event: { eventId: 'memberLeft:100:5:0:sess:42', type: 'memberLeft', userId: '5' } }]);
    expect(leave(42)).toEqual(leave(42));
    expect(leave(43)).not.toEqual(leave(42));
    expect(leave(42, 'other')).not.toEqual(leave(42));
  });

  it('reports the bot added once per session, and removed only when not an outage', () => {
    const added = (s: number) => mapDispatch(dispatch(GatewayDispatchEvents.GuildCreate, { id: GUILD, name: 'g' }, s), ctx());
    expect(added(2)).toEqual([{ kind: 'serverEvent', guildId: GUILD, event: { eventId: 'botAdded:100:sess', type: 'botAdded' } }]);
    expect(added(9)).toEqual(added(2));
    expect(mapDispatch(dispatch(GatewayDispatchEvents.GuildCreate, { id: GUILD, unavailable: true }), ctx())).toEqual([]);
    expect(mapDispatch(dispatch(GatewayDispatchEvents.GuildDelete, { id: GUILD, unavailable: true }), ctx())).toEqual([]);
    expect(mapDispatch(dispatch(GatewayDispatchEvents.GuildDelete, { id: GUILD }), ctx())).toEqual([
      { kind: 'serverEvent', guildId: GUILD, event: { eventId: 'botRemoved:100:0:sess:42', type: 'botRemoved' } },
    ]);
  });

  it('reports role, member and channel changes', () => {
    const types = (t: string, d: unknown) => mapDispatch(dispatch(t, d), ctx()).map((r) => (r.kind === 'serverEvent' ? r.event.type : r.kind));
    expect(types(GatewayDispatchEvents.GuildRoleCreate, { guild_id: GUILD, role: { id: '1' } })).toEqual(['rolesChanged']);
    expect(types(GatewayDispatchEvents.GuildRoleUpdate, { guild_id: GUILD, role: { id: '1' } })).toEqual(['rolesChanged']);
    expect(types(GatewayDispatchEvents.GuildRoleDelete, { guild_id: GUILD, role_id: '1' })).toEqual(['rolesChanged']);
    expect(types(GatewayDispatchEvents.GuildMemberUpdate, { guild_id: GUILD, user: { id: '5' }, roles: [] })).toEqual(['memberUpdated']);
    expect(types(GatewayDispatchEvents.ChannelCreate, { id: OTHER, guild_id: GUILD, type: 0 })).toEqual(['channelsChanged']);
    expect(types(GatewayDispatchEvents.ChannelUpdate, { id: OTHER, guild_id: GUILD, type: 0 })).toEqual(['channelsChanged']);
    expect(types(GatewayDispatchEvents.ChannelCreate, { id: OTHER, type: 1 })).toEqual([]);
  });

  it('reports a deleted ticket channel (named by the channel) before the change of channels; another channel only as a change', () => {
    const deleted = (id: string) => mapDispatch(dispatch(GatewayDispatchEvents.ChannelDelete, { id, guild_id: GUILD, type: 0 }), ctx());
    expect(deleted(TICKET)).toEqual([
      { kind: 'channelDeleted', guildId: GUILD, channelId: TICKET, eventId: 'channelDeleted:200' },
      { kind: 'serverEvent', guildId: GUILD, event: { eventId: 'channelsChanged:200:0:sess:42', type: 'channelsChanged' } },
    ]);
    expect(deleted(OTHER).map((r) => r.kind)).toEqual(['serverEvent']);
  });

  it('ignores what it does not report (typing, presences, interactions are handled apart)', () => {
    expect(mapDispatch(dispatch(GatewayDispatchEvents.TypingStart, { channel_id: TICKET, guild_id: GUILD, user_id: '5' }), ctx())).toEqual([]);
    expect(mapDispatch(dispatch(GatewayDispatchEvents.InteractionCreate, { id: '1', token: 't', type: 3 }), ctx())).toEqual([]);
  });
});
