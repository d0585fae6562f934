import { buildApp, type BuiltApp } from './app';
import { loadConfig, type Config } from './config';
import { mergeSearchIndexes } from './db/search-index';
import { seedDemoData } from './demo/seed';
import { tuneGarbageCollector } from './runtime-tuning';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Runs `work` now and every `ms` after, when `enabled` (the service it belongs to runs in this
 * process); the timer does not keep the process alive. Answers the timer, to clear on close.
 */
function repeatFromNow(enabled: boolean, ms: number, work: () => void): NodeJS.Timeout | undefined {
  if (!enabled) return undefined;
  const timer = setInterval(work, ms);
  timer.unref();
  work();
  return timer;
}

/** Starts the API (and the built web client) and stops it cleanly on SIGINT/SIGTERM. */
export async function startServer(config: Config = loadConfig(), prepare?: (built: BuiltApp) => Promise<void>): Promise<RunningServer> {
  tuneGarbageCollector();
  const built = await buildApp(config);
  if (config.demo) await seedDemoData(built.database.db);
  await prepare?.(built);
  await built.app.listen({ port: config.port, host: config.host });
  const address = built.app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // Expired sessions are refused already, and gateway events older than any redelivery are done:
  // this only keeps the tables small.
  const purge = setInterval(() => {
    void built.services.auth.purgeExpiredSessions().catch(() => undefined);
    void built.services.events.prune().catch(() => undefined);
    void built.services.webhookDeliveries.prune().catch(() => undefined);
    void built.services.auth.apiKeyCalls.sweep().catch(() => undefined);
  }, 3600_000);
  purge.unref();
  // Retention is computed from stored timestamps: a sweep missed while the process was down is made
  // up by the next one. Each sweep below is done by one process at a time (a lease in the database),
  // and each job (a delayed close, a delivery) is claimed for a while and removed once done, so work
  // a process was killed in the middle of is taken up by another.
  const sweepFiles = () => void built.services.files.sweepRetention(new Date()).catch((error: unknown) => built.app.log.warn({ err: error }, 'file sweep failed'));
  const sweep = repeatFromNow(config.services.includes('files'), 600_000, sweepFiles);
  // Delayed closes and auto-close live in the database: what fell due while the process was down runs now.
  const runTickets = () =>
    void Promise.all([built.services.ticketJobs.runDueJobs(), built.services.ticketJobs.sweepAutoClose()]).catch((error: unknown) =>
      built.app.log.warn({ err: error }, 'ticket automation failed'),
    );
  const automation = repeatFromNow(config.services.includes('support'), config.ticketAutomationIntervalMs, runTickets);
  // SQLite's search indexes are kept in one segment each, so that a search reads one (db/search-index.ts).
  const mergeSearch = () =>
    void mergeSearchIndexes(built.database.db, built.database.engine).catch((error: unknown) => built.app.log.warn({ err: error }, 'merging the search indexes failed'));
  const merging = repeatFromNow(config.services.includes('support'), 3600_000, mergeSearch);
  // PayPal subscriptions cancelled for the end of their period end when it is over (the period is in the database).
  const endLapsed = () => void built.services.paypalPayments.endLapsed().catch((error: unknown) => built.app.log.warn({ err: error }, 'ending lapsed subscriptions failed'));
  const lapsing = repeatFromNow(config.services.includes('payment'), 600_000, endLapsed);
  // A plan change is told to the white-label bots after its commit: one a process died before telling is made up here.
  const stopOffPlan = () => void built.services.deployment.stopOffPlan().catch((error: unknown) => built.app.log.warn({ err: error }, 'stopping white-label bots off their plan failed'));
  const offPlan = repeatFromNow(config.services.includes('deployment'), 600_000, stopOffPlan);
  // Webhook deliveries wait in the database (the outbox): what fell due while the process was down goes now.
  let sending = false;
  const sendWebhooks = () => {
    if (sending) return;
    sending = true;
    void built.services.webhookDeliveries
      .runDue()
      .catch((error: unknown) => built.app.log.warn({ err: error }, 'webhook deliveries failed'))
      .finally(() => (sending = false));
  };
  const webhooks = repeatFromNow(config.services.includes('settings'), config.webhooks.intervalMs, sendWebhooks);
  let closing: Promise<void> | null = null;
  const close = () => {
    clearInterval(purge);
    clearInterval(lapsing);
    clearInterval(offPlan);
    clearInterval(sweep);
    clearInterval(automation);
    clearInterval(merging);
    clearInterval(webhooks);
    return (closing ??= built.close());
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      built.app.log.info({ signal }, 'shutting down');
      const force = setTimeout(() => process.exit(1), 10_000);
      force.unref();
      void close().then(() => process.exit(0));
    });
  }
  return { url: `http://localhost:${port}`, close };
}
