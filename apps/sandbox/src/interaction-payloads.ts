import { randomBytes } from 'node:crypto';
import { ApplicationIntegrationType, ComponentType, InteractionContextType, InteractionType } from 'discord-api-types/v10';
import type {
  APIActionRowComponent,
  APIComponentInActionRow,
  APIInteractionGuildMember,
  APIMessage,
  APIMessageComponentGuildInteraction,
  APIModalSubmissionComponent,
  APIModalSubmitGuildInteraction,
  APIPartialInteractionGuild,
  Locale,
} from 'discord-api-types/v10';
import type { Application } from './applications.ts';
import type { FixtureChannel } from './fixtures.ts';
import { toChannel, toGuildMember } from './serializers.ts';
import type { GuildState, OpenModal, SandboxState } from './state.ts';

/** How long a token works for responses and follow-ups, as on Discord. */
export const INTERACTION_TOKEN_TTL_MS = 15 * 60 * 1000;

/** Upload limit by boost tier (bytes), as Discord reports it in `attachment_size_limit`. */
const ATTACHMENT_LIMITS = [10, 10, 50, 100].map((mib) => mib * 1024 * 1024);

/** Shaped like Discord's: base64 of "interaction:<id>:<random>", so format checks in clients pass. */
export function interactionToken(id: string): string {
  return Buffer.from(`interaction:${id}:${randomBytes(48).toString('base64url')}`).toString('base64url');
}

/** The member as an interaction carries them: with their permissions in the channel, overwrites included. */
function interactionMember(state: SandboxState, guild: GuildState, channel: FixtureChannel, userId: string): APIInteractionGuildMember {
  const member = guild.members.get(userId);
  if (!member) throw new Error(`user ${userId} is not a member of ${guild.id}`);
  return { ...toGuildMember(state, member), permissions: state.memberChannelPermissions(guild, channel, userId).toString() };
}

function interactionChannel(state: SandboxState, guild: GuildState, channel: FixtureChannel, userId: string) {
  return { ...toChannel(guild, channel), permissions: state.memberChannelPermissions(guild, channel, userId).toString() };
}

function partialGuild(guild: GuildState): APIPartialInteractionGuild {
  return { id: guild.id, features: [...guild.features], locale: (guild.preferred_locale ?? 'en-US') as Locale };
}

interface BaseInput {
  /** The application the interaction is for. */
  app: Application;
  id: string;
  token: string;
  guild: GuildState;
  channel: FixtureChannel;
  userId: string;
  locale: string;
}

function base(state: SandboxState, input: BaseInput) {
  const { app, guild, channel, userId } = input;
  return {
    id: input.id,
    application_id: app.clientId,
    token: input.token,
    version: 1 as const,
    guild: partialGuild(guild),
    guild_id: guild.id,
    channel: interactionChannel(state, guild, channel, userId),
    channel_id: channel.id,
    member: interactionMember(state, guild, channel, userId),
    app_permissions: state.botChannelPermissions(guild, channel, app).toString(),
    locale: input.locale as Locale,
    guild_locale: (guild.preferred_locale ?? 'en-US') as Locale,
    entitlements: [],
    authorizing_integration_owners: { [ApplicationIntegrationType.GuildInstall]: guild.id },
    context: InteractionContextType.Guild,
    attachment_size_limit: ATTACHMENT_LIMITS[guild.premium_tier ?? 0] ?? ATTACHMENT_LIMITS[0]!,
  };
}

export function componentInteraction(
  state: SandboxState,
  input: BaseInput & { message: APIMessage; customId: string; componentType: ComponentType.Button | ComponentType.StringSelect; values: string[] },
): APIMessageComponentGuildInteraction {
  const data =
    input.componentType === ComponentType.Button
      ? { custom_id: input.customId, component_type: ComponentType.Button as const }
      : { custom_id: input.customId, component_type: ComponentType.StringSelect as const, values: [...input.values] };
  return { ...base(state, input), type: InteractionType.MessageComponent, message: structuredClone(input.message), data };
}

/** Echoes the modal's layout with the member's values, as Discord sends a MODAL_SUBMIT. */
export function modalSubmitInteraction(
  state: SandboxState,
  input: BaseInput & { modal: OpenModal; values: Map<string, string>; message: APIMessage | null },
): APIModalSubmitGuildInteraction {
  const textInput = (id: number | undefined, customId: string) => ({
    type: ComponentType.TextInput as const,
    id: id ?? 0,
    custom_id: customId,
    value: input.values.get(customId) ?? '',
  });
  const components: APIModalSubmissionComponent[] = [];
  for (const c of input.modal.components) {
    if (c.type === ComponentType.ActionRow) {
      const row = c as APIActionRowComponent<APIComponentInActionRow>;
      components.push({
        type: ComponentType.ActionRow,
        id: c.id ?? 0,
        components: row.components.flatMap((i) => (i.type === ComponentType.TextInput ? [textInput(i.id, i.custom_id)] : [])),
      });
    } else if (c.type === ComponentType.Label && c.component.type === ComponentType.TextInput) {
      components.push({ type: ComponentType.Label, id: c.id ?? 0, component: textInput(c.component.id, c.component.custom_id) });
    } else if (c.type === ComponentType.TextDisplay) {
      components.push({ type: ComponentType.TextDisplay, id: c.id ?? 0 });
    }
  }
  const payload: APIModalSubmitGuildInteraction = {
    ...base(state, input),
    type: InteractionType.ModalSubmit,
    data: { custom_id: input.modal.customId, components },
  };
  // A modal opened from a message component carries that message, so UPDATE_MESSAGE can edit it.
  if (input.message) payload.message = structuredClone(input.message);
  return payload;
}
