import { authCalls } from './auth';
import type { CallDef } from './common';
import { configurationCalls } from './configuration';
import { deploymentCalls } from './deployment';
import { filesCalls } from './files';
import { localizationCalls } from './localization';
import { paymentCalls } from './payment';
import { serverDataCalls } from './server-data';
import type { ServiceName } from './services';
import { settingsCalls } from './settings';
import { supportCalls } from './support';
import { webhookCalls } from './webhooks';

/**
 * The calls of each service base, keyed by operationId. Every base also answers `healthCalls`,
 * which are left out here so that operationIds stay unique across services.
 */
export const serviceCalls = {
  authentication: authCalls,
  server: serverDataCalls,
  // Outgoing webhooks and the configuration file are server settings: the same base.
  settings: { ...settingsCalls, ...webhookCalls, ...configurationCalls },
  support: supportCalls,
  files: filesCalls,
  payment: paymentCalls,
  deployment: deploymentCalls,
  localization: localizationCalls,
} as const satisfies Record<ServiceName, Record<string, CallDef>>;
