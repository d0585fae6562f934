export { BOT_ENV_VARIABLES, loadConfig, type BotConfig, type BotEnvVariable } from './config';
export { startRuntime, createLogger, type BotRuntime, type RuntimeHealth, type RuntimeOptions } from './runtime';
