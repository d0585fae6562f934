import type { APIMessage } from 'discord-api-types/v10';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEndpoint } from './test-endpoint.ts';
import type { TestEndpoint } from './test-endpoint.ts';
import { CHANNELS, GUILDS, USERS, bot, makeSandbox } from './test-support.ts';
import type { TestSandbox } from './test-support.ts';

let sb: TestSandbox;
let endpoint: TestEndpoint;
beforeEach(async () => {
  sb = await makeSandbox();
  endpoint = await startEndpoint();
  sb.configure({ interactionsUrl: endpoint.url });
});
afterEach(async () => {
  await endpoint.close();
});

const PAGE = `/app/channels/${GUILDS.pixelForge}/${CHANNELS.openTicket}`;
const PANEL = {
  content: 'Need help? <script>alert("x")</script>',
  embeds: [{ title: 'Support <b>desk</b>', description: 'Press the button', fields: [{ name: 'Hours', value: '9–17' }] }],
  components: [
    {
      type: 1,
      components: [
        { type: 2, style: 1, label: 'Open ticket', custom_id: 'ticket:open' },
        { type: 2, style: 2, label: 'Paused', custom_id: 'ticket:paused', disabled: true },
        { type: 2, style: 5, label: 'Docs', url: 'https://example.com/docs' },
      ],
    },
    { type: 1, components: [{ type: 3, custom_id: 'ticket:subject', placeholder: 'Pick a subject', options: [{ label: 'Billing', value: 'billing' }, { label: 'Bug', value: 'bug' }] }] },
  ],
};
const MODAL = {
  type: 9,
  data: {
    custom_id: 'ticket:form',
    title: 'Open a ticket',
    components: [
      { type: 1, components: [{ type: 4, custom_id: 'subject', style: 1, label: 'Subject', min_length: 3, max_length: 50, placeholder: 'In a few words' }] },
      { type: 18, label: 'Details', component: { type: 4, custom_id: 'details', style: 2, required: false } },
    ],
  },
};

async function postPanel(): Promise<APIMessage> {
  return (await sb.app.inject({ method: 'POST', url: `/api/v10/channels/${CHANNELS.openTicket}/messages`, headers: bot, payload: PANEL })).json();
}

const view = async (as: string = USERS.alice) => {
  const res = await sb.app.inject({ url: `${PAGE}?as=${as}` });
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  return res;
};
const form = (url: string, fields: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(key, v);
  return sb.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: body.toString() });
};

