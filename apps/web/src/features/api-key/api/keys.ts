/** The query keys of the API key screen, under the authentication service's `['authentication']`. */
export const apiKeyKeys = {
  server: (serverId: string) => ['authentication', 'apiKey', serverId] as const,
};
