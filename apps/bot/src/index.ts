export { loadConfig, type BotConfig } from './config';
export { startRuntime, createLogger, type BotRuntime, type RuntimeHealth, type RuntimeOptions } from './runtime';
