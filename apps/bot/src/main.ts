import { loadConfig, type BotConfig } from './config';
import { createLogger, startRuntime } from './runtime';

let config: BotConfig;
try {
  config = loadConfig();
} catch (error) {
  console.error(`bot runtime: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
const log = createLogger(config.logLevel);
try {
  const runtime = await startRuntime(config, { logger: log });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log.info({ signal }, 'shutting down');
      const force = setTimeout(() => process.exit(1), 10_000);
      force.unref();
      void runtime.close().then(() => process.exit(0));
    });
  }
} catch (error) {
  log.fatal({ err: error instanceof Error ? { name: error.name, message: error.message } : String(error) }, 'bot runtime could not start');
  process.exit(1);
}
