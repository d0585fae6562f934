import { createPublicKey, verify } from 'node:crypto';
import type { APIMessage, APIMessageComponentGuildInteraction, APIModalSubmitGuildInteraction } from 'discord-api-types/v10';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox } from './index.ts';
import { startEndpoint } from './test-endpoint.ts';
import type { ReceivedRequest, TestEndpoint } from './test-endpoint.ts';
import { BOT_ID, CHANNELS, CLIENT_ID, GUILDS, USERS, bot, makeSandbox } from './test-support.ts';
import type { TestSandbox } from './test-support.ts';

let sb: TestSandbox;
let endpoint: TestEndpoint;
beforeEach(async () => {
  sb = await makeSandbox();
  endpoint = await startEndpoint();
  sb.configure({ interactionsUrl: `${endpoint.url}/api/support/discord` });
});
afterEach(async () => {
  await endpoint.close();
});

const PANEL = {
  content: 'Need help? Open a ticket.',
  components: [
    {
      type: 1,
      components: [
        { type: 2, style: 1, label: 'Open ticket', custom_id: 'ticket:open' },
        { type: 2, style: 4, label: 'Closed for today', custom_id: 'ticket:off', disabled: true },
        { type: 2, style: 5, label: 'Docs', url: 'https://example.com/docs' },
      ],
    },
    {
      type: 1,
      components: [
        {
          type: 3,
          custom_id: 'ticket:subject',
          placeholder: 'Pick a subject',
          options: [
            { label: 'Billing', value: 'billing' },
            { label: 'Bug report', value: 'bug' },
          ],
        },
      ],
    },
  ],
};

const TICKET_MODAL = {
  type: 9,
  data: {
    custom_id: 'ticket:form',
    title: 'Open a ticket',
    components: [
      { type: 1, components: [{ type: 4, custom_id: 'subject', style: 1, label: 'Subject', min_length: 3, max_length: 50 }] },
      { type: 18, label: 'Details', description: 'What happened?', component: { type: 4, custom_id: 'details', style: 2, required: false } },
    ],
  },
};

async function postPanel(channelId: string = CHANNELS.openTicket): Promise<APIMessage> {
  const res = await sb.app.inject({ method: 'POST', url: `/api/v10/channels/${channelId}/messages`, headers: bot, payload: PANEL });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const control = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  sb.app.inject({ method, url: `/_sandbox${url}`, ...(payload === undefined ? {} : { payload: payload as object }) });
const click = (payload: Record<string, unknown>) => control('POST', '/interactions/component', payload);
const submit = (payload: Record<string, unknown>) => control('POST', '/interactions/modal', payload);
const clickOpen = (panel: APIMessage, userId: string = USERS.alice) =>
  click({ guildId: GUILDS.pixelForge, channelId: panel.channel_id, messageId: panel.id, userId, customId: 'ticket:open' });
const channelMessages = async (channelId: string = CHANNELS.openTicket): Promise<APIMessage[]> =>
  (await sb.app.inject({ url: `/api/v10/channels/${channelId}/messages`, headers: bot })).json();
const interactions = async (query = '') => (await control('GET', `/interactions${query}`)).json();

function publicKeyObject(hex: string) {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(hex, 'hex').toString('base64url') }, format: 'jwk' });
}

describe('the application key', () => {
  it('is a fresh Ed25519 public key in hex, on the sandbox object and in the state', async () => {
    expect(sb.publicKey).toMatch(/^[0-9a-f]{64}$/);
    const state = (await control('GET', '/state')).json();
    expect(state.publicKey).toBe(sb.publicKey);
    expect(state.application.publicKey).toBe(sb.publicKey);
    expect((await createSandbox()).publicKey).not.toBe(sb.publicKey);
    await control('POST', '/reset');
    expect((await control('GET', '/state')).json().publicKey).toBe(sb.publicKey);
  });

  it('signs each interaction over timestamp + raw body, verifiable with the public key', async () => {
    const panel = await postPanel();
    expect((await clickOpen(panel)).statusCode).toBe(200);
    const [request] = endpoint.requests as [ReceivedRequest];
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/support/discord');
    expect(request.headers['content-type']).toBe('application/json');
    const signature = String(request.headers['x-signature-ed25519']);
    const timestamp = String(request.headers['x-signature-timestamp']);
    expect(signature).toMatch(/^[0-9a-f]{128}$/);
    expect(timestamp).toBe(String(Math.floor(sb.clock.now / 1000)));
    const key = publicKeyObject(sb.publicKey);
    expect(verify(null, Buffer.from(timestamp + request.body), key, Buffer.from(signature, 'hex'))).toBe(true);
    expect(verify(null, Buffer.from(timestamp + request.body.replace('ticket:open', 'ticket:opem')), key, Buffer.from(signature, 'hex'))).toBe(false);
    expect(verify(null, Buffer.from(String(Number(timestamp) + 1) + request.body), key, Buffer.from(signature, 'hex'))).toBe(false);
  });
});

