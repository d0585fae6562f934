import type { Channel, PlanType, Role, ServerDetails, Subject } from '@ticket/contracts';
import { json, mockFetch, type Recorded } from '@/test/fetch';

export const SERVER = '200000000000000001';

export const details = (subscription: PlanType = 'free'): ServerDetails => ({
  serverId: SERVER,
  name: 'Analytical Engine',
  iconUrl: null,
  active: true,
  subscription,
  bannerUrl: null,
  ownerId: '100000000000000001',
  memberCount: 42,
});

export const errorBody = (status: number, message: string, field?: string) =>
  json(
    { statusCode: status, error: 'Error', code: 'error', message, ...(field ? { field } : {}) },
    { status },
  );

/** A subject as the settings service creates it (apps/server/src/services/settings/subject-defaults.ts). */
export function makeSubject(subjectId: string, name: string, overrides: Partial<Subject> = {}): Subject {
  const message = (content: string, title: string) => ({
    value: { message: { content, embeds: [{ title, description: 'Hello', color: 0x5865f2 }] }, serialized: '' },
    inherits: false,
    enabled: true,
  });
  const everyone = ['ViewChannel', 'SendMessages', 'ReadMessageHistory'] as Subject['permissions']['userPermissions']['value']['allow'];
  return {
    subjectId,
    serverId: SERVER,
    name,
    deleted: false,
    active: true,
    index: 0,
    inheritsFrom: null,
    questions: [],
    disableCreation: false,
    requireForm: false,
    language: null,
    ticketNameFormat: { value: 'ticket-{number}', inherits: false },
    staffRoles: { value: [], inherits: false },
    categories: { waitingForStaff: [], waitingForUser: [], moveTickets: false },
    permissions: {
      userPermissions: { value: { allow: [...everyone], deny: ['AttachFiles'] }, inherits: false },
      staffPermissions: { value: { allow: [...everyone, 'ManageMessages'], deny: [] }, inherits: false },
      claimPermissions: { value: { allow: [...everyone, 'ManageMessages'], deny: [] }, inherits: false },
    },
    messages: {
      initialMessage: message('{user}', `Welcome to your ${name} ticket`),
      closeMessage: message('', 'Ticket closed'),
      messageCommandResponse: message('', name),
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
      closeButton: { text: 'Close', style: 'Danger', url: null, emote: { id: null, name: '🔒' } },
      claimButton: { text: 'Claim', style: 'Success', url: null, emote: { id: null, name: '🙋' } },
      cancelCloseButton: { text: 'Cancel close', style: 'Secondary', url: null, emote: null },
      closeNowButton: { text: 'Close now', style: 'Danger', url: null, emote: null },
      goToTicket: { text: 'Go to ticket', style: 'Link', url: null, emote: { id: null, name: '🎫' } },
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
    ...overrides,
  };
}

export const channels: Channel[] = [
  { id: '1300000000000000100', type: 4, name: 'Support', position: 0 },
  { id: '1300000000000000101', type: 0, name: 'general', position: 0 },
  { id: '1300000000000000102', type: 0, name: 'ticket-logs', position: 1, parent_id: '1300000000000000100' },
];

export const roles: Role[] = [
  { id: SERVER, name: '@everyone', permissions: '0', position: 0, color: 0, hoist: false, managed: false, mentionable: false },
  { id: '1400000000000000001', name: 'Support Staff', permissions: '0', position: 2, color: 0, hoist: false, managed: false, mentionable: true },
  { id: '1400000000000000002', name: 'Moderators', permissions: '0', position: 3, color: 0, hoist: false, managed: false, mentionable: true },
];

type Handler = (request: Recorded) => Response | Promise<Response>;

/**
 * The services as the settings screens meet them: `routes` answers by "METHOD path" (or by path
 * for any method); the server, channels, roles, emojis and settings have defaults; the rest 404.
 */
export function backend(plan: PlanType | null, routes: Record<string, Handler> = {}) {
  return mockFetch((request) => {
    const path = request.url.split('?')[0] ?? '';
    const handler = routes[`${request.method} ${path}`] ?? routes[path];
    if (handler) return handler(request);
    if (path === `/api/server/servers/${SERVER}`) return plan ? json(details(plan)) : errorBody(404, 'no');
    if (path === `/api/server/servers/${SERVER}/channels`) return json(channels);
    if (path === `/api/server/servers/${SERVER}/roles`) return json(roles);
    if (path === `/api/server/servers/${SERVER}/emojis`) return json([{ id: '1500000000000000001', name: 'party_parrot', animated: true }]);
    if (path === `/api/settings/servers/${SERVER}/settings`) {
      return json({ serverId: SERVER, language: 'en', subjects: [], subscription: plan ?? 'free' });
    }
    return errorBody(404, 'Not found');
  });
}

/** The bulk settings updates sent so far. */
export const bulkUpdates = (calls: Recorded[]) =>
  calls.filter((c) => c.method === 'PATCH' && c.url === `/api/settings/servers/${SERVER}/subjects/bulk`);

/** Echoes each update back as its result, as the server does for a plain set. */
export const echoBulk: Handler = (request) => {
  const { updates } = request.body as { updates: { path: string; value: unknown }[] };
  return json(updates.map((u) => ({ path: u.path, value: u.value, inherits: false })));
};
