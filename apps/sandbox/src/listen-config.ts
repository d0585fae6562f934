/**
 * Every variable the sandbox reads when run on its own (`npm run start -w apps/sandbox`). The loader
 * sees the environment as SandboxEnv, so reading one not named here does not compile; the README's
 * configuration table lists each.
 */
export const SANDBOX_ENV_VARIABLES = ['SANDBOX_PORT', 'SANDBOX_HOST'] as const;

export type SandboxEnvVariable = (typeof SANDBOX_ENV_VARIABLES)[number];
type SandboxEnv = { readonly [K in SandboxEnvVariable]?: string };

export interface ListenConfig {
  port: number;
  host: string;
}

/** Where the sandbox listens: SANDBOX_PORT (default 3001) on SANDBOX_HOST (default loopback only). */
export function loadListenConfig(input: Record<string, string | undefined> = process.env): ListenConfig {
  const env: SandboxEnv = input;
  const port = Number(env.SANDBOX_PORT ?? 3001);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`SANDBOX_PORT must be a port number, got "${env.SANDBOX_PORT}"`);
  return { port, host: env.SANDBOX_HOST ?? '127.0.0.1' };
}