describe('POST /_sandbox/interactions/component', () => {
  it('sends a MESSAGE_COMPONENT interaction shaped like Discord’s', async () => {
    const panel = await postPanel();
    endpoint.answer(() => ({ status: 200, body: { type: 4, data: { content: 'Hello!', flags: 64 } } }));
    const res = await clickOpen(panel);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 200, response: { type: 4, data: { content: 'Hello!', flags: 64 } } });
    const payload = endpoint.requests[0]!.json as APIMessageComponentGuildInteraction;
    const guild = sb.state.guilds.get(GUILDS.pixelForge)!;
    const channel = sb.state.findChannel(CHANNELS.openTicket)!.channel;
    expect(payload).toMatchObject({
      type: 3,
      version: 1,
      application_id: CLIENT_ID,
      guild_id: GUILDS.pixelForge,
      channel_id: CHANNELS.openTicket,
      channel: { id: CHANNELS.openTicket, type: 0, name: 'open-a-ticket', guild_id: GUILDS.pixelForge },
      member: {
        user: { id: USERS.alice, username: 'alice' },
        roles: ['1300000000000000015'],
        joined_at: expect.any(String),
        nick: null,
        permissions: sb.state.memberChannelPermissions(guild, channel, USERS.alice).toString(),
      },
      message: { id: panel.id, content: PANEL.content, author: { id: BOT_ID } },
      data: { custom_id: 'ticket:open', component_type: 2 },
      app_permissions: sb.state.botChannelPermissions(guild, channel).toString(),
      locale: 'en-US',
      guild_locale: 'en-US',
      context: 0,
      authorizing_integration_owners: { '0': GUILDS.pixelForge },
    });
    expect(payload.id).toMatch(/^\d{17,20}$/);
    expect(payload.token.length).toBeGreaterThan(60);
    expect(payload.member.user.id).toBe(USERS.alice);
    expect('values' in payload.data).toBe(false);
  });

  it('sends the chosen values of a string select, and refuses values it does not offer', async () => {
    const panel = await postPanel();
    const pick = (values: unknown) => click({ guildId: GUILDS.pixelForge, channelId: panel.channel_id, messageId: panel.id, userId: USERS.alice, customId: 'ticket:subject', values });
    expect((await pick(['bug'])).statusCode).toBe(200);
    expect((endpoint.requests[0]!.json as APIMessageComponentGuildInteraction).data).toEqual({ custom_id: 'ticket:subject', component_type: 3, values: ['bug'] });
    for (const [values, fragment] of [
      [['refund'], '"refund" not among the options of select "ticket:subject" (options: billing, bug)'],
      [undefined, 'values is required for select "ticket:subject"'],
      [['bug', 'billing'], 'takes 1 value(s), got 2'],
      [[], 'takes 1 value(s), got 0'],
    ] as const) {
      const res = await pick(values);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain(fragment);
    }
    expect(endpoint.requests).toHaveLength(1);
  });

  it('refuses clicks a member could not make, with clear messages', async () => {
    const panel = await postPanel();
    const base = { guildId: GUILDS.pixelForge, channelId: panel.channel_id, messageId: panel.id, userId: USERS.alice, customId: 'ticket:open' };
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...base, messageId: '1399999999999999999' }, 404, 'no message 1399999999999999999 that alice can see in #open-a-ticket'],
      [{ ...base, channelId: CHANNELS.general }, 404, `no message ${panel.id}`],
      [{ ...base, guildId: GUILDS.nightOwls }, 404, `unknown channel ${CHANNELS.openTicket} in Night Owls`],
      [{ ...base, userId: USERS.chen }, 404, 'chen.wei (1200000000000000003) is not a member of Pixel Forge'],
      [{ ...base, userId: '1299999999999999999' }, 404, 'unknown user 1299999999999999999'],
      [{ ...base, customId: 'ticket:nope' }, 400, 'no component with custom_id "ticket:nope" (custom_ids: ticket:open, ticket:off, ticket:subject)'],
      [{ ...base, customId: 'ticket:off' }, 400, 'component "ticket:off" is disabled'],
      [{ ...base, values: ['x'] }, 400, 'is a button; values are only for select menus'],
      [{ ...base, messageId: 'abc' }, 400, 'messageId must be a snowflake string'],
    ];
    for (const [payload, status, message] of cases) {
      const res = await click(payload);
      expect([res.statusCode, res.json().error]).toEqual([status, expect.stringContaining(message)]);
    }
    // Eli is not staff, so the staff room is hidden from him.
    const staffPanel = await postPanel(CHANNELS.staffRoom);
    const hidden = await click({ ...base, channelId: CHANNELS.staffRoom, messageId: staffPanel.id, userId: USERS.eli });
    expect([hidden.statusCode, hidden.json().error]).toEqual([403, 'eli cannot see #staff-room (no View Channel permission)']);
    expect(endpoint.requests).toHaveLength(0);
  });

  it('answers 409 without an interactions endpoint and 502 when it cannot be reached', async () => {
    const panel = await postPanel();
    sb.configure({ interactionsUrl: null });
    const unset = await clickOpen(panel);
    expect(unset.statusCode).toBe(409);
    expect(unset.json().error).toContain('no interactions endpoint is configured');
    await endpoint.close();
    sb.configure({ interactionsUrl: `${endpoint.url}/gone` });
    const down = await clickOpen(panel);
    expect(down.statusCode).toBe(502);
    expect(down.json().error).toContain(`could not reach the interactions endpoint ${endpoint.url}/gone`);
    const [record] = (await interactions()).interactions;
    expect(record).toMatchObject({ status: null, acknowledged: false, errors: [{ message: expect.stringContaining('could not be reached'), code: 0 }] });
    endpoint = await startEndpoint();
  });
});

