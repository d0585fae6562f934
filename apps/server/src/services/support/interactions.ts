import { InteractionResponseType, InteractionType, MessageFlags } from 'discord-api-types/v10';
import type { DiscordInteraction, InteractionResponse } from '@ticket/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { parsePanelCustomId } from '../settings/panel-message';

const ephemeral = (content: string): InteractionResponse => ({
  type: InteractionResponseType.ChannelMessageWithSource,
  data: { content, flags: MessageFlags.Ephemeral },
});

/** The platform's interactions endpoint: verified upstream, answered here. */
export class InteractionService {
  constructor(private readonly db: Kysely<DB>) {}

  async handle(interaction: DiscordInteraction): Promise<InteractionResponse> {
    if (interaction.type === InteractionType.Ping) return { type: InteractionResponseType.Pong };
    if (interaction.type === InteractionType.MessageComponent) {
      const data = interaction.data as { custom_id?: string } | undefined;
      const target = data?.custom_id ? parsePanelCustomId(data.custom_id) : null;
      if (target) {
        const panel = await this.db.selectFrom('panels').select('id').where('id', '=', target.panelId).executeTakeFirst();
        if (!panel) return ephemeral('This panel no longer exists. Ask the server staff to send it again.');
      }
    }
    return ephemeral('This action is not available.');
  }
}
