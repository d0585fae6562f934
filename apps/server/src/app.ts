import { existsSync } from 'node:fs';
import path from 'node:path';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { serviceBasePath, type RuntimeConfig, type ServiceName } from '@ticket/contracts';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import helmet from 'helmet';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import { serviceUrlVariable, type Config } from './config';
import { openDatabase, type Database } from './db/database';
import { createAuthFailures } from './http/auth-failures';
import { inlineScriptHashes } from './http/inline-scripts';
import { answerFrameworkError, registerErrorHandler } from './http/error-handler';
import { RateLimitedError } from './http/errors';
import { withExamples } from './http/openapi-examples';
import { responseSerializer } from './http/response-serializer';
import type { AuthResolver } from './http/route';
import { createLoader, createMemoryCache, createRedisCache, type Cache } from './platform/cache';
import { PlatformClient } from './platform/discord';
import { createFileStorage } from './platform/file-storage';
import { GuildAccess } from './platform/guild-access';
import { PlanChangeListeners } from './platform/plan-changes';
import { authenticationRoutes } from './services/authentication/routes';
import { createAccessChanges } from './services/authentication/access-changes';
import { AuthService } from './services/authentication/service';
import type { ServiceContext, Services } from './services/context';
import { filesRoutes } from './services/files/routes';
import { FilesService } from './services/files/service';
import { healthRoutes } from './services/health';
import { serverDataRoutes } from './services/server/routes';
import { ServerDataService } from './services/server/service';
import { settingsRoutes } from './services/settings/routes';
import { PanelService } from './services/settings/panel-service';
import { ConfigurationService } from './services/settings/configuration-service';
import { SettingsService } from './services/settings/service';
import { WebhookDeliveries } from './services/settings/webhook-deliveries';
import { WebhookOutbox } from './services/settings/webhook-outbox';
import { WebhookService } from './services/settings/webhook-service';
import { supportRoutes } from './services/support/routes';
import { SupportService } from './services/support/service';
import { TicketStats } from './services/support/stats';
import { InteractionService } from './services/support/interactions';
import { PlatformNotices } from './services/support/platform-notices';
import { TicketClosing } from './services/support/ticket-closing';
import { TicketHandling } from './services/support/ticket-handling';
import { TicketJobs } from './services/support/ticket-jobs';
import { TicketOpening } from './services/support/ticket-opening';
import { PlatformEvents } from './services/support/platform-events';
import { BotWords } from './i18n/bot-words';
import { createChangeNotices } from './services/deployment/change-notices';
import type { WhitelabelLookup } from './services/deployment';
import { deploymentRoutes } from './services/deployment/routes';
import { DeploymentService } from './services/deployment/service';
import { paymentRoutes } from './services/payment/routes';
import { localizationRoutes } from './services/localization/routes';
import { LocalizationService } from './services/localization/service';
import { localazyPush } from './services/localization/localazy';
import { shippedFiles } from './services/localization/shipped-files';
import { createTranslationChanges } from './services/localization/translation-changes';
import { BOT_WORDS_FILE } from './i18n/bot-words';
import { PaymentService } from './services/payment/service';
import { StripeEvents } from './services/payment/stripe-events';
import { SubscriptionActions } from './services/payment/subscription-actions';
import { PlanChanges } from './services/payment/change-plan';
import { createStripe } from './platform/stripe';
import { PaypalClient } from './platform/paypal';
import { PaypalPayments } from './services/payment/paypal-payments';

export interface BuildOptions {
  /** An already open database (tests pass a fresh one); otherwise config.databaseUrl is opened. */
  database?: Database;
  cache?: Cache;
  /** Where the log goes instead of stdout (tests read it). */
  logStream?: { write(line: string): void };
}

export interface BuiltApp {
  app: FastifyInstance;
  database: Database;
  services: Services;
  close(): Promise<void>;
}

type ServiceRoutes = (ctx: ServiceContext) => Promise<void>;