describe('responses, applied as Discord would', () => {
  it('type 4 posts a message in the channel, from the app, with interaction metadata', async () => {
    const panel = await postPanel();
    endpoint.answer(() => ({ body: { type: 4, data: { content: `Ticket opened for <@${USERS.alice}>` } } }));
    const { interaction } = (await clickOpen(panel)).json();
    const messages = await channelMessages();
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatchObject({
      id: interaction.original.id,
      content: `Ticket opened for <@${USERS.alice}>`,
      author: { id: BOT_ID, bot: true },
      webhook_id: CLIENT_ID,
      application_id: CLIENT_ID,
      mentions: [{ id: USERS.alice }],
      interaction_metadata: { id: interaction.id, type: 3, user: { id: USERS.alice }, interacted_message_id: panel.id },
    });
    expect(interaction).toMatchObject({ acknowledged: true, responseType: 4, errors: [], ephemeral: [] });
  });

  it('type 4 with flags 64 is only for the member, never posted in the channel', async () => {
    const panel = await postPanel();
    endpoint.answer(() => ({ body: { type: 4, data: { content: 'Only you can see this', flags: 64 } } }));
    await clickOpen(panel);
    expect(await channelMessages()).toHaveLength(1);
    expect((await control('GET', `/messages?channelId=${CHANNELS.openTicket}`)).json().messages).toHaveLength(1);
    const mine = await interactions(`?userId=${USERS.alice}&channelId=${CHANNELS.openTicket}`);
    expect(mine.interactions).toHaveLength(1);
    expect(mine.interactions[0]).toMatchObject({ kind: 'MESSAGE_COMPONENT', customId: 'ticket:open', status: 200, responseType: 4 });
    expect(mine.interactions[0].ephemeral).toEqual([expect.objectContaining({ content: 'Only you can see this', flags: 64, channel_id: CHANNELS.openTicket })]);
    expect((await interactions(`?userId=${USERS.bruno}`)).interactions).toEqual([]);
  });

  it('lets the member use components on an ephemeral reply, which type 7 then edits for them alone', async () => {
    const panel = await postPanel();
    const picker = { type: 1, components: [{ type: 3, custom_id: 'ticket:pick', options: [{ label: 'Billing', value: 'billing' }] }] };
    endpoint.answer(() => ({ body: { type: 4, data: { content: 'Which subject?', flags: 64, components: [picker] } } }));
    const reply = (await clickOpen(panel)).json().interaction.original as APIMessage;
    expect(reply.flags).toBe(64);
    endpoint.answer(() => ({ body: { type: 7, data: { content: 'Billing it is', components: [] } } }));
    const pick = (userId: string) =>
      click({ guildId: GUILDS.pixelForge, channelId: CHANNELS.openTicket, messageId: reply.id, userId, customId: 'ticket:pick', values: ['billing'] });
    // Nobody else can see, let alone click, Alice's ephemeral message.
    expect((await pick(USERS.bruno)).statusCode).toBe(404);
    const res = (await pick(USERS.alice)).json();
    expect((endpoint.requests[1]!.json as APIMessageComponentGuildInteraction).message).toMatchObject({ id: reply.id, flags: 64 });
    expect(res.interaction.original).toMatchObject({ id: reply.id, content: 'Billing it is', flags: 64, components: [] });
    expect(sb.state.ephemeralMessages.get(reply.id)!.revisions).toHaveLength(1);
    expect(await channelMessages()).toHaveLength(1);

    await control('POST', '/reset');
    expect(await interactions()).toEqual({ interactions: [], openModals: [] });
    expect(sb.state.ephemeralMessages.size).toBe(0);
  });

  it('type 7 edits the clicked message and keeps its previous revision', async () => {
    const panel = await postPanel();
    sb.clock.advance(2000);
    endpoint.answer(() => ({ body: { type: 7, data: { content: 'Tickets are closed for today.', components: [] } } }));
    await clickOpen(panel);
    const [message] = await channelMessages();
    expect(message).toMatchObject({ id: panel.id, content: 'Tickets are closed for today.', components: [], edited_timestamp: '2025-01-15T12:00:02.000000+00:00' });
    const [recorded] = (await control('GET', `/messages?channelId=${CHANNELS.openTicket}`)).json().messages;
    expect(recorded.revisions).toEqual([expect.objectContaining({ content: PANEL.content, components: expect.any(Array) })]);
  });

  it('type 9 opens a modal; its submit is a MODAL_SUBMIT echoing the layout, then it closes', async () => {
    const panel = await postPanel();
    endpoint.answer(() => ({ body: TICKET_MODAL }));
    const opened = (await clickOpen(panel)).json();
    expect(opened.interaction.modal).toMatchObject({ customId: 'ticket:form', title: 'Open a ticket', open: true });
    expect((await interactions(`?userId=${USERS.alice}`)).openModals).toEqual([expect.objectContaining({ customId: 'ticket:form', userId: USERS.alice, open: true })]);

    endpoint.answer(() => ({ body: { type: 4, data: { content: 'Ticket created', flags: 64 } } }));
    const res = await submit({ guildId: GUILDS.pixelForge, channelId: CHANNELS.openTicket, userId: USERS.alice, customId: 'ticket:form', fields: { subject: 'Refund', details: 'Charged twice' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 200, response: { type: 4 }, interaction: { kind: 'MODAL_SUBMIT', fields: { subject: 'Refund', details: 'Charged twice' } } });
    const payload = endpoint.requests[1]!.json as APIModalSubmitGuildInteraction;
    expect(payload).toMatchObject({ type: 5, guild_id: GUILDS.pixelForge, channel_id: CHANNELS.openTicket, member: { user: { id: USERS.alice } }, message: { id: panel.id } });
    expect(payload.data).toEqual({
      custom_id: 'ticket:form',
      components: [
        { type: 1, id: 1, components: [{ type: 4, id: 2, custom_id: 'subject', value: 'Refund' }] },
        { type: 18, id: 3, component: { type: 4, id: 4, custom_id: 'details', value: 'Charged twice' } },
      ],
    });
    expect((await interactions()).openModals).toEqual([]);
    const again = await submit({ guildId: GUILDS.pixelForge, channelId: CHANNELS.openTicket, userId: USERS.alice, customId: 'ticket:form', fields: { subject: 'Again' } });
    expect([again.statusCode, again.json().error]).toEqual([400, expect.stringContaining('alice has no open modal')]);
  });

  it('refuses modal submits that do not fit the open modal, naming the problem', async () => {
    const panel = await postPanel();
    const base = { guildId: GUILDS.pixelForge, channelId: CHANNELS.openTicket, userId: USERS.alice, customId: 'ticket:form' };
    expect((await submit({ ...base, fields: { subject: 'x' } })).json().error).toContain('has no open modal');
    endpoint.answer(() => ({ body: TICKET_MODAL }));
    await clickOpen(panel);
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, fields: {} }, '"Subject" (subject) is required'],
      [{ ...base, fields: { subject: 'ab' } }, '"Subject" (subject) needs at least 3 characters, got 2'],
      [{ ...base, fields: { subject: 'x'.repeat(51) } }, 'allows at most 50 characters, got 51'],
      [{ ...base, fields: { subject: 'Valid', extra: 'no' } }, 'unknown field "extra"'],
      [{ ...base, customId: 'other' }, 'the modal open for alice is "ticket:form", not "other"'],
      [{ ...base, channelId: CHANNELS.general, fields: { subject: 'Valid' } }, 'was opened in channel'],
      [{ ...base, fields: { subject: 3 } }, 'fields must be an object'],
    ];
    for (const [payload, message] of cases) {
      const res = await submit(payload);
      expect([res.statusCode, res.json().error]).toEqual([400, expect.stringContaining(message)]);
    }
    // A failed submit (the endpoint errs) leaves the modal open, as the client does.
    endpoint.answer(() => ({ status: 500, body: { message: 'boom' } }));
    const failed = (await submit({ ...base, fields: { subject: 'Valid' } })).json();
    expect(failed).toMatchObject({ status: 500, interaction: { acknowledged: false, errors: [{ message: expect.stringContaining('answered 500') }] } });
    expect((await interactions()).openModals).toHaveLength(1);
    // Clicking something else dismisses it.
    endpoint.answer(() => ({ body: { type: 6 } }));
    await clickOpen(panel);
    expect((await interactions()).openModals).toEqual([]);
  });

  it('records responses Discord would refuse, keeping the endpoint’s status', async () => {
    const panel = await postPanel();
    const outcome = async (answer: { status?: number; body?: unknown }) => {
      endpoint.answer(() => answer);
      const res = await clickOpen(panel);
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    const unknownType = await outcome({ body: { type: 42 } });
    expect(unknownType.status).toBe(200);
    expect(unknownType.interaction.errors[0]).toMatchObject({ message: 'Invalid Form Body', code: 50035, errors: { type: { _errors: [{ code: 'BASE_TYPE_CHOICES' }] } } });
    expect((await outcome({ body: { type: 4 } })).interaction.errors[0].errors).toEqual({ data: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] } });
    expect((await outcome({ body: { type: 4, data: { content: 'x'.repeat(2001) } } })).interaction.errors[0].errors.data.content._errors[0].code).toBe('BASE_TYPE_MAX_LENGTH');
    expect((await outcome({ body: { type: 1 } })).interaction.errors[0].errors.type._errors[0].code).toBe('INTERACTION_RESPONSE_TYPE_INVALID');
    expect((await outcome({ body: { type: 9, data: { custom_id: 'm', title: 'T', components: [] } } })).interaction.errors[0].errors.data.components._errors[0].code).toBe('BASE_TYPE_MIN_LENGTH');
    expect((await outcome({ status: 200, body: 'ok' })).interaction.errors[0]).toEqual({ message: 'The request body contains invalid JSON.', code: 50109 });
    const serverError = await outcome({ status: 503, body: { error: 'down' } });
    expect(serverError).toMatchObject({ status: 503, response: { error: 'down' }, interaction: { acknowledged: false } });
    expect(await channelMessages()).toHaveLength(1);
  });
});

