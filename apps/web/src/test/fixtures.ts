import type { BearerUser, RuntimeConfig } from '@ticket/contracts';
import { SERVICE_NAMES } from '@ticket/contracts';

export const testConfig: RuntimeConfig = {
  services: Object.fromEntries(SERVICE_NAMES.map((name) => [name, `/api/${name}`])) as RuntimeConfig['services'],
  demo: true,
  version: 'test',
};

export const testUser = (overrides: Partial<BearerUser> = {}): BearerUser => ({
  authType: 'Bearer',
  userId: '100000000000000001',
  username: 'ada',
  globalName: 'Ada Lovelace',
  expires: new Date(Date.now() + 3_600_000).toISOString(),
  avatarUrl: null,
  servers: [
    { integrationType: 'Discord', serverId: '200000000000000001', name: 'Analytical Engine', role: 'Owner', subjects: [] },
    { integrationType: 'Discord', serverId: '200000000000000002', name: 'Difference Club', role: 'Staff', subjects: [] },
    { integrationType: 'Discord', serverId: '200000000000000003', name: 'Poetry Science', role: 'Member', subjects: [] },
  ],
  uServers: [
    { integrationType: 'Discord', serverId: '300000000000000001', name: 'Countess Lounge', role: 'Admin' },
    { integrationType: 'Discord', serverId: '300000000000000002', name: 'Babbage Fans', role: 'Member' },
  ],
  ...overrides,
});