/** Calls of each base; a base with none yet still answers its health checks. */
const SERVICE_ROUTES: Partial<Record<ServiceName, ServiceRoutes>> = {
  authentication: authenticationRoutes,
  server: serverDataRoutes,
  settings: settingsRoutes,
  support: supportRoutes,
  files: filesRoutes,
  payment: paymentRoutes,
  deployment: deploymentRoutes,
  localization: localizationRoutes,
};

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<BuiltApp> {
  const database = options.database ?? (await openDatabase(config.databaseUrl, { poolSize: config.databasePoolSize }));
  const cache = options.cache ?? (config.redisUrl ? createRedisCache(config.redisUrl) : createMemoryCache());
  const platform = new PlatformClient({ config: config.platform, load: createLoader(cache), cacheTtlSeconds: config.platformCacheTtlSeconds });

  // Role changes and ended sessions reach what every process reuses for its access checks: on Redis pub/sub when configured.
  const accessChanges = createAccessChanges(config.redisUrl);
  const auth = new AuthService(
    database.db,
    platform,
    config,
    { onError: (err) => app.log.warn({ err }, 'API key calls could not be recorded') },
    accessChanges,
  );
  const resolver: AuthResolver = {
    resolve: (key) => auth.resolve(key),
    roleOn: (userId, serverId) => auth.roleOn(userId, serverId),
  };
  const guilds = new GuildAccess(platform);
  const settings = new SettingsService(database.db, guilds);
  const files = new FilesService(database.db, createFileStorage(config), settings, resolver, config);
  const webhookDeliveries = new WebhookDeliveries(database.db, config);
  // Ticket and message changes queue their webhook deliveries in their own transactions.
  const support = new SupportService(database.db, database.engine, platform, files, new WebhookOutbox(), database.reads);
  const botWords = new BotWords();
  const notices = new PlatformNotices(database.db, settings, platform, config, botWords);
  const ticketOpening = new TicketOpening(database.db, settings, support, platform, guilds, config, notices);
  const ticketClosing = new TicketClosing(database.db, support, platform, guilds, botWords, notices);
  const ticketJobs = new TicketJobs(database.db, config, notices, ticketClosing);
  const ticketHandling = new TicketHandling(database.db, support, platform, notices, ticketJobs);
  const serverData = new ServerDataService(database.db, platform, resolver);
  const stripe = createStripe(config.payment.stripe);
  const paypal = new PaypalClient(config.payment.paypal);
  // The features a plan gives hear of every plan change once it is committed (their listeners are below).
  const plans = new PlanChangeListeners();
  const paypalPayments = new PaypalPayments(database.db, config, paypal, plans);
  const payments = new PaymentService(database.db, config, stripe, (serverId, icon) => platform.iconUrl(serverId, icon), paypalPayments, plans);
  // White-label bot changes, for the bot runners: in process, and on Redis pub/sub when configured.
  const whitelabelChanges = createChangeNotices(config.redisUrl);
  const services: Services = {
    auth,
    serverData,
    settings,
    panels: new PanelService(database.db, platform),
    configuration: new ConfigurationService(database.db, platform),
    support,
    stats: new TicketStats(database.db, platform),
    files,
    interactions: new InteractionService(notices, ticketOpening, ticketHandling, ticketClosing, botWords),
    botWords,
    ticketOpening,
    ticketHandling,
    ticketClosing,
    ticketJobs,
    events: new PlatformEvents(database.db, ticketJobs, {
      botAdded: (serverId) => serverData.botAdded(serverId),
      botRemoved: (serverId) => serverData.botRemoved(serverId),
      channelsChanged: (serverId) => serverData.channelsChanged(serverId),
      rolesChanged: async (serverId) => {
        await serverData.rolesChanged(serverId, config.roleMaxAgeSeconds);
        await auth.staleRoles(serverId);
      },
      memberChanged: async (serverId, userId) => {
        await serverData.memberChanged(serverId, userId, config.roleMaxAgeSeconds);
        await auth.staleRoles(serverId, userId);
      },
    }),
    payments,
    stripeEvents: new StripeEvents(database.db, stripe, config.payment.stripe.webhookSecret, payments),
    subscriptionActions: new SubscriptionActions(database.db, stripe, resolver, payments, paypalPayments),
    planChanges: new PlanChanges(database.db, config, stripe, payments, paypalPayments, paypal),
    paypalPayments,
    whitelabelChanges,
    deployment: new DeploymentService({
      db: database.db,
      platform: config.platform,
      encryptionKey: config.encryptionKey,
      avatarUrl: (userId, hash) => platform.avatarUrl(userId, hash),
      notices: whitelabelChanges,
    }),
    webhooks: new WebhookService(database.db, config, webhookDeliveries),
    webhookDeliveries,
    // Corrected translations (and changed source texts) reach every process: on Redis pub/sub when configured.
    localization: new LocalizationService({
      db: database.db,
      changes: createTranslationChanges(config.redisUrl),
      shipped: shippedFiles,
      localazy: config.localazy ? localazyPush(config.localazy) : null,
    }),
  };
  // The bot speaks the bot file's texts as they are stored now, and as they change.
  await services.localization.watch(BOT_WORDS_FILE, (language, texts) => botWords.replace(language, texts));

  // A server that leaves the plan loses its features at once: its white-label bot stops, its webhooks' waiting deliveries are not sent.
  plans.listen((changes) => services.deployment.plansChanged(changes));
  plans.listen((changes) => webhookDeliveries.plansChanged(changes));

  // Where a server's white-label bot runs, the API speaks there as it (platform/discord.ts); a change notice drops what was known of it.
  const whitelabels: WhitelabelLookup = services.deployment;
  await platform.useServerBots({ all: () => whitelabels.runningBots(), of: (serverId) => whitelabels.runningBot(serverId) });
  whitelabelChanges.subscribe((notice) => void platform.refreshServerBot(notice.serverId));

  const app = Fastify({
    // Bot tokens (white-label) travel in bodies and answers: never logged, whatever logs them.
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.body.token', 'body.token', 'token', '*.token', 'elements[*].token'],
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    requestIdHeader: 'x-request-id',
    genReqId: () => crypto.randomUUID(),
    // A URL Fastify cannot route (a malformed escape, a path parameter over its length limit) gets the documented error body too.
    frameworkErrors: answerFrameworkError,
  });
  app.decorateRequest('caller', null);
  whitelabelChanges.onError((err) => app.log.warn({ err }, 'a white-label change notice could not be published'));
  accessChanges.onError((err) => app.log.warn({ err }, 'an access change notice could not be published or read'));
  plans.onError((err) => app.log.error({ err }, 'a plan change was not applied to a feature of the plan'));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializer(config.checkAnswers));
  const webDir = config.webDir && existsSync(path.join(config.webDir, 'index.html')) ? config.webDir : null;
  registerErrorHandler(app, { spaFallback: webDir !== null });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  // Helmet's headers come from one middleware built here (@fastify/helmet built it again for every
  // request, its content security policy parsed each time: 2.5 % of a list call).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'", ...(webDir ? inlineScriptHashes(path.join(webDir, 'index.html')) : [])],
        connectSrc: ["'self'", ...Object.values(runtimeConfig(config).services).filter((u) => /^https?:/.test(u))],
        formAction: ["'self'", config.platform.authorizeUrl],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, (error) => done(error instanceof Error ? error : undefined)));
  await app.register(cors, { origin: [config.publicUrl], credentials: false, maxAge: 600 });

  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2 }) : undefined;
  // The route as routed ('/api/support/…'), whatever encoding the request's path used.
  const routed = (request: FastifyRequest) => request.routeOptions.url ?? '';
  const apiCall = (request: FastifyRequest) => routed(request).startsWith('/api/');
  const interactions = `${serviceBasePath('support')}/discord`;

  // Failed authentication counts per address; past the limit, every call from that address that
  // presents a key is refused before the key is even looked at, until the window ends. The
  // platform's interactions carry no key (they are signed), so its shared address is never held.
  const failures = createAuthFailures(config.rateLimit.authFailures, config.rateLimit.windowMs, redis);
  const presentsKey = (request: FastifyRequest) =>
    request.headers.authorization !== undefined || routed(request).replace(/\/$/, '') === serviceBasePath('authentication');
  app.addHook('onRequest', async (request) => {
    if (!apiCall(request) || !presentsKey(request)) return;
    const wait = await failures.blockedFor(request.ip);
    if (wait > 0) throw new RateLimitedError(wait, `Too many failed attempts to authenticate from this address; retry in ${wait}s`);
  });
  // Counted before the answer leaves, so the next attempt already sees it.
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode === 401 && apiCall(request) && routed(request) !== interactions) await failures.add(request.ip);
    return payload;
  });

  // Calls refused by the rate limit (rather than answered 429 for another reason, e.g. by the platform).
  const limited = new WeakSet<FastifyRequest>();
  // Every call made with a server's API key is kept for its admins: what was called and how it was
  // answered, never a header or a body. Buffered, so the answer never waits on it.
  app.addHook('onResponse', async (request, reply) => {
    const caller = request.caller;
    if (caller?.kind !== 'apiKey') return;
    auth.recordApiKeyCall({
      serverId: caller.serverId,
      keyPrefix: caller.keyPrefix,
      // Sub-millisecond clock: calls one after another never get their arrivals out of order.
      at: new Date(performance.timeOrigin + performance.now() - reply.elapsedTime),
      method: request.method,
      route: routed(request),
      path: request.url.split('?', 1)[0]!,
      status: reply.statusCode,
      durationMs: reply.elapsedTime,
      rateLimited: limited.has(request),
    });
  });

  await app.register(rateLimit, {
    global: true,
    // A server's API key has its own limit (API_KEY_RATE_LIMIT_MAX), counted per key: a reset key starts afresh.
    max: (request) => (request.caller?.kind === 'apiKey' ? config.apiKeyRateLimitMax : config.rateLimit.max),
    timeWindow: config.rateLimit.windowMs,
    ...(redis ? { redis } : {}),
    // Runs after the route has checked the caller's key: per verified identity (several users
    // behind one address each have their own), per address for everyone else, however many
    // different keys they send.
    keyGenerator: (request) => {
      const caller = request.caller;
      if (caller?.kind === 'user') return `u:${caller.userId}`;
      if (caller?.kind === 'apiKey') return `k:${caller.serverId}:${caller.keyPrefix}`;
      return `ip:${request.ip}`;
    },
    // The limit is the API's: the dashboard's own files (dozens of chunks per screen, per language)
    // and health checks are never refused, nor are operators (the bot runtime's reports).
    allowList: (request) => !apiCall(request) || routed(request).endsWith('/health') || request.caller?.kind === 'admin',
    onExceeded: (request) => void limited.add(request),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      error: 'Too Many Requests',
      code: 'rate_limited',
      message: `Too many requests; retry in ${Math.ceil(context.ttl / 1000)}s`,
    }),
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Ticket dashboard API', version: config.version, description: 'Every service the dashboard calls' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
    transformObject: (documentObject) => ('openapiObject' in documentObject ? withExamples(documentObject.openapiObject) : documentObject.swaggerObject),
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/docs/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  const context = (scope: FastifyInstance): ServiceContext => ({ app: scope, config, database, cache, platform, services, resolver });
  for (const name of config.services) {
    await app.register(
      async (scope) => {
        await healthRoutes(name, context(scope));
        await SERVICE_ROUTES[name]?.(context(scope));
      },
      { prefix: serviceBasePath(name) },
    );
  }

  app.get('/config.json', { schema: { hide: true } }, async () => runtimeConfig(config));
  // The built SPA at /, with long caching for its hashed assets.
  if (webDir) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: ['index.html'],
      // The build writes .br and .gz copies beside each text asset (apps/web/vite.config.ts).
      preCompressed: true,
      // The header is set here alone: `send`'s own (max-age=0) would replace it.
      cacheControl: false,
      setHeaders: (res, file) => {
        res.setHeader('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  return {
    app,
    database,
    services,
    async close() {
      await app.close();
      // After the last answer: its call is recorded too.
      await auth.apiKeyCalls.close();
      platform.destroy();
      await cache.close();
      await whitelabelChanges.close();
      await accessChanges.close();
      await services.localization.close();
      await redis?.quit();
      if (!options.database) await database.destroy();
    },
  };
}

function runtimeConfig(config: Config): RuntimeConfig {
  const services = Object.fromEntries(
    (['authentication', 'server', 'settings', 'support', 'files', 'payment', 'deployment', 'localization'] as const).map((name) => [
      name,
      process.env[serviceUrlVariable(name)] ?? serviceBasePath(name),
    ]),
  ) as RuntimeConfig['services'];
  return { services, demo: config.demo, version: config.version };
}
