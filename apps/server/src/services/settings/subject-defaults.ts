import type { Subject } from '@ticket/contracts';

/** What a subject stores besides its identity columns: every setting group. */
export type SubjectSettings = Omit<Subject, 'subjectId' | 'serverId' | 'name' | 'deleted' | 'active' | 'index' | 'inheritsFrom' | 'questions'>;

const everyoneSees = ['ViewChannel', 'SendMessages', 'ReadMessageHistory', 'AttachFiles', 'EmbedLinks', 'AddReactions'] as const;

/**
 * A new subject works out of the box: sensible names, buttons, messages and permissions. Texts the
 * bot writes on the platform (welcome and close messages, button labels) are stored empty and
 * written at send time in the subject's language, so a later change of language applies to them.
 */
export function defaultSubjectSettings(name: string): SubjectSettings {
  const message = (content: string, title: string, description: string) => ({
    value: { message: { content, embeds: [{ title, description, color: 0x5865f2 }] }, serialized: '' },
    inherits: false,
    enabled: true,
  });
  const inLanguageAtSendTime = { value: { message: { content: '', embeds: [] }, serialized: '' }, inherits: false, enabled: true };
  return {
    disableCreation: false,
    requireForm: false,
    language: null,
    ticketNameFormat: { value: 'ticket-{number}', inherits: false },
    staffRoles: { value: [], inherits: false },
    categories: { waitingForStaff: [], waitingForUser: [], moveTickets: false },
    permissions: {
      userPermissions: { value: { allow: [...everyoneSees], deny: [] }, inherits: false },
      staffPermissions: { value: { allow: [...everyoneSees, 'ManageMessages'], deny: [] }, inherits: false },
      claimPermissions: { value: { allow: [...everyoneSees, 'ManageMessages'], deny: [] }, inherits: false },
    },
    messages: {
      initialMessage: inLanguageAtSendTime,
      closeMessage: inLanguageAtSendTime,
      messageCommandResponse: message('', name, 'A member of staff will answer here.'),
    },
    automation: {
      notifyUser: true,
      requireCloseReason: false,
      notifyClaimer: true,
      closeOnLeave: false,
      dmAuthorOnClose: true,
      closeDelay: { time: 5, unit: 'seconds' },
      autoCloseTime: {
        value: { warnTime: { time: 2, unit: 'days' }, closeTime: { time: 3, unit: 'days' } },
        inherits: false,
        enabled: false,
      },
    },
    notifications: { mentionOwnerOnReply: false, mentionClaimeeOnReply: false },
    buttons: {
      closeButton: { text: '', style: 'Danger', url: null, emote: { id: null, name: '🔒' } },
      claimButton: { text: '', style: 'Success', url: null, emote: { id: null, name: '🙋' } },
      cancelCloseButton: { text: '', style: 'Secondary', url: null, emote: null },
      closeNowButton: { text: '', style: 'Danger', url: null, emote: null },
      goToTicket: { text: '', style: 'Link', url: null, emote: { id: null, name: '🎫' } },
      linkButton: { enabled: false, text: '', url: null, emote: null },
    },
    limitations: {
      neededCloseRole: 'TicketOwner',
      maxActivePerUser: 1,
      maxActiveTotal: null,
      cooldown: { time: 0, unit: 'minutes' },
      whitelist: { inverted: false, ids: [] },
    },
    logging: {
      channelId: null,
      rainbowColors: false,
      created: true,
      claimed: true,
      closed: true,
      deleted: true,
      memberAdded: true,
      memberRemoved: true,
      subjectChanged: false,
    },
    files: { storageExceeded: 'Inform', retentionTime: null },
  };
}

/** Paths of the groups that carry `{ value, inherits }`, found from the shape itself. */
export const INHERITABLE_GROUPS: string[] = (() => {
  const found: string[] = [];
  const walk = (node: unknown, path: string[]) => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return;
    const record = node as Record<string, unknown>;
    if ('value' in record && 'inherits' in record) {
      found.push(path.join('.'));
      return;
    }
    for (const [key, child] of Object.entries(record)) walk(child, [...path, key]);
  };
  walk(defaultSubjectSettings('x'), []);
  return found;
})();
