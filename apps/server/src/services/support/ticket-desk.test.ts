import type { Panel, Subject, Template, Ticket } from '@ticket/contracts';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { now } from '../../db/database';
import { ADMIN_KEY, bearer, createTestApp, engines, interactionSigner, resetSandbox, signIn, useSandbox, testConfig, type TestContext } from '../../test/harness';
import { GUILDS, SUPPORT_STAFF_ROLE, USERS } from '../../test/demo-world';

const sandbox = useSandbox();

const signer = interactionSigner();

const SERVER = GUILDS.studyHall;
const OPEN_A_TICKET = '1300000000000000608';
const STAFF = SUPPORT_STAFF_ROLE.studyHall;

interface SandboxChannel {
  id: string;
  name: string;
  parent_id: string | null;
  permission_overwrites: { id: string; type: number; allow: string; deny: string }[];
}
interface SandboxMessage {
  id: string;
  channelId: string;
  content: string;
  deleted: boolean;
  embeds: { title?: string; fields?: { name: string; value: string }[]; description?: string }[];
  components: { components: { custom_id?: string; label?: string; url?: string }[] }[];
}

describe.each(engines)('opening and handling tickets from the platform on %s', (engine) => {
  let ctx: TestContext;
  let admin: string;
  let subject: Subject;
  let panel: Panel;
  let interactionCount = 0;

  const api = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown, token = admin) =>
    ctx.built.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const set = async (path: string, value: unknown) => {
    const response = await api('PATCH', `/api/settings/servers/${SERVER}/subjects/${subject.subjectId}`, { serverId: SERVER, subjectId: subject.subjectId, path, operation: 'set', value });
    expect(response.statusCode, response.body).toBe(200);
  };
  const member = (userId: string, roles: string[] = []) => ({ user: { id: userId, username: `user${userId.slice(-3)}`, global_name: null }, roles });
  const interact = async (payload: Record<string, unknown>) => {
    const body = JSON.stringify({ id: String(++interactionCount), application_id: '1100000000000000001', version: 1, guild_id: SERVER, channel_id: OPEN_A_TICKET, ...payload });
    const response = await ctx.built.app.inject({ method: 'POST', url: '/api/support/discord', payload: body, headers: signer.headers(body) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ type: number; data: { content?: string; flags?: number; custom_id?: string; title?: string; components?: { components: Record<string, unknown>[] }[] } }>();
  };
  const click = (userId: string, customId: string, roles: string[] = []) => interact({ type: 3, member: member(userId, roles), data: { custom_id: customId, component_type: 2 } });
  const submit = (userId: string, customId: string, fields: Record<string, string>, roles: string[] = []) =>
    interact({
      type: 5,
      member: member(userId, roles),
      data: { custom_id: customId, components: Object.entries(fields).map(([id, value]) => ({ type: 1, components: [{ type: 4, custom_id: id, value }] })) },
    });
  const buttonOf = (subjectId: string) => `panel:${panel.id}:${subjectId}`;
  const channel = async (id: string) => (await fetch(`${sandbox.url}/api/v10/channels/${id}`, { headers: { authorization: 'Bot sandbox-bot-token' } })).json() as Promise<SandboxChannel>;
  const channelStatus = async (id: string) => (await fetch(`${sandbox.url}/api/v10/channels/${id}`, { headers: { authorization: 'Bot sandbox-bot-token' } })).status;
  const messagesIn = async (channelId: string) =>
    ((await (await fetch(`${sandbox.url}/_sandbox/messages?channelId=${channelId}`)).json()) as { messages: SandboxMessage[] }).messages;
  const ticket = async (ticketId: string) => (await api('GET', `/api/support/servers/${SERVER}/tickets/${ticketId}`, undefined, ADMIN_KEY)).json<Ticket>();
  const openedId = (content: string | undefined) => /<#(\d+)>/.exec(content ?? '')?.[1] ?? '';

  beforeEach(async () => {
    await resetSandbox(sandbox);
    const base = testConfig(sandbox);
    ctx = await createTestApp(sandbox, engine, { platform: { ...base.platform, publicKey: signer.publicKeyHex } });
    admin = (await signIn(ctx, USERS.chen)).token;
    // Forms and auto-close are plan features: the server is on Enterprise, as in the demo.
    await ctx.built.database.db.updateTable('servers').set({ plan: 'enterprise', updated_at: now() }).where('id', '=', SERVER).execute();
    subject = (await api('POST', `/api/settings/servers/${SERVER}/subjects`, { name: 'Orders' })).json<Subject>();
    await set('staffRoles', { value: [STAFF], inherits: false });
    const created = await api('POST', `/api/settings/servers/${SERVER}/panels`, {
      name: 'Help',
      draft: false,
      type: 'BUTTON',
      channelId: OPEN_A_TICKET,
      message: { content: 'Open a ticket', embeds: [] },
      subjects: [{ subjectId: subject.subjectId, text: 'Orders', style: 'Primary', emoji: null }],
    });
    expect(created.statusCode, created.body).toBe(201);
    panel = created.json<Panel>();
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('opens a private ticket channel from a panel button, with the welcome message and its buttons', async () => {
    const answer = await click(USERS.eli, buttonOf(subject.subjectId));
    expect(answer.type).toBe(4);
    expect(answer.data.flags).toBe(64);
    expect(answer.data.content).toMatch(/^Your ticket is open: <#\d+>$/);
    const id = openedId(answer.data.content);

    const created = await channel(id);
    expect(created.name).toBe('ticket-0001');
    const overwrites = new Map(created.permission_overwrites.map((o) => [o.id, o]));
    expect(BigInt(overwrites.get(SERVER)!.deny) & PermissionFlagsBits.ViewChannel).toBe(PermissionFlagsBits.ViewChannel);
    expect(BigInt(overwrites.get(USERS.eli)!.allow) & PermissionFlagsBits.ViewChannel).toBe(PermissionFlagsBits.ViewChannel);
    expect(BigInt(overwrites.get(STAFF)!.allow) & PermissionFlagsBits.ViewChannel).toBe(PermissionFlagsBits.ViewChannel);

    const [welcome] = await messagesIn(id);
    expect(welcome?.content).toContain(`<@${USERS.eli}>`);
    const customIds = welcome?.components.flatMap((row) => row.components.map((c) => c.custom_id));
    expect(customIds).toEqual([`ticket:close:${id}`, `ticket:claim:${id}`]);

    expect(await ticket(id)).toMatchObject({ ticketId: id, number: 1, name: 'ticket-0001', author: USERS.eli, state: 'PendingStaff', subject: { subjectId: subject.subjectId } });
  });

  it('asks the form first when the subject requires one, and keeps the answers with the ticket', async () => {
    const created = await api('PUT', `/api/settings/servers/${SERVER}/templates`, {
      subjectId: subject.subjectId,
      template: { type: 'Text', answerFormat: 'None', index: 0, question: 'Order number?', slug: 'order', values: { large: false, minLength: 1, maxLength: 20, placeholder: 'A-123' } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const question = created.json<Template>();
    await set('requireForm', true);

    const modal = await click(USERS.eli, buttonOf(subject.subjectId));
    expect(modal.type).toBe(9);
    expect(modal.data.title).toBe('Orders');
    expect(modal.data.components?.[0]?.components[0]).toMatchObject({ type: 4, custom_id: question.questionId, label: 'Order number?', max_length: 20, required: true });

    const opened = await submit(USERS.eli, modal.data.custom_id!, { [question.questionId]: 'A-778' });
    const id = openedId(opened.data.content);
    expect((await ticket(id)).templateAnswers).toEqual([{ questionId: question.questionId, question: 'Order number?', answer: 'A-778' }]);
    const [welcome] = await messagesIn(id);
    expect(welcome?.embeds.at(-1)).toMatchObject({ title: 'Form answers', fields: [{ name: 'Order number?', value: 'A-778' }] });
  });

  it('refuses with a private reply when a limit is reached or creation is off', async () => {
    await set('limitations.maxActivePerUser', 1);
    expect(openedId((await click(USERS.eli, buttonOf(subject.subjectId))).data.content)).not.toBe('');
    const refused = await click(USERS.eli, buttonOf(subject.subjectId));
    expect(refused).toEqual({ type: 4, data: { content: 'You already have the most open tickets allowed in Orders (1).', flags: 64 } });

    await set('disableCreation', true);
    expect((await click(USERS.dana, buttonOf(subject.subjectId))).data.content).toBe('New tickets cannot be opened in Orders right now.');
    await set('disableCreation', false);
    await set('limitations.whitelist', { inverted: false, ids: [STAFF] });
    expect((await click(USERS.chen, buttonOf(subject.subjectId))).data.content).toBe('You are not allowed to open tickets in Orders.');
  });

  it('lets staff claim a ticket and close it with the reason the subject asks for; the channel goes', async () => {
    await set('automation.requireCloseReason', true);
    await set('automation.closeDelay', { time: 0, unit: 'seconds' });
    const id = openedId((await click(USERS.eli, buttonOf(subject.subjectId))).data.content);

    expect((await click(USERS.eli, `ticket:claim:${id}`)).data.content).toBe('Only staff can claim tickets.');
    expect((await click(USERS.dana, `ticket:claim:${id}`, [STAFF])).data.content).toBe('You claimed this ticket.');
    expect((await ticket(id)).assignee).toBe(USERS.dana);
    expect((await channel(id)).permission_overwrites.some((o) => o.id === USERS.dana)).toBe(true);

    const modal = await click(USERS.dana, `ticket:close:${id}`, [STAFF]);
    expect(modal).toMatchObject({ type: 9, data: { custom_id: `ticket:close-reason:${id}`, title: 'Close ticket' } });
    const closed = await submit(USERS.dana, `ticket:close-reason:${id}`, { reason: 'Refund sent' }, [STAFF]);
    expect(closed.data.content).toBe('Ticket closed.\nReason: Refund sent');
    expect((await ticket(id)).closed).toMatchObject({ closedBy: USERS.dana, reason: 'Refund sent' });
    expect(await channelStatus(id)).toBe(404);
  });

  it('waits the close delay, which a restart does not lose, and can be cancelled', async () => {
    await set('automation.closeDelay', { time: 10, unit: 'minutes' });
    const id = openedId((await click(USERS.eli, buttonOf(subject.subjectId))).data.content);
    expect((await click(USERS.eli, `ticket:close:${id}`)).data.content).toBe('The ticket will close in 10 minutes.');
    expect((await messagesIn(id)).at(-1)?.content).toBe('This ticket will close in 10 minutes.');
    expect((await click(USERS.eli, `ticket:cancel-close:${id}`)).data.content).toBe('Closing was cancelled.');
    expect(await ctx.built.services.ticketJobs.runDueJobs(new Date(Date.now() + 3_600_000))).toBe(0);

    await click(USERS.eli, `ticket:close:${id}`);
    // Nothing runs before its time; after it, a new process (the same database) runs it once.
    expect(await ctx.built.services.ticketJobs.runDueJobs(new Date())).toBe(0);
    expect(await ctx.built.services.ticketJobs.runDueJobs(new Date(Date.now() + 11 * 60_000))).toBe(1);
    expect(await ctx.built.services.ticketJobs.runDueJobs(new Date(Date.now() + 11 * 60_000))).toBe(0);
    expect((await ticket(id)).closed).toMatchObject({ closedBy: USERS.eli, reason: null });
  });

  it('warns a ticket waiting for its user, then closes it, after the auto-close times', async () => {
    await set('automation.autoCloseTime', { enabled: true, inherits: false, value: { warnTime: { time: 1, unit: 'hours' }, closeTime: { time: 2, unit: 'hours' } } });
    const id = openedId((await click(USERS.eli, buttonOf(subject.subjectId))).data.content);
    // A staff member writes in the channel: the ticket now waits for its user.
    const said = await api('POST', `/api/support/servers/${SERVER}/tickets/${id}/messages`, { message: { content: 'Which order?' }, messageType: 'User', authorId: USERS.dana }, ADMIN_KEY);
    expect(said.json().messageType).toBe('Staff');
    expect((await ticket(id)).state).toBe('PendingUser');

    const jobs = ctx.built.services.ticketJobs;
    expect(await jobs.sweepAutoClose(new Date(Date.now() + 30 * 60_000))).toBe(0);
    expect(await jobs.sweepAutoClose(new Date(Date.now() + 61 * 60_000))).toBe(1);
    expect((await ticket(id)).state).toBe('AutoClose');
    // A ticket closing on its own counts as resolved: the list can leave it out.
    const listed = async (query: string) =>
      (await api('GET', `/api/support/servers/${SERVER}/tickets?${query}`, undefined, ADMIN_KEY)).json<{ elements: { ticketId: string }[] }>().elements.map((t) => t.ticketId);
    expect(await listed('Active=true')).toEqual([id]);
    expect(await listed('HideResolved=true')).toEqual([]);
    expect((await messagesIn(id)).at(-1)?.content).toMatch(new RegExp(`^<@${USERS.eli}> This ticket will close in \\d+ minutes? unless you reply\\.$`));
    expect(await jobs.sweepAutoClose(new Date(Date.now() + 121 * 60_000))).toBe(1);
    expect((await ticket(id)).closed).toMatchObject({ closedBy: '1100000000000000001', reason: 'Closed after a period without a reply' });
  });

  it('sweeps every waiting ticket when they fill several batches', async () => {
    await set('automation.autoCloseTime', { enabled: true, inherits: false, value: { warnTime: { time: 1, unit: 'hours' }, closeTime: { time: 2, unit: 'hours' } } });
    const ids: string[] = [];
    for (const user of [USERS.eli, USERS.chen]) {
      const id = openedId((await click(user, buttonOf(subject.subjectId))).data.content);
      await api('POST', `/api/support/servers/${SERVER}/tickets/${id}/messages`, { message: { content: 'Which order?' }, messageType: 'User', authorId: USERS.dana }, ADMIN_KEY);
      ids.push(id);
    }
    expect(await ctx.built.services.ticketJobs.sweepAutoClose(new Date(Date.now() + 61 * 60_000), 1)).toBe(2);
    expect(await Promise.all(ids.map(async (id) => (await ticket(id)).state))).toEqual(['AutoClose', 'AutoClose']);
  });

  it('closes the ticket of an owner who left the server when the subject closes on leave', async () => {
    await set('automation.closeOnLeave', true);
    const id = openedId((await click(USERS.eli, buttonOf(subject.subjectId))).data.content);
    const report = () => api('DELETE', `/api/support/servers/${SERVER}/tickets/${id}/member`, { userId: USERS.eli }, ADMIN_KEY);
    // Still in the server: the owner cannot be taken out of their ticket.
    expect((await report()).statusCode).toBe(400);
    expect((await fetch(`${sandbox.url}/_sandbox/guilds/${SERVER}/members/${USERS.eli}`, { method: 'DELETE' })).status).toBe(204);
    expect((await report()).statusCode).toBe(204);
    expect((await ticket(id)).closed).toMatchObject({ closedBy: '1100000000000000001', reason: 'The ticket owner left the server', force: true });
  });

  it('lets added members into the channel, and logs each event the subject logs', async () => {
    const LOG = '1300000000000000602';
    await set('logging', { channelId: LOG, rainbowColors: true, created: true, claimed: true, closed: true, deleted: true, memberAdded: true, memberRemoved: true, subjectChanged: false });
    const id = openedId((await click(USERS.eli, buttonOf(subject.subjectId))).data.content);
    const members = `/api/support/servers/${SERVER}/tickets/${id}/member`;
    expect((await api('POST', members, { userId: USERS.dana }, ADMIN_KEY)).statusCode).toBe(204);
    const dana = (await channel(id)).permission_overwrites.find((o) => o.id === USERS.dana);
    const allowed = BigInt(dana!.allow);
    for (const flag of [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.SendMessages, PermissionFlagsBits.ReadMessageHistory, PermissionFlagsBits.AttachFiles]) {
      expect(allowed & flag).toBe(flag);
    }
    const added = await ticket(id);
    expect(added.members).toEqual([USERS.dana]);
    // Staff are told what the subject lets each of the ticket's people do in its channel.
    expect(added.access).toEqual({
      userPermissions: subject.permissions.userPermissions.value,
      claimPermissions: subject.permissions.claimPermissions.value,
      staffPermissions: subject.permissions.staffPermissions.value,
      staffRoles: [STAFF],
    });
    // Sent again, or for the author (always in): nothing changes, nothing is announced twice.
    expect((await api('POST', members, { userId: USERS.dana }, ADMIN_KEY)).statusCode).toBe(204);
    expect((await api('POST', members, { userId: USERS.eli }, ADMIN_KEY)).statusCode).toBe(204);
    // Only people of the server can be let in.
    const outsider = await api('POST', members, { userId: USERS.alice }, ADMIN_KEY);
    expect(outsider.statusCode).toBe(400);
    expect(outsider.json<{ message: string }>().message).toBe(`User ${USERS.alice} is not a member of this server`);
    expect((await api('DELETE', members, { userId: USERS.dana }, ADMIN_KEY)).statusCode).toBe(204);
    expect((await channel(id)).permission_overwrites.some((o) => o.id === USERS.dana)).toBe(false);
    expect((await ticket(id)).members).toEqual([]);
    const gone = await api('DELETE', members, { userId: USERS.dana }, ADMIN_KEY);
    expect(gone.statusCode).toBe(404);
    expect(gone.json<{ message: string }>().message).toBe('That user is not a member of this ticket');
    const said = (await messagesIn(id)).map((m) => m.content);
    expect(said.filter((line) => line.includes(`<@${USERS.dana}>`))).toEqual([`<@${USERS.dana}> was added to this ticket.`, `<@${USERS.dana}> was removed from this ticket.`]);
    expect((await api('DELETE', `/api/support/servers/${SERVER}/tickets/${id}`, undefined, ADMIN_KEY)).statusCode).toBe(204);
    expect(await channelStatus(id)).toBe(404);

    const logged = (await messagesIn(LOG)).map((m) => m.embeds[0]?.description);
    expect(logged).toEqual([
      `Ticket #1 (<#${id}>) was opened by <@${USERS.eli}> in Orders.`,
      `<@${USERS.dana}> was added to ticket #1 (ticket-0001).`,
      `<@${USERS.dana}> was removed from ticket #1 (ticket-0001).`,
      'Ticket #1 (ticket-0001) was deleted.',
    ]);
  });

  it('keeps the members of a closed ticket as they were', async () => {
    const id = openedId((await click(USERS.eli, buttonOf(subject.subjectId))).data.content);
    const members = `/api/support/servers/${SERVER}/tickets/${id}/member`;
    expect((await api('POST', members, { userId: USERS.dana }, ADMIN_KEY)).statusCode).toBe(204);
    const closed = await api('PUT', `/api/support/servers/${SERVER}/tickets/${id}`, { closure: { closedBy: USERS.chen, reason: null, force: false } }, ADMIN_KEY);
    expect(closed.statusCode, closed.body).toBe(200);
    for (const method of ['POST', 'DELETE'] as const) {
      const refused = await api(method, members, { userId: method === 'POST' ? USERS.chen : USERS.dana }, ADMIN_KEY);
      expect(refused.statusCode).toBe(409);
      expect(refused.json<{ message: string }>().message).toBe('Members of a closed ticket cannot be changed');
    }
    expect((await ticket(id)).members).toEqual([USERS.dana]);
  });

  it('tells people directly: the owner of staff replies and of the close, the claimer of the owner’s replies', async () => {
    await set('automation.notifyUser', true);
    await set('automation.notifyClaimer', true);
    await set('automation.dmAuthorOnClose', true);
    await set('automation.closeDelay', { time: 0, unit: 'seconds' });
    const direct = async (userId: string) =>
      ((await (await fetch(`${sandbox.url}/_sandbox/direct-messages?userId=${userId}`)).json()) as { messages: { content: string }[] }).messages.map((m) => m.content);
    const id = openedId((await click(USERS.eli, buttonOf(subject.subjectId))).data.content);
    await click(USERS.dana, `ticket:claim:${id}`, [STAFF]);
    const say = (authorId: string, content: string) =>
      api('POST', `/api/support/servers/${SERVER}/tickets/${id}/messages`, { message: { content }, messageType: 'User', authorId }, ADMIN_KEY);
    await say(USERS.dana, 'Which order is it?');
    await say(USERS.eli, 'A-778, thanks');
    expect(await direct(USERS.eli)).toEqual([`New reply in ticket #1 (ticket-0001) from <@${USERS.dana}>:\n> Which order is it?`]);
    expect(await direct(USERS.dana)).toEqual([`New reply in ticket #1 (ticket-0001) from <@${USERS.eli}>:\n> A-778, thanks`]);

    await click(USERS.dana, `ticket:close:${id}`, [STAFF]);
    expect(await direct(USERS.eli)).toHaveLength(2);
    expect((await direct(USERS.eli)).at(-1)).toBe('Your ticket #1 (ticket-0001) in Study Hall was closed.');
  });

  it('mentions the owner in the channel when staff reply, and the claimer when the owner does', async () => {
    await set('notifications', { mentionOwnerOnReply: true, mentionClaimeeOnReply: true });
    const id = openedId((await click(USERS.eli, buttonOf(subject.subjectId))).data.content);
    const say = (authorId: string, content: string) =>
      api('POST', `/api/support/servers/${SERVER}/tickets/${id}/messages`, { message: { content }, messageType: 'User', authorId }, ADMIN_KEY);
    await say(USERS.dana, 'Which order is it?');
    expect((await messagesIn(id)).at(-1)?.content).toBe(`<@${USERS.eli}>`);
    // Nobody has claimed it yet: the owner's reply mentions no one.
    const before = (await messagesIn(id)).length;
    await say(USERS.eli, 'A-778');
    expect(await messagesIn(id)).toHaveLength(before);
    await click(USERS.dana, `ticket:claim:${id}`, [STAFF]);
    await say(USERS.eli, 'Any news?');
    expect((await messagesIn(id)).at(-1)?.content).toBe(`<@${USERS.dana}>`);
  });

  it('lets the author of a ticket recorded through the API on an existing channel into that channel', async () => {
    const homeworkHelp = '1300000000000000604';
    expect((await channel(homeworkHelp)).permission_overwrites.some((o) => o.id === USERS.eli)).toBe(false);
    const opened = await api('POST', `/api/support/servers/${SERVER}/tickets`, { ticketName: 'homework', subjectId: subject.subjectId, authorId: USERS.eli, ticketId: homeworkHelp }, ADMIN_KEY);
    expect(opened.statusCode, opened.body).toBe(201);
    const eli = (await channel(homeworkHelp)).permission_overwrites.find((o) => o.id === USERS.eli);
    expect(BigInt(eli?.allow ?? 0) & PermissionFlagsBits.ViewChannel).toBe(PermissionFlagsBits.ViewChannel);
    expect(BigInt(eli?.allow ?? 0) & PermissionFlagsBits.SendMessages).toBe(PermissionFlagsBits.SendMessages);
  });

  it('moves the channel between the waiting categories as the ticket changes hands', async () => {
    await set('categories', { waitingForStaff: [{ id: '1300000000000000607', selfCreated: false }], waitingForUser: [{ id: '1300000000000000603', selfCreated: false }], moveTickets: true });
    const id = openedId((await click(USERS.eli, buttonOf(subject.subjectId))).data.content);
    expect((await channel(id)).parent_id).toBe('1300000000000000607');
    await api('POST', `/api/support/servers/${SERVER}/tickets/${id}/messages`, { message: { content: 'On it' }, messageType: 'User', authorId: USERS.dana }, ADMIN_KEY);
    expect((await channel(id)).parent_id).toBe('1300000000000000603');
    await api('POST', `/api/support/servers/${SERVER}/tickets/${id}/messages`, { message: { content: 'Thanks' }, messageType: 'User', authorId: USERS.eli }, ADMIN_KEY);
    expect((await channel(id)).parent_id).toBe('1300000000000000607');
  });
});
