import { createHash } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import Fastify from 'fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import { identifyCaller } from './api-auth.ts';
import { registerChannelManagementRoutes } from './api-channel-management.ts';
import { registerDirectMessageRoutes } from './api-direct-messages.ts';
import { registerChannelRoutes } from './api-channels.ts';
import { registerGatewayRoutes } from './api-gateway.ts';
import { registerReactionRoutes } from './api-reactions.ts';
import { registerAuditLogRoutes } from './audit-log.ts';
import { registerInteractionRoutes } from './api-interactions.ts';
import { registerChannelPages } from './channel-page.ts';
import { registerCdnRoutes } from './cdn.ts';
import { registerGuildRoutes } from './api-guilds.ts';
import { registerUserRoutes } from './api-users.ts';
import { CONTROL_PREFIX, registerControlRoutes } from './control.ts';
import { DiscordApiError, invalidJson, notFound } from './errors.ts';
import { assertFixtures, loadDemoFixtures } from './fixtures.ts';
import type { Fixtures } from './fixtures.ts';
import { GATEWAY_PATH, Gateway } from './gateway.ts';
import type { GatewayOptions } from './gateway.ts';
import { registerOAuthRoutes } from './oauth.ts';
import { registerPages } from './pages.ts';
import { registerPaypal } from './paypal.ts';
import { registerStripe } from './stripe.ts';
import { registerLocalazy } from './localazy.ts';
import type { StripeOptions, StripeSandbox } from './stripe.ts';
import type { PaypalOptions, PaypalSandbox } from './paypal.ts';
import { applyConfigureOptions, checkConfigureOptions } from './sandbox-config.ts';
import type { ConfigureOptions } from './sandbox-config.ts';
import { discordTimestamp } from './snowflake.ts';
import { SandboxState } from './state.ts';
import type { AuthKind, Fault, FaultStatus } from './state.ts';

export { loadDemoFixtures, validateFixtures } from './fixtures.ts';
export { SANDBOX_ENV_VARIABLES, loadListenConfig } from './listen-config.ts';
export type { ListenConfig, SandboxEnvVariable } from './listen-config.ts';
export type { Fixtures, FixtureApplication, FixtureChannel, FixtureGuild, FixtureMember, FixtureUser } from './fixtures.ts';
export { SandboxState } from './state.ts';
export type {
  EphemeralMessage,
  Fault,
  FaultStatus,
  InteractionProblem,
  InteractionRecord,
  OpenModal,
  RequestLogEntry,
  StoredAttachment,
  StoredMessage,
} from './state.ts';
export type { ConfigureOptions, SandboxConfig } from './sandbox-config.ts';
export type { InteractionView, ModalView } from './interaction-views.ts';
export type { MemberMessageResult } from './member-messages.ts';
export { CONTROL_PREFIX } from './control.ts';
export { PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET, PAYPAL_PREFIX, PAYPAL_SANDBOX_WEBHOOK_ID } from './paypal-store.ts';
export type { PaypalConfigChange, PaypalOptions, PaypalSandbox } from './paypal.ts';
export { STRIPE_API_PREFIX, STRIPE_API_VERSION, STRIPE_CONTROL_PREFIX, STRIPE_PUBLISHABLE_KEY, STRIPE_SECRET_KEY, TEST_CARDS, signPayload } from './stripe.ts';
export type { StripeOptions, StripeSandbox } from './stripe.ts';
export { LOCALAZY_PREFIX, LOCALAZY_PROJECT_ID } from './localazy.ts';
export type { LocalazyImport } from './localazy.ts';
export { GATEWAY_PATH, GATEWAY_VERSION, Gateway } from './gateway.ts';
export type { GatewayOptions, GatewaySession, SessionView } from './gateway.ts';
export { shardOf } from './gateway-payloads.ts';
export { DISCORD_EPOCH, snowflakeTime } from './snowflake.ts';

export interface CreateSandboxOptions {
  fixtures?: Fixtures;
  /** Clock for codes, tokens, timestamps and snowflakes; tests pass a controllable one. */
  now?: () => number;
  logger?: boolean;
  /** The application's Interactions Endpoint URL: member clicks and modal submits are POSTed there, signed. */
  interactionsUrl?: string;
  /** Heartbeat and resume timings of the gateway; tests shorten them. */
  gateway?: GatewayOptions;
  /** PayPal's REST API under /paypal: credentials, a demo webhook, delivery retries, the public URL. */
  paypal?: PaypalOptions;
  /** Stripe's API under /v1: a fixed webhook signing secret, a forward-to URL, delivery retries, the public URL. */
  stripe?: StripeOptions;
}