describe('follow-ups with the interaction token', () => {
  it('deferred (type 5): @original appears on its first edit, ephemeral as deferred; follow-ups post', async () => {
    const panel = await postPanel();
    endpoint.answer(() => ({ body: { type: 5, data: { flags: 64 } } }));
    const { interaction } = (await clickOpen(panel)).json();
    expect(interaction.original).toBeNull();
    const hook = `/api/v10/webhooks/${CLIENT_ID}/${interaction.token}`;
    const original = await sb.app.inject({ method: 'PATCH', url: `${hook}/messages/@original`, payload: { content: 'Your ticket is ready' } });
    expect(original.statusCode).toBe(200);
    expect(original.json()).toMatchObject({ content: 'Your ticket is ready', flags: 64, webhook_id: CLIENT_ID });
    const edited = await sb.app.inject({ method: 'PATCH', url: `${hook}/messages/@original`, payload: { content: 'Your ticket is ready: #ticket-1' } });
    expect(edited.json()).toMatchObject({ id: original.json().id, content: 'Your ticket is ready: #ticket-1', flags: 64 });
    const publicFollowUp = await sb.app.inject({ method: 'POST', url: hook, payload: { content: 'A new ticket was opened' } });
    expect(publicFollowUp.statusCode).toBe(200);
    const privateFollowUp = await sb.app.inject({ method: 'POST', url: hook, payload: { content: 'Psst', flags: 64 } });
    expect(privateFollowUp.json().flags).toBe(64);
    expect(privateFollowUp.json().interaction_metadata.original_response_message_id).toBe(original.json().id);

    expect((await channelMessages()).map((m) => m.content)).toEqual(['A new ticket was opened', PANEL.content]);
    const [listed] = (await interactions(`?userId=${USERS.alice}`)).interactions;
    expect(listed.original).toMatchObject({ content: 'Your ticket is ready: #ticket-1' });
    expect(listed.ephemeral.map((m: APIMessage) => m.content)).toEqual(['Your ticket is ready: #ticket-1', 'Psst']);
    expect(listed.followUps.map((m: APIMessage) => m.content)).toEqual(['A new ticket was opened', 'Psst']);
    // Follow-ups need no bot token and are logged like other platform requests.
    const log = (await control('GET', `/requests?pathPattern=${encodeURIComponent('^/api/v10/webhooks/')}`)).json().requests;
    expect(log.map((r: { auth: string; status: number }) => [r.auth, r.status])).toEqual([
      ['none', 200],
      ['none', 200],
      ['none', 200],
      ['none', 200],
    ]);
  });

  it('deferred update (type 6): @original is the clicked message, edited with revisions', async () => {
    const panel = await postPanel();
    endpoint.answer(() => ({ body: { type: 6 } }));
    const { interaction } = (await clickOpen(panel)).json();
    const res = await sb.app.inject({ method: 'PATCH', url: `/api/v10/webhooks/${CLIENT_ID}/${interaction.token}/messages/@original`, payload: { components: [] } });
    expect(res.json()).toMatchObject({ id: panel.id, components: [], content: PANEL.content });
    expect((await control('GET', `/messages?channelId=${CHANNELS.openTicket}`)).json().messages[0].revisions).toHaveLength(1);
  });

  it('answers Unknown Webhook for unknown, foreign, unanswered or expired tokens', async () => {
    const panel = await postPanel();
    endpoint.answer(() => ({ status: 500 }));
    const unanswered = (await clickOpen(panel)).json().interaction;
    endpoint.answer(() => ({ body: { type: 6 } }));
    const { interaction } = (await clickOpen(panel)).json();
    const unknownWebhook = { message: 'Unknown Webhook', code: 10015 };
    for (const url of [
      `/api/v10/webhooks/${CLIENT_ID}/not-a-token`,
      `/api/v10/webhooks/1199999999999999999/${interaction.token}`,
      `/api/v10/webhooks/${CLIENT_ID}/${unanswered.token}`,
    ]) {
      const res = await sb.app.inject({ method: 'POST', url, payload: { content: 'x' } });
      expect([res.statusCode, res.json()]).toEqual([404, unknownWebhook]);
    }
    expect((await sb.app.inject({ method: 'POST', url: `/api/v10/webhooks/${CLIENT_ID}/${interaction.token}`, payload: { content: 'in time' } })).statusCode).toBe(200);
    sb.clock.advance(15 * 60 * 1000);
    const late = await sb.app.inject({ method: 'PATCH', url: `/api/v10/webhooks/${CLIENT_ID}/${interaction.token}/messages/@original`, payload: { content: 'late' } });
    expect([late.statusCode, late.json()]).toEqual([404, unknownWebhook]);
  });

  it('accepts the initial response through the callback route, once', async () => {
    const panel = await postPanel();
    let callback: { statusCode: number; body: string } | null = null;
    endpoint.answer(async (request) => {
      const { id, token } = request.json as { id: string; token: string };
      callback = await sb.app.inject({ method: 'POST', url: `/api/v10/interactions/${id}/${token}/callback`, payload: { type: 4, data: { content: 'via callback', flags: 64 } } });
      return { status: 202 };
    });
    const res = (await clickOpen(panel)).json();
    expect(callback).toMatchObject({ statusCode: 204, body: '' });
    expect(res).toMatchObject({ status: 202, response: null, interaction: { acknowledged: true, responseType: 4, errors: [] } });
    expect(res.interaction.ephemeral).toEqual([expect.objectContaining({ content: 'via callback' })]);
    const url = `/api/v10/interactions/${res.interaction.id}/${res.interaction.token}/callback`;
    const twice = await sb.app.inject({ method: 'POST', url, payload: { type: 6 } });
    expect([twice.statusCode, twice.json()]).toEqual([400, { message: 'Interaction has already been acknowledged.', code: 40060 }]);
    const unknown = await sb.app.inject({ method: 'POST', url: `/api/v10/interactions/${res.interaction.id}/nope/callback`, payload: { type: 6 } });
    expect([unknown.statusCode, unknown.json()]).toEqual([404, { message: 'Unknown interaction', code: 10062 }]);
  });

  it('answers the callback with_response like Discord', async () => {
    const panel = await postPanel();
    let answer: unknown = null;
    endpoint.answer(async (request) => {
      const { id, token } = request.json as { id: string; token: string };
      const res = await sb.app.inject({ method: 'POST', url: `/api/v10/interactions/${id}/${token}/callback?with_response=true`, payload: { type: 4, data: { content: 'hi' } } });
      answer = res.json();
      return { status: 204 };
    });
    await clickOpen(panel);
    expect(answer).toMatchObject({
      interaction: { type: 3, response_message_loading: false, response_message_ephemeral: false, response_message_id: expect.any(String) },
      resource: { type: 4, message: { content: 'hi' } },
    });
  });
});

