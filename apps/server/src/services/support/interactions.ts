import {
  type APIInteractionGuildMember,
  type APIMessageComponentInteractionData,
  type APIModalSubmission,
  InteractionResponseType,
  InteractionType,
} from 'discord-api-types/v10';
import type { DiscordInteraction, InteractionResponse } from '@ticket/contracts';
import type { BotWords } from '../../i18n/bot-words';
import { parsePanelCustomId } from '../settings';
import { actorOf, reply, type PlatformNotices } from './platform-notices';
import type { TicketClosing } from './ticket-closing';
import type { TicketHandling } from './ticket-handling';
import type { TicketOpening } from './ticket-opening';
import { parseFormCustomId, parseTicketCustomId } from './ticket-text';

/** The answers of a submitted modal, by the id of each text input. */
function modalFields(data: APIModalSubmission): Map<string, string> {
  const fields = new Map<string, string>();
  for (const component of data.components ?? []) {
    const inputs = 'components' in component ? component.components : 'component' in component ? [component.component] : [];
    for (const input of inputs) {
      if (input && 'custom_id' in input && 'value' in input && typeof input.value === 'string') fields.set(input.custom_id, input.value);
    }
  }
  return fields;
}

/**
 * The platform's interactions endpoint: signature verified upstream (routes.ts), each click or
 * modal routed to what opens, handles or closes tickets by the custom id the bot gave the component.
 */
export class InteractionService {
  constructor(
    private readonly notices: PlatformNotices,
    private readonly opening: TicketOpening,
    private readonly handling: TicketHandling,
    private readonly closing: TicketClosing,
    private readonly words: BotWords,
  ) {}

  async handle(interaction: DiscordInteraction): Promise<InteractionResponse> {
    if (interaction.type === InteractionType.Ping) return { type: InteractionResponseType.Pong };
    const guildId = typeof interaction.guild_id === 'string' ? interaction.guild_id : null;
    const member = interaction.member as APIInteractionGuildMember | undefined;
    // Outside a server there is no server language: the person's own platform language is the best guess.
    if (!guildId || !member?.user) return reply(this.words.text(typeof interaction.locale === 'string' ? interaction.locale : null, 'reply.outsideServer'));
    const actor = actorOf(guildId, member);

    if (interaction.type === InteractionType.MessageComponent) {
      const data = interaction.data as APIMessageComponentInteractionData | undefined;
      const customId = data?.custom_id ?? '';
      const panel = parsePanelCustomId(customId);
      if (panel) {
        // A button names its subject; a menu's choice is the subject.
        const subjectId = panel.subjectId ?? (data && 'values' in data ? data.values[0] : undefined);
        if (!subjectId) return reply((await this.notices.sayFor(guildId, null))('reply.chooseSubject'));
        return this.opening.openFromPanel(actor, panel.panelId, subjectId);
      }
      const ticket = parseTicketCustomId(customId);
      if (ticket?.action === 'claim') return this.handling.claim(actor, ticket.ticketId);
      if (ticket?.action === 'close') return this.closing.requestClose(actor, ticket.ticketId);
      if (ticket?.action === 'close-now') return this.closing.closeNow(actor, ticket.ticketId);
      if (ticket?.action === 'cancel-close') return this.closing.cancelClose(actor, ticket.ticketId);
    }

    if (interaction.type === InteractionType.ModalSubmit) {
      const data = interaction.data as APIModalSubmission | undefined;
      const customId = data?.custom_id ?? '';
      const form = parseFormCustomId(customId);
      if (form && data) return this.opening.openFromForm(actor, form.subjectId, modalFields(data));
      const ticket = parseTicketCustomId(customId);
      if (ticket?.action === 'close-reason' && data) {
        const reason = modalFields(data).get('reason')?.trim() || null;
        return this.closing.closeOrSchedule(actor, ticket.ticketId, reason);
      }
    }
    return reply((await this.notices.sayFor(guildId, null))('reply.unavailable'));
  }
}
