import type { BotEnvVariable } from '../apps/bot/src/index';
import type { SandboxEnvVariable } from '../apps/sandbox/src/index';
import type { ServerEnvVariable } from '../apps/server/src/config';

/** Read by `npm start` itself (scripts/start.ts): BOT_RUNTIME=off leaves the bot runtime to run elsewhere. */
export const START_ENV_VARIABLES = ['BOT_RUNTIME'] as const;

/**
 * The environment as `npm start` sees it: its own variables and those of the loaders it hands it
 * to (the API's, the bot runtime's, the sandbox's), so reading any other does not compile.
 */
export type StartEnv = { [K in (typeof START_ENV_VARIABLES)[number] | ServerEnvVariable | BotEnvVariable | SandboxEnvVariable]?: string };