/** A sandbox made by createSandbox: the app to inject into, its state, and its application identity. */
export interface Sandbox {
  app: FastifyInstance;
  state: SandboxState;
  /** The WebSocket gateway served at /gateway once the app listens. */
  gateway: Gateway;
  /** Lowercase hex of the application's raw Ed25519 public key, as the developer portal shows it. */
  publicKey: string;
  /** Changes the wiring at run time; an omitted key stays, `null` switches it off. Throws on bad input. */
  configure(options: ConfigureOptions): void;
  /** The Stripe stand-in: its keys, objects and webhook deliveries. */
  stripe: StripeSandbox;
  /** The PayPal stand-in: its credentials, account, webhook deliveries and run-time wiring. */
  paypal: PaypalSandbox;
}

export interface StartSandboxOptions extends CreateSandboxOptions {
  /** 0 picks a free port; the returned url carries the real one. */
  port: number;
  host?: string;
}

export interface RunningSandbox extends Sandbox {
  url: string;
  /** `ws://host:port/gateway`, what GET /api/v10/gateway/bot answers. */
  gatewayUrl: string;
  close(): Promise<void>;
}

export const API_PREFIX = '/api/v10';

// Generous on purpose: a well-behaved client must never be made to wait by the sandbox itself.
const RATE_LIMIT = 50;
const RATE_LIMIT_WINDOW_S = 1;

interface RequestInfo {
  auth: AuthKind | 'basic';
  userId: string | null;
  fault: FaultStatus | null;
}

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? request.url;
}

function isPlatformPath(path: string): boolean {
  return path.startsWith('/api/') || path === '/api' || path.startsWith('/oauth2/');
}

/** Stable per route and method, like Discord's opaque bucket hashes. */
function bucketFor(request: FastifyRequest): string {
  return createHash('sha1')
    .update(`${request.method} ${request.routeOptions.url ?? pathOf(request)}`)
    .digest('hex')
    .slice(0, 32);
}

function sendFault(reply: FastifyReply, fault: Fault, bucket: string, nowMs: number): FastifyReply {
  if (fault.status === 429) {
    reply.header('retry-after', String(Math.ceil(fault.retryAfter)));
    reply.header('x-ratelimit-scope', fault.global ? 'global' : 'user');
    if (fault.global) {
      // Clients test for the header's presence, so it is only ever sent when true.
      reply.header('x-ratelimit-global', 'true');
    } else {
      reply.header('x-ratelimit-limit', String(RATE_LIMIT));
      reply.header('x-ratelimit-remaining', '0');
      reply.header('x-ratelimit-reset', ((nowMs + fault.retryAfter * 1000) / 1000).toFixed(3));
      reply.header('x-ratelimit-reset-after', fault.retryAfter.toFixed(3));
      reply.header('x-ratelimit-bucket', bucket);
    }
    // The documented body has no `code`; Discord adds one only for special limits.
    return reply.code(429).send({ message: 'You are being rate limited.', retry_after: fault.retryAfter, global: fault.global });
  }
  return reply.code(fault.status).send({ message: `${fault.status}: ${STATUS_CODES[fault.status] ?? 'Error'}`, code: 0 });
}