describe('GET /app/channels/{guild}/{channel}', () => {
  it('renders the channel as the member sees it: messages, embeds, buttons, selects, a picker and a composer', async () => {
    const panel = await postPanel();
    const res = await view();
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html).toContain('<h1>#open-a-ticket</h1>');
    expect(html).toContain('viewing as Alice Anders');
    // Content and embeds are text: nothing from a message becomes markup.
    expect(html).toContain('Need help? &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('<strong>Support &lt;b&gt;desk&lt;/b&gt;</strong>');
    expect(html).toContain('<dt>Hours</dt><dd>9–17</dd>');
    expect(html).toMatch(
      new RegExp(`<form method="post" action="${PAGE}/component">\\s*<input type="hidden" name="as" value="${USERS.alice}"><input type="hidden" name="messageId" value="${panel.id}"><input type="hidden" name="customId" value="ticket:open">\\s*<button type="submit" class="">Open ticket</button>`),
    );
    expect(html).toMatch(/<button type="submit" class="secondary-style" disabled>Paused<\/button>/);
    expect(html).toContain('<a href="https://example.com/docs" rel="noreferrer">Docs</a>');
    expect(html).toMatch(/<label for="select-1">Pick a subject<\/label>\s*<select id="select-1" name="values" required>/);
    expect(html).toContain('<option value="bug">Bug</option>');
    expect(html).toMatch(new RegExp(`<a href="${PAGE}\\?as=${USERS.alice}" aria-current="page">Alice Anders</a>`));
    expect(html).toContain(`<a href="${PAGE}?as=${USERS.eli}">eli</a>`);
    expect(html).toMatch(/<label for="message-content">Message #open-a-ticket<\/label>\s*<textarea id="message-content" name="content" required maxlength="2000"><\/textarea>/);
    expect(html).toContain('role="status"');
  });

  it('explains who cannot see the channel, and 404s for unknown channels', async () => {
    const hidden = await sb.app.inject({ url: `/app/channels/${GUILDS.pixelForge}/${CHANNELS.staffRoom}?as=${USERS.eli}` });
    expect(hidden.statusCode).toBe(403);
    expect(hidden.body).toContain('eli cannot see #staff-room.');
    expect(hidden.body).toContain('View as');
    const noOne = await sb.app.inject({ url: PAGE });
    expect(noOne.statusCode).toBe(200);
    expect(noOne.body).toContain('Choose whose view of the channel to show.');
    expect((await sb.app.inject({ url: `/app/channels/${GUILDS.pixelForge}/1399999999999999999?as=${USERS.alice}` })).statusCode).toBe(404);
  });
});

describe('the page’s forms', () => {
  it('clicks a button, shows the modal the endpoint opens, and submits it', async () => {
    const panel = await postPanel();
    endpoint.answer(() => ({ body: MODAL }));
    const clicked = await form(`${PAGE}/component`, { as: USERS.alice, messageId: panel.id, customId: 'ticket:open' });
    expect(clicked.statusCode).toBe(303);
    expect(clicked.headers.location).toBe(`${PAGE}?as=${USERS.alice}`);
    expect(endpoint.requests[0]!.json).toMatchObject({ type: 3, data: { custom_id: 'ticket:open' }, member: { user: { id: USERS.alice } } });

    const withModal = (await view()).body;
    expect(withModal).toMatch(/<section class="modal" role="dialog" aria-labelledby="modal-title">\s*<h2 id="modal-title">Open a ticket<\/h2>/);
    expect(withModal).toMatch(/<label for="field-\d+">Subject<\/label>/);
    expect(withModal).toMatch(/<input type="text" id="field-\d+" name="field.subject" required minlength="3" maxlength="50" placeholder="In a few words" value="">/);
    expect(withModal).toMatch(/<label for="field-\d+">Details<\/label><span class="muted">Optional<\/span>/);
    expect(withModal).toMatch(/<textarea id="field-\d+" name="field.details" maxlength="4000"><\/textarea>/);
    expect(withModal).toContain('<button type="submit">Open a ticket</button>');
    // Only Alice has the modal open.
    expect((await view(USERS.eli)).body).not.toContain('modal-title');

    endpoint.answer(() => ({ body: { type: 4, data: { content: 'Your ticket is open: <#1300000000000000110>', flags: 64 } } }));
    const submitted = await form(`${PAGE}/modal`, { as: USERS.alice, customId: 'ticket:form', 'field.subject': 'Refund please', 'field.details': '' });
    expect(submitted.statusCode).toBe(303);
    expect(submitted.headers.location).toBe(`${PAGE}?as=${USERS.alice}`);
    expect(endpoint.requests[1]!.json).toMatchObject({
      type: 5,
      data: { custom_id: 'ticket:form', components: [{ components: [{ custom_id: 'subject', value: 'Refund please' }] }, { component: { custom_id: 'details', value: '' } }] },
    });
    const after = (await view()).body;
    expect(after).not.toContain('modal-title');
    expect(after).toMatch(/<div role="status">\s*<ol class="messages"><li class="message"[\s\S]*Only you can see this[\s\S]*Your ticket is open: #general/);
    expect((await view(USERS.eli)).body).not.toContain('Your ticket is open');
  });

  it('picks from a select, cancels a modal, and shows refusals and failures', async () => {
    const panel = await postPanel();
    endpoint.answer(() => ({ body: MODAL }));
    await form(`${PAGE}/component`, { as: USERS.alice, messageId: panel.id, customId: 'ticket:subject', values: 'bug' });
    expect(endpoint.requests[0]!.json).toMatchObject({ data: { custom_id: 'ticket:subject', component_type: 3, values: ['bug'] } });
    expect((await form(`${PAGE}/modal/dismiss`, { as: USERS.alice })).statusCode).toBe(303);
    expect((await view()).body).not.toContain('modal-title');

    const refused = await form(`${PAGE}/component`, { as: USERS.alice, messageId: panel.id, customId: 'ticket:paused' });
    expect(refused.statusCode).toBe(303);
    const location = String(refused.headers.location);
    expect(new URL(location, 'http://x').searchParams.get('error')).toBe('component "ticket:paused" is disabled');
    expect((await sb.app.inject({ url: location })).body).toContain('<p class="error" role="alert">component &quot;ticket:paused&quot; is disabled</p>');

    endpoint.answer(() => ({ status: 500 }));
    await form(`${PAGE}/component`, { as: USERS.alice, messageId: panel.id, customId: 'ticket:open' });
    expect((await view()).body).toMatch(/<div class="error" role="alert">\s*<p>This interaction failed<\/p>/);
  });

  it('sends a message as the member', async () => {
    const sent = await form(`${PAGE}/messages`, { as: USERS.eli, content: 'Hello <there> & bye' });
    expect(sent.statusCode).toBe(303);
    expect(sent.headers.location).toBe(`${PAGE}?as=${USERS.eli}`);
    const messages: APIMessage[] = (await sb.app.inject({ url: `/api/v10/channels/${CHANNELS.openTicket}/messages`, headers: bot })).json();
    expect(messages[0]).toMatchObject({ content: 'Hello <there> & bye', author: { id: USERS.eli } });
    expect((await view(USERS.alice)).body).toContain('<p class="content">Hello &lt;there&gt; &amp; bye</p>');
  });

  it('offers the author edit and delete, a moderator delete, everyone reactions, and shows who reacted', async () => {
    await form(`${PAGE}/messages`, { as: USERS.eli, content: 'typo hree' });
    const [message]: APIMessage[] = (await sb.app.inject({ url: `/api/v10/channels/${CHANNELS.openTicket}/messages`, headers: bot })).json();
    const own = (await view(USERS.eli)).body;
    expect(own).toContain('Save edit');
    expect(own).toContain('Delete message');
    // Dana (Support Staff) may delete others' messages but not edit them; Sam may only react.
    const moderator = (await view(USERS.dana)).body;
    expect(moderator).not.toContain('Save edit');
    expect(moderator).toContain('Delete message');
    const plain = (await view('1200000000000000102')).body;
    expect(plain).not.toContain('Delete message');
    expect(plain).toContain('Add a reaction');

    expect((await form(`${PAGE}/messages/edit`, { as: USERS.eli, messageId: message!.id, content: 'typo here' })).headers.location).toBe(`${PAGE}?as=${USERS.eli}`);
    await form(`${PAGE}/reactions`, { as: USERS.dana, messageId: message!.id, emoji: '👀', action: 'add' });
    const reacted = (await view(USERS.eli)).body;
    expect(reacted).toContain('<p class="content">typo here</p>');
    expect(reacted).toContain('aria-label="👀 reaction, 1"');
    expect(reacted).toContain('aria-pressed="false"');
    const refused = await form(`${PAGE}/reactions`, { as: USERS.eli, messageId: message!.id, emoji: 'hello', action: 'add' });
    expect(new URL(String(refused.headers.location), 'http://x').searchParams.get('error')).toContain('is not a Unicode emoji');

    await form(`${PAGE}/messages/delete`, { as: USERS.dana, messageId: message!.id });
    expect((await view(USERS.eli)).body).not.toContain('typo here');
  });
});
