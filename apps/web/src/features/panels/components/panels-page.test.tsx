import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { Channel, Emoji, Panel, PanelInput } from '@ticket/contracts';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, type Recorded } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { renderPage, signIn } from '@/test/render-page';
import { PanelsPage } from './panels-page';

const SERVER = '200000000000000001';
const TICKETS = '300000000000000105';
const NEWS = '300000000000000103';
const BLURPLE = 0x5865f2;

const subject = (subjectId: string, name: string, index: number, deleted = false) => ({
  subjectId,
  serverId: SERVER,
  name,
  deleted,
  active: true,
  index,
});

const CHANNELS: Channel[] = [
  { id: '300000000000000101', type: 4, name: 'Information', position: 0 },
  { id: NEWS, type: 5, name: 'announcements', parent_id: '300000000000000101', position: 1 },
  { id: '300000000000000104', type: 4, name: 'Support', position: 1 },
  { id: TICKETS, type: 0, name: 'open-a-ticket', parent_id: '300000000000000104', position: 0 },
  { id: '300000000000000106', type: 15, name: 'help-forum', parent_id: '300000000000000104', position: 1 },
  { id: '300000000000000113', type: 2, name: 'Lounge', position: 3 },
  { id: '300000000000000115', type: 0, name: 'mod-log', position: 9 },
];

const EMOJIS: Emoji[] = [
  { id: '300000000000000301', name: 'forge_hammer', animated: false, available: true },
  { id: '300000000000000302', name: 'party_parrot', animated: true, available: true },
];

const sentPanel = (overrides: Partial<Panel> = {}): Panel =>
  ({
    id: 'p1',
    serverId: SERVER,
    name: 'Support desk',
    draft: false,
    type: 'BUTTON',
    subjects: [
      { subjectId: 's1', text: 'Billing', style: 'Success', emoji: null },
      { subjectId: 's2', text: 'Bugs', style: 'Danger', emoji: { id: null, name: '🐛' } },
    ],
    message: { content: 'Pick a topic', embeds: [{ title: 'Support', color: BLURPLE }] },
    integrationDetails: { channelId: TICKETS, serverId: SERVER, messageId: '900000000000000001' },
    lastSent: new Date(Date.now() - 5 * 60_000).toISOString(),
    ...overrides,
  }) as Panel;

const draftPanel: Panel = {
  id: 'p2',
  serverId: SERVER,
  name: '',
  draft: true,
  type: 'LIST',
  subjects: [{ subjectId: null, label: '', description: null, emoji: null }],
  message: null,
  integrationDetails: { channelId: null, serverId: SERVER, messageId: null },
  lastSent: null,
};

type Handler = (request: Recorded) => Response;

/** The services as the screen sees them; `panels` answers GET and is kept up to date by the writes. */
function backend(panels: Panel[] = [], overrides: Record<string, Handler> = {}) {
  let list = [...panels];
  return mockFetch((request) => {
    const path = request.url.split('?')[0] ?? '';
    const key = `${request.method} ${path}`;
    const override = overrides[key];
    if (override) return override(request);
    const base = `/api/settings/servers/${SERVER}/panels`;
    switch (key) {
      case `GET /api/server/servers/${SERVER}`:
        return json({
          serverId: SERVER,
          name: 'Analytical Engine',
          iconUrl: null,
          bannerUrl: null,
          active: true,
          subscription: 'free',
          ownerId: '100000000000000001',
          memberCount: 42,
        });
      case `GET /api/settings/servers/${SERVER}/subjects`:
        return json([subject('s1', 'Billing', 0), subject('s2', 'Bug reports', 1), subject('s3', 'Old', 2, true)]);
      case `GET /api/server/servers/${SERVER}/channels`:
        return json(CHANNELS);
      case `GET /api/server/servers/${SERVER}/roles`:
        return json([]);
      case `GET /api/server/servers/${SERVER}/emojis`:
        return json(EMOJIS);
      case `GET ${base}`:
        return json(list);
      case `POST ${base}`: {
        const body = request.body as PanelInput;
        const created = {
          ...body,
          id: 'p-new',
          serverId: SERVER,
          integrationDetails: { channelId: body.channelId ?? null, serverId: SERVER, messageId: body.draft ? null : '900000000000000009' },
          lastSent: body.draft ? null : new Date().toISOString(),
        } as unknown as Panel;
        list = [...list, created];
        return json(created, { status: 201 });
      }
    }
    const one = new RegExp(`^(GET|PATCH|DELETE) ${base}/([^/]+)$`).exec(key);
    if (one) {
      const existing = list.find((p) => p.id === one[2]);
      if (!existing) return json({ statusCode: 404, error: 'Not Found', code: 'not_found', message: 'No panel' }, { status: 404 });
      if (one[1] === 'DELETE') {
        list = list.filter((p) => p.id !== existing.id);
        return new Response(null, { status: 204 });
      }
      if (one[1] === 'PATCH') {
        const updated = { ...existing, ...(request.body as object), lastSent: new Date().toISOString() } as Panel;
        list = list.map((p) => (p.id === existing.id ? updated : p));
        return json(updated);
      }
      return json(existing);
    }
    const resend = new RegExp(`^POST ${base}/([^/]+)/resend$`).exec(key);
    if (resend) {
      const existing = list.find((p) => p.id === resend[1]) as Panel;
      return json({ ...existing, lastSent: new Date().toISOString() });
    }
    return json({ statusCode: 404, error: 'Not Found', code: 'not_found', message: 'no' }, { status: 404 });
  });
}

