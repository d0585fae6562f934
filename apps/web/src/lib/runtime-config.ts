import type { RuntimeConfig } from '@ticket/contracts';

let current: RuntimeConfig | undefined;

/** `GET /config.json`, once, before the first render: it says where every service lives. */
export async function loadRuntimeConfig(): Promise<RuntimeConfig> {
  const response = await fetch('/config.json', { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`GET /config.json answered ${response.status}`);
  const config = (await response.json()) as RuntimeConfig;
  if (typeof config?.services !== 'object' || config.services === null) {
    throw new Error('config.json has no services');
  }
  current = config;
  return config;
}

/** The config when it is loaded already, else undefined (for what may go without it). */
export function peekRuntimeConfig(): RuntimeConfig | undefined {
  return current;
}

export function setRuntimeConfig(config: RuntimeConfig): void {
  current = config;
}

export function getRuntimeConfig(): RuntimeConfig {
  if (!current) throw new Error('getRuntimeConfig() was called before the config was loaded');
  return current;
}
