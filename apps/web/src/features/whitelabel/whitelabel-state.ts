import type { WhitelabelEntry } from '@ticket/contracts';
import { isResponseError } from '@/lib/api';

/** SPEC §4's UI states of the white-label page, by their keys under `whitelabel.state`. */
export type WhitelabelUiState = 'ReadyToSetup' | 'NotRunning' | 'Deploying' | 'Starting' | 'Running' | 'Failed';

/** After this long on the way up, the page says that starting takes longer than expected (SPEC §4, §8). */
export const SLOW_DEPLOYMENT_MS = 60_000;

/**
 * Whether a deployment the admin just asked for (a save that starts the bot, a start) is still
 * waiting for the service's first word on it: while the request is out, and as long as the bot is
 * not there yet or still says NotRunning. Once the service says Starting, Running or Failed, the
 * page follows the service.
 */
export const isAwaitingDeployment = (bot: WhitelabelEntry | null, requestPending: boolean): boolean =>
  requestPending || bot === null || bot.status === 'NotRunning';

/** What the page says of the server's bot: `deploying` is `isAwaitingDeployment` of a deployment asked for. */
export function uiStateOf(bot: WhitelabelEntry | null, deploying: boolean): WhitelabelUiState {
  if (deploying) return 'Deploying';
  if (!bot) return 'ReadyToSetup';
  return bot.status;
}

/** The states in which the bot is on its way up, which the page follows live. */
export const isOnTheWayUp = (state: WhitelabelUiState): boolean => state === 'Deploying' || state === 'Starting';

const TOKEN_FIELD = /(^|\.)token$/;

/**
 * What a refused save says about the token, to show on its field: 'invalid' is the service's 400
 * for a token the platform refuses or that is not a token at all (SPEC §5 'Invalid token');
 * 'taken' is its 409 for a bot that is already another server's. Anything else is no fault of the token.
 */
export function tokenProblemOf(error: unknown): 'invalid' | 'taken' | null {
  if (isResponseError(error, 400)) {
    const field = error.body?.field;
    return field === undefined || TOKEN_FIELD.test(field) ? 'invalid' : null;
  }
  if (isResponseError(error, 409) && TOKEN_FIELD.test(error.body?.field ?? '')) return 'taken';
  return null;
}

/**
 * The invite of the white-label bot to this server: the main bot's invite (its scopes and
 * permissions, which the white-label bot needs as much), for the bot's own application.
 */
export function botInviteUrl(mainInviteUrl: string, clientId: string, serverId: string): string {
  const url = new URL(mainInviteUrl);
  url.searchParams.set('client_id', clientId);
  url.searchParams.set('guild_id', serverId);
  url.searchParams.set('disable_guild_select', 'true');
  return url.toString();
}
