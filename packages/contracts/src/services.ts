/** The eight service bases of the product and where each is mounted. */
export const SERVICE_NAMES = [
  'authentication',
  'server',
  'settings',
  'support',
  'files',
  'payment',
  'deployment',
  'localization',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export const serviceBasePath = (name: ServiceName): string => `/api/${name}`;

/** Runtime configuration the server hands the web client (`GET /config.json`). */
export interface RuntimeConfig {
  services: Record<ServiceName, string>;
  demo: boolean;
  version: string;
}
