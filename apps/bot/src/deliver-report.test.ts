import { describe, expect, it } from 'vitest';
import { createDeliver, loadTicketChannels } from './deliver-report';
import type { Report } from './reports';
import { memoryLogger } from './test/helpers';
import { TicketApi } from './ticket-api';
import { TicketChannels } from './ticket-channels';

const GUILD = '100';
const CHANNEL = '200';
const BOT = '9';
const WHITELABEL_BOT = '1100000000000000101';

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** The Ticket API as a table of answers by "METHOD path"; every call recorded. */
function setUp(answers: Record<string, number> = {}, auditLog: (() => unknown) | null = null) {
  const calls: Call[] = [];
  let listLoads = 0;
  const fetchFake = (async (url: string, init: RequestInit) => {
    const path = new URL(url).pathname;
    const method = init.method ?? 'GET';
    if (path === `/api/support/servers/${GUILD}/ticket-channels`) {
      listLoads++;
      return Response.json({ channels: [{ channelId: CHANNEL, ticketId: 'T-1', subjectId: 'S-1' }] });
    }
    const body = init.body ? (JSON.parse(init.body as string) as unknown) : undefined;
    calls.push({ method, path, body });
    const status = answers[`${method} ${path}`] ?? (method === 'POST' ? 201 : method === 'DELETE' ? 204 : 200);
    return status === 204 ? new Response(null, { status }) : Response.json(status < 300 ? {} : { code: 'not_found', message: 'No such thing' }, { status });
  }) as typeof fetch;
  const api = new TicketApi({ baseUrl: 'http://api', apiKey: 'k', timeoutMs: 1000, fetch: fetchFake });
  const tickets = new TicketChannels({ load: (g) => loadTicketChannels(api, g), minIntervalMs: 0 });
  const rest = {
    get: async () => {
      if (!auditLog) throw Object.assign(new Error('Missing Permissions'), { status: 403 });
      return auditLog();
    },
  };
  const deliver = createDeliver({ api, tickets, rest: rest as never, botUserId: () => BOT, isWhitelabelBot: (id) => id === WHITELABEL_BOT, log: memoryLogger().log, auditLogRetryMs: 1 });
  return { deliver, calls, tickets, loads: () => listLoads };
}

const message: Report = {
  kind: 'messageCreated',
  guildId: GUILD,
  channelId: CHANNEL,
  messageId: '300',
  authorId: '5',
  content: 'hi',
  embeds: [],
  mentions: [],
  attachments: [{ id: '400', filename: 'a.png', url: 'https://cdn/a.png', size: 3, contentType: 'image/png' }],
  replyTo: '299',
};

