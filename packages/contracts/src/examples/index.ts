import type { CallDef } from '../common';
import { authExamples } from './auth';
import { configurationExamples } from './configuration';
import { deploymentExamples } from './deployment';
import { filesExamples } from './files';
import { healthExamples } from './health';
import { localizationExamples } from './localization';
import { paymentExamples } from './payment';
import { serverDataExamples } from './server-data';
import { settingsExamples } from './settings';
import { supportExamples } from './support';
import type { CallExample } from './types';
import { webhookExamples } from './webhooks';

export type { CallExample, ExamplesOf } from './types';

/**
 * Worked examples of the calls, keyed like `serviceCalls` (plus `health`, answered on every base)
 * and then by operationId. The OpenAPI document shows them, so an integrator sees a real request
 * and answer for each operation.
 */
export const callExamples = {
  authentication: authExamples,
  server: serverDataExamples,
  settings: { ...settingsExamples, ...webhookExamples, ...configurationExamples },
  support: supportExamples,
  files: filesExamples,
  payment: paymentExamples,
  deployment: deploymentExamples,
  localization: localizationExamples,
  health: healthExamples,
} satisfies Record<string, Record<string, CallExample | undefined>>;

/** The example of a call by its operationId (operationIds are unique across services). */
export const exampleForOperation = (operationId: string): CallExample | undefined => {
  for (const examples of Object.values(callExamples)) {
    const found = (examples as Record<string, CallExample | undefined>)[operationId];
    if (found) return found;
  }
  return undefined;
};

/** Whether a call's success answer can carry an example: not for 204 and not for files. */
export const answersJson = (call: CallDef): boolean => call.response !== null && !call.binary;
