/**
 * The query keys of the Premium screens, under `['payment']`: what a server holds and what the
 * user pays for. After a purchase or a change, invalidating `all` refreshes every one of them.
 */
export const premiumKeys = {
  all: ['payment'] as const,
  prices: () => ['payment', 'prices'] as const,
  server: (serverId: string) => ['payment', 'server', serverId] as const,
  mine: () => ['payment', 'mine'] as const,
  checkout: (kind: 'purchase' | 'update', serverId: string, provider: string, token: string) =>
    ['payment', 'result', kind, serverId, provider, token] as const,
};
