/**
 * The world the authorisation matrix (authorization-matrix.test.ts) runs in: two servers the bot
 * is in, each with a record of every kind, and one credential per kind of caller.
 *
 * Server A is Pixel Forge (the server every route's path names), server B is Study Hall (the
 * "other" server whose admin and API key must not reach A, and whose records must not be
 * reachable through A's path).
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { AuthenticateResponse, Panel, SessionInfo, Subject, Template, Ticket, TicketMessage, UploadedFile } from '@ticket/contracts';
import { now } from '../db/database';
import { ADMIN_KEY, bearer, consentCode, REDIRECT_URI, type Sandbox, type TestContext } from './harness';
import { GUILDS, SUPPORT_STAFF_ROLE, USERS } from './demo-world';

/** The kinds of caller every route is tried with, in the matrix's column order. */
export const CALLERS = ['anon', 'member', 'staff', 'admin', 'otherAdmin', 'key', 'otherKey', 'operator'] as const;
export type Who = (typeof CALLERS)[number];

/** Who stands behind each signed-in caller kind. */
export const USER_OF = {
  member: USERS.eli, // a plain member of A (and of B)
  staff: USERS.dana, // holds A's support staff role, which A's subject names
  admin: USERS.bruno, // ADMINISTRATOR of A (not its owner)
  otherAdmin: USERS.chen, // admin of B, not even a member of A
} as const satisfies Partial<Record<Who, string>>;
export type UserKind = keyof typeof USER_OF;
export const isUserKind = (who: Who): who is UserKind => who in USER_OF;

export const A = GUILDS.pixelForge;
export const B = GUILDS.studyHall;

/** Platform ids of the demo world (apps/sandbox/fixtures/demo.json). */
export const PLATFORM = {
  A: { panelChannel: '1300000000000000105' },
  B: { textChannel: '1300000000000000608', category: '1300000000000000607', role: '1300000000000000033' },
} as const;

/** Author of the sample tickets: a member of A and B who is none of the callers. */
export const AUTHOR = '1200000000000000101';
/** Members the samples add to (and remove from) tickets: none of the callers either. */
export const EXTRA_MEMBERS = { added: '1200000000000000102', removed: '1200000000000000103' } as const;

/** One server's records, as the samples and the cross-server checks use them. */
export interface Records {
  server: string;
  subject: Subject;
  template: Template;
  /** A draft panel (nothing posted). */
  panel: Panel;
  /** A panel posted in a channel of its server, so it can be resent. */
  sentPanel: Panel;
  ticket: Ticket;
  message: TicketMessage;
  file: UploadedFile;
}

export interface ApiRequest {
  method: InjectOptions['method'];
  url: string;
  token: string | null;
  body?: unknown;
  /** A body sent as it is (multipart, signed JSON), with its own headers. */
  raw?: { payload: string | Buffer; headers: Record<string, string> };
}

const SIGN_IN = '/api/authentication/user';

/** The platform client's own limit turned the request away (not the dashboard's rate limit). */
export const platformLimited = (response: LightMyRequestResponse) => response.statusCode === 429 && /chat platform/.test(response.body);
export const pause = (response: LightMyRequestResponse) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(1, Number(response.headers['retry-after']) || 1) * 1000));

let unique = 0;
/** A name or slug no earlier call of this process used. */
export const fresh = (prefix: string) => `${prefix}-${++unique}`;

export const textQuestion = (slug: string, index = 0) => ({
  type: 'Text' as const,
  question: 'What is your order number?',
  slug,
  index,
  answerFormat: 'None' as const,
  values: { large: false, minLength: null, maxLength: null, placeholder: null },
});

export const draftPanel = (subjectId: string, channelId: string | null = null) => ({
  type: 'BUTTON' as const,
  name: 'Matrix panel',
  draft: true,
  channelId,
  message: { content: 'Need help? Pick a topic.', embeds: [] },
  subjects: [{ subjectId, text: 'Billing', style: 'Primary' as const, emoji: null }],
});

/** A multipart body with one file in the part named "file", as the upload route takes it. */
export async function multipart(fileName: string, contentType: string, content: string): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  form.append('file', new Blob([content], { type: contentType }), fileName);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

export class World {
  /** The credential of each caller kind; null for anonymous. Read at call time: the API key is renewed by some rows. */
  readonly tokens: Record<Who, string | null>;
  a!: Records;
  b!: Records;
  /** A signed CDN link of an attachment in A's channel, for the clone route. */
  attachmentUrl!: string;
  /** A ticket of A opened by the member caller, for the personal routes. */
  personalTicket!: Ticket;
  /** A session of alice (A's owner), for the check that nobody else can end it. */
  aliceSession!: { token: string; id: string };

