/** The query keys of the webhooks screen, under the settings service's `['settings', serverId]`. */
export const webhookKeys = {
  endpoints: (serverId: string) => ['settings', serverId, 'webhooks'] as const,
  endpoint: (serverId: string, endpointId: string) => ['settings', serverId, 'webhooks', endpointId] as const,
  deliveries: (serverId: string, endpointId: string) => ['settings', serverId, 'webhooks', endpointId, 'deliveries'] as const,
  deliveriesPage: (serverId: string, endpointId: string, page: number) =>
    ['settings', serverId, 'webhooks', endpointId, 'deliveries', page] as const,
};