export async function createSandbox(options: CreateSandboxOptions = {}): Promise<Sandbox> {
  const fixtures = options.fixtures ?? loadDemoFixtures();
  assertFixtures(fixtures);
  const state = new SandboxState(fixtures, options.now ?? Date.now);
  const configure = (change: ConfigureOptions): void => {
    const checked = checkConfigureOptions(change);
    if (!checked.ok) throw new Error(`Invalid sandbox configuration: ${checked.error}`);
    applyConfigureOptions(state, checked.value);
  };
  const initial: ConfigureOptions = {};
  if (options.interactionsUrl !== undefined) initial.interactionsUrl = options.interactionsUrl;
  configure(initial);
  // Interaction tokens travel in paths and are a few hundred characters long, far past Fastify's default 100.
  const app = Fastify({ logger: options.logger ?? false, routerOptions: { maxParamLength: 1024 } });
  await app.register(formbody);
  const gateway = new Gateway(state, options.gateway);
  state.events = gateway;
  gateway.attach(app.server);
  // Open WebSockets would keep the HTTP server from closing.
  app.addHook('preClose', async () => gateway.shutdown());

  const info = new WeakMap<FastifyRequest, RequestInfo>();

  app.addHook('onRequest', async (request, reply) => {
    const path = pathOf(request);
    if (!isPlatformPath(path)) return;
    const header = request.headers.authorization;
    const identified = header?.startsWith('Basic ') ? { kind: 'basic' as const, caller: null } : identifyCaller(state, header);
    const entry: RequestInfo = {
      auth: identified.kind,
      userId: identified.caller?.kind === 'bearer' ? identified.caller.user.id : identified.caller?.kind === 'bot' ? identified.caller.app.botUserId : null,
      fault: null,
    };
    info.set(request, entry);
    if (!path.startsWith('/api/')) return;
    const now = state.now();
    const bucket = bucketFor(request);
    const fault = state.takeFault(request.method, path);
    if (fault) {
      entry.fault = fault.status;
      return sendFault(reply, fault, bucket, now);
    }
    reply.header('x-ratelimit-limit', String(RATE_LIMIT));
    reply.header('x-ratelimit-remaining', String(RATE_LIMIT - 1));
    reply.header('x-ratelimit-reset', ((now + RATE_LIMIT_WINDOW_S * 1000) / 1000).toFixed(3));
    reply.header('x-ratelimit-reset-after', RATE_LIMIT_WINDOW_S.toFixed(3));
    reply.header('x-ratelimit-bucket', bucket);
  });

  app.addHook('onResponse', async (request, reply) => {
    const entry = info.get(request);
    if (!entry) return;
    const [path = '', query = ''] = request.url.split('?');
    const now = state.now();
    state.logRequest({
      method: request.method,
      path,
      query,
      route: request.routeOptions.url ?? null,
      auth: entry.auth === 'basic' ? 'none' : entry.auth,
      userId: entry.userId,
      status: reply.statusCode,
      fault: entry.fault,
      time: discordTimestamp(now),
      at: now,
    });
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const path = pathOf(request);
    if (path.startsWith(CONTROL_PREFIX)) {
      return reply.code(error.statusCode && error.statusCode < 500 ? error.statusCode : 500).send({ error: error.message });
    }
    if (error instanceof DiscordApiError) return reply.code(error.status).send(error.toJSON());
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError) {
      return reply.code(400).send(invalidJson().toJSON());
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.code(413).send({ message: 'Request entity too large', code: 40005 });
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error(error);
    return reply.code(status).send({ message: `${status}: ${STATUS_CODES[status] ?? 'Error'}`, code: 0 });
  });

  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request);
    if (path.startsWith(CONTROL_PREFIX)) return reply.code(404).send({ error: `no control route ${request.method} ${path}` });
    return reply.code(404).send(notFound().toJSON());
  });

  registerCdnRoutes(app, state);
  registerPages(app, state);
  registerChannelPages(app, state);
  registerOAuthRoutes(app, state);
  registerControlRoutes(app, state, gateway);
  await app.register(
    async (api) => {
      registerUserRoutes(api, state);
      registerDirectMessageRoutes(api, state);
      registerGuildRoutes(api, state);
      registerChannelRoutes(api, state);
      registerChannelManagementRoutes(api, state);
      registerInteractionRoutes(api, state);
      registerGatewayRoutes(api, state, gateway);
      registerReactionRoutes(api, state);
      registerAuditLogRoutes(api, state);
    },
    { prefix: API_PREFIX },
  );
  const paypal = await registerPaypal(app, state, options.paypal);
  const stripe = await registerStripe(app, state, options.stripe);
  registerLocalazy(app, state);
  await app.ready();
  return { app, state, gateway, publicKey: state.publicKey, configure, stripe, paypal };
}

export async function startSandbox(options: StartSandboxOptions): Promise<RunningSandbox> {
  const sandbox = await createSandbox(options);
  const { app } = sandbox;
  const host = options.host ?? '127.0.0.1';
  await app.listen({ port: options.port, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  // A wildcard bind is reachable on loopback; that is the address clients should be given.
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return { ...sandbox, url: `http://${urlHost}:${port}`, gatewayUrl: `ws://${urlHost}:${port}${GATEWAY_PATH}`, close: () => app.close() };
}
