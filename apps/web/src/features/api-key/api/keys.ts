import type { ApiKeyCallStatus } from '@ticket/contracts';

/** The query keys of the API key screen, under the authentication service's `['authentication']`. */
export const apiKeyKeys = {
  server: (serverId: string) => ['authentication', 'apiKey', serverId] as const,
  /** Under the key's own: whatever changes the key (a reset, a delete) reloads its calls too. */
  callsPage: (serverId: string, status: ApiKeyCallStatus | 'all', page: number) =>
    [...apiKeyKeys.server(serverId), 'calls', status, page] as const,
};
