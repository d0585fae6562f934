import type { RuntimeConfig } from '@ticket/contracts';
import { type ApiClient, createClient } from './client';

export {
  type ApiClient,
  type CallInput,
  type RequestOptions,
  type ResponseOf,
  type ServiceCalls,
  createClient,
  parseRetryAfter,
} from './client';
export { FetchError, RequiredError, ResponseError, isResponseError } from './errors';

let instance: ApiClient | undefined;

/** Creates the app's client once `config.json` is known; start-up calls this before anything renders. */
export function initApi(config: RuntimeConfig, getToken: () => string | null | undefined): ApiClient {
  instance = createClient(config, getToken);
  return instance;
}

export function getApi(): ApiClient {
  if (!instance) throw new Error('getApi() was called before initApi(config)');
  return instance;
}