describe('configuration', () => {
  it('is validated on PUT /_sandbox/config, which knows only interactionsUrl', async () => {
    for (const [body, error] of [
      [{ interactionsUrl: 'ftp://x' }, 'interactionsUrl must be an http(s) URL or null'],
      [{ interactionsUrl: 42 }, 'interactionsUrl must be an http(s) URL or null'],
      // The sandbox no longer stands in for the bot runtime: events reach the product over the gateway.
      [{ botWorker: { apiUrl: 'http://localhost:3000/api/support', authorization: 'Bot secret' } }, 'unknown configuration key(s): botWorker (known: interactionsUrl)'],
      [{ interactionsUrl: 'http://x', botWorker: null }, 'unknown configuration key(s): botWorker'],
      [{ interactionUrl: 'http://x' }, 'unknown configuration key(s): interactionUrl'],
      [[1], 'the configuration must be a JSON object'],
    ] as const) {
      const res = await control('PUT', '/config', body);
      expect([res.statusCode, res.json().error]).toEqual([400, expect.stringContaining(error)]);
    }
    const ok = await control('PUT', '/config', { interactionsUrl: 'http://localhost:3000/api/support/discord' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ interactionsUrl: 'http://localhost:3000/api/support/discord' });
    expect(sb.state.config).toEqual({ interactionsUrl: 'http://localhost:3000/api/support/discord' });
    expect((await control('GET', '/state')).json().config).toEqual({ interactionsUrl: 'http://localhost:3000/api/support/discord' });
    // Wiring survives a reset of the world.
    await control('POST', '/reset');
    expect((await control('GET', '/config')).json().interactionsUrl).toBe('http://localhost:3000/api/support/discord');
  });

  it('comes from the options and configure(), which throws on bad input', async () => {
    const sandbox = await createSandbox({ interactionsUrl: 'http://127.0.0.1:9/discord' });
    expect(sandbox.state.config).toEqual({ interactionsUrl: 'http://127.0.0.1:9/discord' });
    sandbox.configure({ interactionsUrl: null });
    expect(sandbox.state.config).toEqual({ interactionsUrl: null });
    expect(() => sandbox.configure({ interactionsUrl: 'not a url' })).toThrow(/interactionsUrl must be an http\(s\) URL/);
    // A caller still passing the removed setting is told so rather than silently ignored.
    expect(() => sandbox.configure({ botWorker: null } as never)).toThrow(/unknown configuration key\(s\): botWorker/);
    await expect(createSandbox({ interactionsUrl: 'mailto:x' })).rejects.toThrow(/Invalid sandbox configuration/);
  });
});