  private constructor(
    readonly ctx: TestContext,
    readonly sandbox: Sandbox,
  ) {
    this.tokens = { anon: null, member: null, staff: null, admin: null, otherAdmin: null, key: null, otherKey: null, operator: ADMIN_KEY };
  }

  /**
   * Sends a request; when the platform client's own limit (50 requests a second) turned it away,
   * waits as told and sends it again: the matrix is about who may call, not about how fast. A
   * sign-in is not sent again (its code may be spent): its callers make a new code and retry.
   */
  async inject(request: ApiRequest): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...(request.token ? bearer(request.token) : {}), ...(request.raw?.headers ?? {}) };
    const payload = request.raw ? request.raw.payload : request.body === undefined ? undefined : (request.body as object);
    const signIn = request.method === 'POST' && request.url === SIGN_IN;
    for (let attempt = 1; ; attempt++) {
      const response = await this.ctx.built.app.inject({ method: request.method, url: request.url, headers, ...(payload === undefined ? {} : { payload }) });
      if (signIn || attempt === 5 || !platformLimited(response)) return response;
      await pause(response);
    }
  }

  /** A setup call that must answer `status`; anything else stops the test with the answer. */
  async expect<T>(status: number, method: InjectOptions['method'], url: string, body?: unknown, token: string | null = ADMIN_KEY): Promise<T> {
    const response = await this.inject({ method, url, token, body });
    if (response.statusCode !== status) throw new Error(`setup: ${method} ${url} answered ${response.statusCode}, expected ${status}: ${response.body}`);
    return (response.body ? response.json() : undefined) as T;
  }

  static async build(ctx: TestContext, sandbox: Sandbox): Promise<World> {
    const w = new World(ctx, sandbox);
    // Signing in records the servers each user is in; chen's is the one B's key is made with.
    const alice = await w.signIn(USERS.alice);
    w.aliceSession = { token: alice.token, id: await w.currentSessionId(alice.token) };
    for (const kind of ['member', 'admin', 'otherAdmin'] as const) w.tokens[kind] = (await w.signIn(USER_OF[kind])).token;
    // Enterprise: API keys, forms and file storage.
    await ctx.built.database.db.updateTable('servers').set({ plan: 'enterprise', updated_at: now() }).where('id', 'in', [A, B]).execute();

    const subjectA = await w.newSubject(A, 'Billing');
    // Staff come from a subject's staff roles: A's subject names the role dana holds, before she signs in.
    await w.expect(200, 'PATCH', `/api/settings/servers/${A}/subjects/${subjectA.subjectId}`, {
      serverId: A,
      subjectId: subjectA.subjectId,
      path: 'staffRoles.value',
      operation: 'add',
      value: SUPPORT_STAFF_ROLE.pixelForge,
    });
    const dana = await w.signIn(USER_OF.staff);
    const danaRole = dana.user.servers.find((s) => s.serverId === A)?.role;
    if (danaRole !== 'Staff') throw new Error(`setup: dana should be Staff of A, is ${danaRole}`);
    w.tokens.staff = dana.token;

    w.tokens.key = (await w.expect<{ key: string }>(201, 'POST', `/api/authentication/api/${A}`, undefined, alice.token)).key;
    w.tokens.otherKey = (await w.expect<{ key: string }>(201, 'POST', `/api/authentication/api/${B}`, undefined, w.tokens.otherAdmin)).key;

    w.a = await w.records(A, subjectA, PLATFORM.A.panelChannel);
    w.b = await w.records(B, await w.newSubject(B, 'Homework'), PLATFORM.B.textChannel);
    w.personalTicket = await w.newTicket(A, subjectA.subjectId, USER_OF.member);

    const attachment = await fetch(`${sandbox.url}/_sandbox/attachments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channelId: PLATFORM.A.panelChannel, filename: 'receipt.txt', contentType: 'text/plain', data: Buffer.from('paid twice').toString('base64') }),
    });
    if (attachment.status !== 201) throw new Error(`setup: the sandbox refused the attachment (${attachment.status})`);
    w.attachmentUrl = ((await attachment.json()) as { attachment: { url: string } }).attachment.url;
    return w;
  }

  /** One record of every kind in a server, made by the operator (the bot worker). */
  private async records(server: string, subject: Subject, channelId: string): Promise<Records> {
    const settings = `/api/settings/servers/${server}`;
    const template = await this.expect<Template>(201, 'PUT', `${settings}/templates`, { subjectId: subject.subjectId, template: textQuestion('order') });
    const panel = await this.expect<Panel>(201, 'POST', `${settings}/panels`, draftPanel(subject.subjectId));
    const sentPanel = await this.expect<Panel>(201, 'POST', `${settings}/panels`, { ...draftPanel(subject.subjectId, channelId), draft: false });
    const ticket = await this.newTicket(server, subject.subjectId);
    const message = await this.newMessage(server, ticket.ticketId);
    const file = await this.upload(ADMIN_KEY, server, ticket.ticketId, subject.subjectId);
    if (file.statusCode !== 201) throw new Error(`setup: upload to ${server} answered ${file.statusCode}: ${file.body}`);
    return { server, subject, template, panel, sentPanel, ticket, message, file: file.json<UploadedFile>() };
  }

  newSubject(server: string, name = fresh('Subject')): Promise<Subject> {
    return this.expect<Subject>(201, 'POST', `/api/settings/servers/${server}/subjects`, { name });
  }

  newTemplate(server: string, subjectId: string): Promise<Template> {
    return this.expect<Template>(201, 'PUT', `/api/settings/servers/${server}/templates`, { subjectId, template: textQuestion(fresh('q')) });
  }

  newPanel(server: string, subjectId: string): Promise<Panel> {
    return this.expect<Panel>(201, 'POST', `/api/settings/servers/${server}/panels`, draftPanel(subjectId));
  }

  newTicket(server: string, subjectId: string, authorId: string = AUTHOR): Promise<Ticket> {
    return this.expect<Ticket>(201, 'POST', `/api/support/servers/${server}/tickets`, { ticketName: fresh('ticket'), subjectId, authorId });
  }

  newMessage(server: string, ticketId: string): Promise<TicketMessage> {
    return this.expect<TicketMessage>(201, 'POST', `/api/support/servers/${server}/tickets/${ticketId}/messages`, {
      message: { content: 'I was charged twice' },
      messageType: 'User',
      authorId: AUTHOR,
    });
  }

  async addMember(server: string, ticketId: string, userId: string): Promise<void> {
    await this.expect(204, 'POST', `/api/support/servers/${server}/tickets/${ticketId}/member`, { userId });
  }

  async upload(token: string | null, server: string, ticketId: string, subjectId: string): Promise<LightMyRequestResponse> {
    const query = new URLSearchParams({ FileName: 'notes.txt', ServerId: server, TicketId: ticketId, SubjectId: subjectId });
    return this.inject({ method: 'POST', url: `/api/files/files/upload?${query}`, token, raw: await multipart('notes.txt', 'text/plain', 'order A-42') });
  }

  /** Signs the user in as the dashboard does (the harness's signIn, through `inject`). */
  async signIn(userId: string): Promise<AuthenticateResponse> {
    for (let attempt = 1; ; attempt++) {
      const body = { code: await consentCode(this.sandbox, userId), redirectUri: REDIRECT_URI };
      const response = await this.inject({ method: 'POST', url: SIGN_IN, token: null, body });
      if (response.statusCode === 200) return response.json<AuthenticateResponse>();
      if (attempt === 5 || !platformLimited(response)) throw new Error(`setup: sign-in of ${userId} answered ${response.statusCode}: ${response.body}`);
      await pause(response);
    }
  }

  /** A code the platform hands back once the user approved sign-in. */
  consent(userId: string): Promise<string> {
    return consentCode(this.sandbox, userId);
  }

  private async currentSessionId(token: string): Promise<string> {
    const sessions = await this.expect<SessionInfo[]>(200, 'GET', '/api/authentication/user/sessions', undefined, token);
    return sessions.find((s) => s.current)!.id;
  }

  /** A new session of a signed-in caller kind, so ending it leaves the caller's own session alive. */
  async freshSession(who: UserKind): Promise<{ token: string; id: string }> {
    const { token } = await this.signIn(USER_OF[who]);
    return { token, id: await this.currentSessionId(token) };
  }

  /** A's API key, made again by the operator: a row that resets or deletes it leaves the next caller a working key. */
  async renewKey(): Promise<void> {
    this.tokens.key = (await this.expect<{ key: string }>(201, 'POST', `/api/authentication/api/${A}`)).key;
  }
}
