import type { REST } from '@discordjs/rest';
import { supportCalls } from '@ticket/contracts';
import { Routes, type APIInteraction } from 'discord-api-types/v10';
import type { Logger } from 'pino';
import { safeError } from './safe-error';
import type { TicketApi } from './ticket-api';

export interface RelayDeps {
  api: TicketApi;
  rest: Pick<REST, 'post'>;
  log: Logger;
}

/**
 * An interaction that came over the gateway (the application has no interactions endpoint URL):
 * the API handles it as it would a signed POST /discord, and its answer goes to the platform's
 * interaction callback. Not queued: an interaction expires three seconds after it was made.
 */
export async function relayInteraction(deps: RelayDeps, interaction: APIInteraction): Promise<void> {
  const started = Date.now();
  let answer: unknown;
  try {
    answer = (await deps.api.call('support', supportCalls.handleGatewayInteraction, { body: interaction })).body;
  } catch (error) {
    deps.log.error({ interactionId: interaction.id, type: interaction.type, err: safeError(error) }, 'interaction not handled: the Ticket API failed');
    return;
  }
  try {
    // The token in the path authorises the callback; no bot token is sent.
    await deps.rest.post(Routes.interactionCallback(interaction.id, interaction.token), { body: answer, auth: false });
    deps.log.debug({ interactionId: interaction.id, ms: Date.now() - started }, 'interaction answered');
  } catch (error) {
    deps.log.warn({ interactionId: interaction.id, err: safeError(error) }, 'interaction answer refused by the platform');
  }
}
