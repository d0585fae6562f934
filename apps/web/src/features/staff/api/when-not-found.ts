import { isResponseError } from '@/lib/api';

/**
 * Several calls (settings, tickets, statistics) are being built over the coming weeks and answer
 * 404 until then; a server with no data yet may answer 404 too. Either way the screen has nothing
 * to show yet, which is not an error: the caller gets `fallback` instead.
 */
export async function whenNotFound<T, F>(call: Promise<T>, fallback: F): Promise<T | F> {
  try {
    return await call;
  } catch (error) {
    if (isResponseError(error, 404)) return fallback;
    throw error;
  }
}