function open(path = `/staff/${SERVER}/panels`) {
  signIn(testUser());
  return renderPage(<PanelsPage />, { pattern: '/staff/:serverId/panels', path });
}

const writes = (calls: Recorded[]) => calls.filter((c) => c.method !== 'GET');

// jsdom lays nothing out, so floating-ui takes every popover's anchor for hidden and hides the
// popover (display: none): queries inside popovers must include hidden elements.
const hidden = { hidden: true } as const;

/** Picks `option` in the Mantine select labelled `label`. */
async function pick(user: UserEvent, label: string, option: string) {
  await user.click(screen.getByRole('textbox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option, ...hidden }));
}

async function startNewPanel(user: UserEvent) {
  await user.click(await screen.findByRole('button', { name: 'New panel' }));
  await screen.findByRole('heading', { level: 2, name: 'New panel' });
}

/** Types `text` into `element` at once, as a paste: the wizard re-renders on every key. */
async function fill(user: UserEvent, element: HTMLElement, text: string) {
  await user.click(element);
  await user.paste(text);
}

const next = (user: UserEvent, step: string) => user.click(screen.getByRole('button', { name: `Next: ${step}` }));

/** Fills in a panel that passes every rule: text, one embed with a title, one button, a channel. */
async function fillValidPanel(user: UserEvent) {
  await fill(user, screen.getByRole('textbox', { name: 'Message text' }), 'Click a button to open a ticket.');
  await fill(user, screen.getByRole('textbox', { name: 'Title' }), 'Support');
  await next(user, 'Actions');
  await next(user, 'Buttons');
  await fill(user, screen.getByRole('textbox', { name: /^Button text/ }), 'Billing help');
  await pick(user, 'Subject', 'Billing');
  await next(user, 'Channel');
  await pick(user, 'Channel', '#open-a-ticket');
  await next(user, 'Send');
}

const sendButton = () => screen.getByRole('button', { name: /^Send$/ });

describe('PanelsPage: the list', () => {
  it('lists each panel: name or "Untitled panel", sent or draft, channel, when last sent and the subjects it opens', async () => {
    backend([sentPanel(), draftPanel]);
    open();
    const sent = await screen.findByRole('listitem', { name: 'Support desk' });
    expect(within(sent).getByText('Sent')).toBeTruthy();
    expect(await within(sent).findByText(/#open-a-ticket/)).toBeTruthy();
    expect(within(sent).getByText('last sent 5 minutes ago')).toBeTruthy();
    expect(await within(sent).findByText('Opens: Billing and Bug reports')).toBeTruthy();
    expect(within(sent).getByRole('button', { name: 'Resend Support desk' })).toBeTruthy();

    const draft = screen.getByRole('listitem', { name: 'Untitled panel' });
    expect(within(draft).getByText('Draft')).toBeTruthy();
    expect(within(draft).getByText(/No channel yet/)).toBeTruthy();
    expect(within(draft).getByText(/never sent/)).toBeTruthy();
    expect(within(draft).getByText('Dropdown')).toBeTruthy();
    // A draft has no message to post again.
    expect(within(draft).queryByRole('button', { name: /Resend/ })).toBeNull();
  });

  it('says so when there are no panels yet', async () => {
    backend([]);
    open();
    expect(await screen.findByText('No panels yet')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Panels' })).toBeTruthy();
  });

  it('resends a sent panel with resendPanel', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = backend([sentPanel()]);
    open();
    await user.click(await screen.findByRole('button', { name: 'Resend Support desk' }));
    expect(await screen.findByText('Panel sent again in #open-a-ticket')).toBeTruthy();
    expect(writes(calls).map((c) => `${c.method} ${c.url}`)).toEqual([
      `POST /api/settings/servers/${SERVER}/panels/p1/resend`,
    ]);
  });

  it('deletes a panel only once the admin confirms', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = backend([sentPanel()]);
    open();
    await user.click(await screen.findByRole('button', { name: 'Delete Support desk' }));
    let dialog = await screen.findByRole('dialog', { name: /Delete Support desk\?/ });
    expect(within(dialog).getByText(/its message is removed from #open-a-ticket/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(writes(calls)).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete Support desk' }));
    dialog = await screen.findByRole('dialog', { name: /Delete Support desk\?/ });
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Support desk' })).toBeNull());
    expect(writes(calls).map((c) => `${c.method} ${c.url}`)).toEqual([`DELETE /api/settings/servers/${SERVER}/panels/p1`]);
  });
});

// Whole flows through the wizard, typed key by key: longer than the 5 s default.
describe('PanelsPage: the wizard', { timeout: 30_000 }, () => {
  it('shows the SPEC §5 messages beside their fields and goes back to the first step with a problem', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = backend([]);
    open();
    await startNewPanel(user);
    await user.click(screen.getByRole('button', { name: 'Remove Embed 1' }));
    await next(user, 'Actions');
    await next(user, 'Buttons');
    await next(user, 'Channel');
    await next(user, 'Send');
    await user.click(sendButton());

    const heading = await screen.findByRole('heading', { level: 3, name: 'Step 1 of 5: Message' });
    const content = screen.getByRole('textbox', { name: 'Message text' });
    expect(content.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('A message is required')).toBeTruthy();
    expect(document.activeElement === content || document.activeElement === heading).toBe(true);

    await next(user, 'Actions');
    await next(user, 'Buttons');
    expect(screen.getByText('Button 1 needs button text')).toBeTruthy();
    expect(screen.getByText('Button 1 needs a subject selected')).toBeTruthy();
    await next(user, 'Channel');
    expect(screen.getByText('A channel must be selected')).toBeTruthy();
    expect(writes(calls)).toEqual([]);

    // An embed with nothing in it is not a message either.
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await user.click(screen.getByRole('button', { name: 'Add embed' }));
    expect(await screen.findByText('The message needs content or an embed')).toBeTruthy();
    expect(screen.getByText('Embed 1 is empty')).toBeTruthy();
  });

  it('Send posts createPanel with the panel and draft=false, then says where it went', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = backend([]);
    open();
    await startNewPanel(user);
    await fill(user, screen.getByRole('textbox', { name: 'Panel name' }), 'Help desk');
    await fillValidPanel(user);
    expect(screen.getByText('Sending posts the panel in #open-a-ticket.')).toBeTruthy();
    await user.click(sendButton());

    expect(await screen.findByText('Panel sent in #open-a-ticket')).toBeTruthy();
    const posted = writes(calls);
    expect(posted.map((c) => `${c.method} ${c.url}`)).toEqual([`POST /api/settings/servers/${SERVER}/panels`]);
    expect(posted[0]?.body).toEqual({
      name: 'Help desk',
      draft: false,
      type: 'BUTTON',
      channelId: TICKETS,
      message: { content: 'Click a button to open a ticket.', embeds: [{ title: 'Support', color: BLURPLE }] },
      subjects: [{ subjectId: 's1', text: 'Billing help', style: 'Primary', emoji: null }],
    });
    // Back on the list, with the new panel.
    expect(await screen.findByRole('listitem', { name: 'Help desk' })).toBeTruthy();
  });

  it('offers only text and announcement channels, grouped by category', async () => {
    const user = userEvent.setup({ delay: null });
    backend([]);
    open();
    await startNewPanel(user);
    await next(user, 'Actions');
    await next(user, 'Buttons');
    await next(user, 'Channel');
    await user.click(screen.getByRole('textbox', { name: 'Channel' }));
    const listbox = await screen.findByRole('listbox', hidden);
    expect(within(listbox).getAllByRole('option', hidden).map((o) => o.textContent)).toEqual([
      '#mod-log',
      '#announcements',
      '#open-a-ticket',
    ]);
    expect(within(listbox).getByText('No category')).toBeTruthy();
    expect(within(listbox).getByText('Information')).toBeTruthy();
    expect(within(listbox).getByText('Support')).toBeTruthy();
  });

  it('Save as draft posts draft=true even when the panel breaks the rules', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = backend([]);
    open();
    await startNewPanel(user);
    await user.click(screen.getByRole('button', { name: 'Save as draft' }));

    expect(await screen.findByText('Draft saved')).toBeTruthy();
    const posted = writes(calls);
    expect(posted).toHaveLength(1);
    expect(posted[0]?.body).toEqual({
      name: '',
      draft: true,
      type: 'BUTTON',
      channelId: null,
      message: { content: '', embeds: [{ color: BLURPLE }] },
      subjects: [{ subjectId: null, text: '', style: 'Primary', emoji: null }],
    });
    // The wizard stays open on the saved draft: saving again updates it.
    expect(await screen.findByRole('heading', { level: 2, name: 'Edit Untitled panel' })).toBeTruthy();
    expect(screen.queryByText('A message is required')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save as draft' }));
    await waitFor(() => expect(writes(calls)).toHaveLength(2));
    expect(`${writes(calls)[1]?.method} ${writes(calls)[1]?.url}`).toBe(`PATCH /api/settings/servers/${SERVER}/panels/p-new`);
  });

  it('warns about an image URL that is no image, and still saves', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = backend([]);
    open();
    await startNewPanel(user);
    const image = screen.getByRole('textbox', { name: 'Image URL' });
    await user.type(image, 'not a url');
    expect(screen.getByText('Not a valid image URL or placeholder')).toBeTruthy();
    await user.clear(image);
    await fill(user, image, 'https://example.com/page');
    expect(screen.getByText('This URL may not point to an image')).toBeTruthy();
    expect(image.getAttribute('aria-invalid')).not.toBe('true');

    await user.click(screen.getByRole('button', { name: 'Save as draft' }));
    expect(await screen.findByText('Draft saved')).toBeTruthy();
    const body = writes(calls)[0]?.body as { message: { embeds: { image?: { url: string } }[] } };
    expect(body.message.embeds[0]?.image).toEqual({ url: 'https://example.com/page' });
  });

  it('shows the server’s refusal under "Failed to create panel"', async () => {
    const user = userEvent.setup({ delay: null });
    backend([], {
      [`POST /api/settings/servers/${SERVER}/panels`]: () =>
        json(
          {
            statusCode: 502,
            error: 'Bad Gateway',
            code: 'platform_refused',
            message: 'Failed to create panel: the bot is not allowed to post in that channel (Missing Permissions)',
          },
          { status: 502 },
        ),
    });
    open();
    await startNewPanel(user);
    await fillValidPanel(user);
    await user.click(sendButton());

    const alert = await screen.findByRole('alert', { name: /Failed to create panel/ });
    expect(within(alert).getByText('The bot is not allowed to post in that channel (Missing Permissions)')).toBeTruthy();
    // Still in the wizard, with everything typed.
    expect(screen.getByRole('heading', { level: 3, name: 'Step 5 of 5: Send' })).toBeTruthy();
  });

  it('edits a sent panel in place with updatePanel, and says so', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = backend([sentPanel()]);
    open();
    await user.click(await screen.findByRole('button', { name: 'Edit Support desk' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Edit Support desk' })).toBeTruthy();
    expect(await screen.findByText(/Sending your changes edits that message in place/)).toBeTruthy();
    const content = screen.getByRole('textbox', { name: 'Message text' });
    expect((content as HTMLTextAreaElement).value).toBe('Pick a topic');
    await user.type(content, '!');
    await next(user, 'Actions');
    await next(user, 'Buttons');
    await next(user, 'Channel');
    await next(user, 'Send');
    expect(await screen.findByText(/Sending edits the message in #open-a-ticket in place/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send changes' }));

    expect(await screen.findByText('Panel updated: the message in #open-a-ticket was edited in place')).toBeTruthy();
    const [patch] = writes(calls);
    expect(`${patch?.method} ${patch?.url}`).toBe(`PATCH /api/settings/servers/${SERVER}/panels/p1`);
    expect(patch?.body).toMatchObject({
      draft: false,
      channelId: TICKETS,
      message: { content: 'Pick a topic!' },
      subjects: [
        { subjectId: 's1', text: 'Billing', style: 'Success', emoji: null },
        { subjectId: 's2', text: 'Bugs', style: 'Danger', emoji: { id: null, name: '🐛' } },
      ],
    });
  });

  it('builds a dropdown panel: options with label, description and subject', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = backend([]);
    open();
    await startNewPanel(user);
    await fill(user, screen.getByRole('textbox', { name: 'Message text' }), 'Choose a topic');
    await user.click(screen.getByRole('button', { name: 'Remove Embed 1' }));
    await next(user, 'Actions');
    await user.click(screen.getByRole('radio', { name: /Dropdown/ }));
    await next(user, 'Dropdown');
    expect(screen.getByText('1/25 options')).toBeTruthy();
    await fill(user, screen.getByRole('textbox', { name: /^Label/ }), 'Refunds');
    await fill(user, screen.getByRole('textbox', { name: 'Description' }), 'Money back');
    await pick(user, 'Subject', 'Billing');
    expect(within(screen.getByRole('list', { name: 'Dropdown options' })).getByText('Money back')).toBeTruthy();
    await next(user, 'Channel');
    await pick(user, 'Channel', '#announcements');
    await next(user, 'Send');
    await user.click(sendButton());

    expect(await screen.findByText('Panel sent in #announcements')).toBeTruthy();
    expect(writes(calls)[0]?.body).toEqual({
      name: '',
      draft: false,
      type: 'LIST',
      channelId: NEWS,
      message: { content: 'Choose a topic', embeds: [] },
      subjects: [{ subjectId: 's1', label: 'Refunds', description: 'Money back', emoji: null }],
    });
  });

  it('shows a refused update under "Failed to update panel"', async () => {
    const user = userEvent.setup({ delay: null });
    backend([sentPanel()], {
      [`PATCH /api/settings/servers/${SERVER}/panels/p1`]: () =>
        json(
          {
            statusCode: 502,
            error: 'Bad Gateway',
            code: 'platform_refused',
            message: 'Failed to update panel: the channel no longer exists',
          },
          { status: 502 },
        ),
    });
    open(`/staff/${SERVER}/panels?panel=p1`);
    expect(await screen.findByRole('heading', { level: 2, name: 'Edit Support desk' })).toBeTruthy();
    for (const step of ['Actions', 'Buttons', 'Channel', 'Send']) await next(user, step);
    await user.click(screen.getByRole('button', { name: 'Send changes' }));
    const alert = await screen.findByRole('alert', { name: /Failed to update panel/ });
    expect(within(alert).getByText('The channel no longer exists')).toBeTruthy();
  });

  it('picks an emoji for a button from the server’s and the common ones, by keyboard', async () => {
    const user = userEvent.setup({ delay: null });
    backend([]);
    open();
    await startNewPanel(user);
    await next(user, 'Actions');
    await next(user, 'Buttons');
    await user.click(screen.getByRole('button', { name: 'Add emoji to Button 1' }));
    const dialog = await screen.findByRole('dialog', hidden);
    // Named by its (hidden, in jsdom) title, which the accessible-name library skips there.
    expect(document.getElementById(dialog.getAttribute('aria-labelledby') ?? '')?.textContent).toBe('Emoji for Button 1');
    expect(await within(dialog).findByRole('button', { name: ':forge_hammer:', ...hidden })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: ':party_parrot: (animated)', ...hidden })).toBeTruthy();
    const search = within(dialog).getByRole('textbox', { name: 'Search emoji', ...hidden });
    await waitFor(() => expect(document.activeElement).toBe(search));
    await user.type(search, 'ticket');
    expect(within(dialog).queryByRole('button', { name: ':forge_hammer:', ...hidden })).toBeNull();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog', hidden)).toBeNull());
    expect(screen.getByRole('button', { name: '🎫: change the emoji of Button 1' })).toBeTruthy();
    // And the preview shows it on the button.
    const row = screen.getByRole('list', { name: 'Button row 1' });
    expect(within(row).getByText('🎫')).toBeTruthy();
  });
});