describe('createDeliver', () => {
  it('posts a message to its channel’s ticket, then asks for copies of its attachments', async () => {
    const { deliver, calls } = setUp();
    const delivery = await deliver(message);
    expect(calls).toEqual([
      {
        method: 'POST',
        path: `/api/support/servers/${GUILD}/tickets/T-1/messages`,
        body: { message: { content: 'hi', embeds: [], mentions: [], attachments: message.kind === 'messageCreated' ? message.attachments : [], replyTo: '299' }, messageType: 'User', authorId: '5', externalId: '300' },
      },
    ]);
    expect(delivery).toEqual({ outcome: 'sent', followUps: [{ kind: 'fileCloned', guildId: GUILD, channelId: CHANNEL, fileName: 'a.png', url: 'https://cdn/a.png' }] });
    await deliver({ kind: 'fileCloned', guildId: GUILD, channelId: CHANNEL, fileName: 'a.png', url: 'https://cdn/a.png' });
    expect(calls[1]).toEqual({ method: 'POST', path: '/api/files/files/clone', body: { fileName: 'a.png', serverId: GUILD, ticketId: 'T-1', subjectId: 'S-1', url: 'https://cdn/a.png' } });
  });

  it('does not copy the files again when the API already had the message (200)', async () => {
    const { deliver } = setUp({ [`POST /api/support/servers/${GUILD}/tickets/T-1/messages`]: 200 });
    expect(await deliver(message)).toEqual({ outcome: 'sent' });
  });

  it('skips a channel without an open ticket', async () => {
    const { deliver, calls } = setUp();
    expect(await deliver({ ...message, channelId: '1' } as Report)).toEqual({ outcome: 'skipped', reason: 'not a ticket channel' });
    expect(calls).toEqual([]);
  });

  it('takes a deletion the API answers 404 as done, and refreshes the ticket list after another 404', async () => {
    const base = `/api/support/servers/${GUILD}/tickets/T-1/messages/300`;
    const { deliver, loads } = setUp({ [`DELETE ${base}`]: 404, [`PUT ${base}`]: 404 });
    expect(await deliver({ kind: 'messageDeleted', guildId: GUILD, channelId: CHANNEL, messageId: '300' })).toEqual({ outcome: 'sent' });
    const before = loads();
    expect(await deliver({ kind: 'messageUpdated', guildId: GUILD, channelId: CHANNEL, messageId: '300', content: 'x', embeds: [] })).toMatchObject({ outcome: 'skipped' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(loads()).toBe(before + 1);
  });

  it('sends reactions with the contract’s bodies', async () => {
    const { deliver, calls } = setUp();
    const on = { guildId: GUILD, channelId: CHANNEL, messageId: '300' };
    const emoji = { id: null, name: '👍' };
    await deliver({ kind: 'reactionAdded', ...on, userId: '5', emoji });
    await deliver({ kind: 'reactionRemoved', ...on, userId: '5', emoji });
    await deliver({ kind: 'reactionsCleared', ...on, emoji: null });
    await deliver({ kind: 'reactionsCleared', ...on, emoji });
    const path = `/api/support/servers/${GUILD}/tickets/T-1/messages/300/reactions`;
    expect(calls).toEqual([
      { method: 'POST', path, body: { reactorId: '5', emoji } },
      { method: 'DELETE', path, body: { reactorId: '5', emoji, deleteAll: false, clearEmoji: false } },
      { method: 'DELETE', path, body: { deleteAll: true, clearEmoji: false } },
      { method: 'DELETE', path, body: { clearEmoji: true, emoji, deleteAll: false } },
    ]);
  });

  it('reports a deleted ticket channel with who deleted it from the audit log, and not at all when the bot did', async () => {
    const entry = (userId: string) => () => ({ audit_log_entries: [{ target_id: '1' }, { target_id: CHANNEL, user_id: userId }] });
    const report: Report = { kind: 'channelDeleted', guildId: GUILD, channelId: CHANNEL, eventId: `channelDeleted:${CHANNEL}` };
    const events = `/api/support/servers/${GUILD}/events`;

    const byStaff = setUp({ [`POST ${events}`]: 204 }, entry('6'));
    expect(await byStaff.deliver(report)).toEqual({ outcome: 'sent' });
    expect(byStaff.calls).toEqual([{ method: 'POST', path: events, body: { eventId: 'channelDeleted:200', type: 'channelDeleted', channelId: CHANNEL, deletedBy: '6' } }]);
    expect(byStaff.tickets.classify(GUILD, CHANNEL)).toBe('no');

    const unreadable = setUp({ [`POST ${events}`]: 204 }, null);
    await unreadable.deliver(report);
    expect(unreadable.calls[0]!.body).toMatchObject({ deletedBy: null });

    const byBot = setUp({}, entry(BOT));
    expect(await byBot.deliver(report)).toEqual({ outcome: 'skipped', reason: 'deleted by the bot' });
    expect(byBot.calls).toEqual([]);

    // The server's white-label bot, which the API speaks as there, deleted it: the API's own doing too.
    const byWhitelabel = setUp({}, entry(WHITELABEL_BOT));
    expect(await byWhitelabel.deliver(report)).toEqual({ outcome: 'skipped', reason: 'deleted by the bot' });
    expect(byWhitelabel.calls).toEqual([]);
  });

  it('sends server events as they are, and skips a server the API does not know', async () => {
    const events = `/api/support/servers/${GUILD}/events`;
    const ok = setUp({ [`POST ${events}`]: 204 });
    await ok.deliver({ kind: 'serverEvent', guildId: GUILD, event: { eventId: 'memberLeft:1', type: 'memberLeft', userId: '5' } });
    expect(ok.calls).toEqual([{ method: 'POST', path: events, body: { eventId: 'memberLeft:1', type: 'memberLeft', userId: '5' } }]);
    const unknown = setUp({ [`POST ${events}`]: 404 });
    expect(await unknown.deliver({ kind: 'serverEvent', guildId: GUILD, event: { eventId: 'x', type: 'rolesChanged' } })).toMatchObject({ outcome: 'skipped' });
  });
});
