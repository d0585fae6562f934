import { healthCalls, type ServiceName } from '@ticket/contracts';
import { routesFor } from '../http/route';
import type { ServiceContext } from './context';

const started = Date.now();

/** A dependency's state; when it is down, only which one (its error could name hosts, users or SQL). */
async function timed(check: () => Promise<void>, down: string) {
  const t0 = performance.now();
  try {
    await check();
    return { status: 'ok' as const, latencyMs: Math.round((performance.now() - t0) * 10) / 10 };
  } catch {
    return { status: 'down' as const, latencyMs: null, message: down };
  }
}

/** Every base answers liveness and a detailed check, so a load balancer can watch each one. */
export async function healthRoutes(service: ServiceName, { app, config, database, platform, resolver }: ServiceContext): Promise<void> {
  const call = routesFor(app, service, healthCalls, resolver);
  call('getHealth', 'open', () => ({ status: 'ok' as const }));
  // It reads the database and calls the platform each time: limited like the other calls that fan out.
  call('getHealthDetailed', 'open', async () => {
    const [db, chat] = await Promise.all([
      timed(() => database.ping(), 'The database is unreachable'),
      timed(() => platform.ping(), 'The chat platform is unreachable'),
    ]);
    return {
      status: db.status === 'ok' && chat.status === 'ok' ? ('ok' as const) : ('degraded' as const),
      service,
      version: config.version,
      uptimeSeconds: Math.round((Date.now() - started) / 1000),
      database: db,
      platform: chat,
    };
  }, { rateLimit: { max: config.rateLimit.fanOut } });
}
