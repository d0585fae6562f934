import { z } from 'zod';
import {
  BooleanQuery,
  defineCall,
  EmojiRef,
  IsoDate,
  IsoDateTime,
  opaqueId,
  PageQuery,
  pagedResult,
  ServerIdParams,
  Snowflake,
  SubjectId,
  TicketId,
} from './common';
import { TicketFile } from './files';
import { PublicUser } from './server-data';
import { DISCORD_LIMITS } from './rules';
import { Embed, PermissionOverwrite, SubjectShort, TemplateId } from './settings';

export const TicketState = z.enum(['PendingUser', 'PendingStaff', 'AutoClose', 'Closed']);
export type TicketState = z.infer<typeof TicketState>;

export const MessageType = z.enum(['System', 'User', 'Staff']);
export type MessageType = z.infer<typeof MessageType>;

export const TicketMessageId = opaqueId('Ticket message');
export type TicketMessageId = z.infer<typeof TicketMessageId>;

// ---------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------

export const Attachment = z.object({
  id: Snowflake,
  filename: z.string(),
  url: z.string().describe('Platform CDN URL; may expire, the stored copy is in files'),
  size: z.number().int().min(0).describe('Bytes'),
  contentType: z.string().nullable(),
});
export type Attachment = z.infer<typeof Attachment>;

/** Members with a larger allowance on the platform write up to twice its usual message length. */
const RECORDED_CONTENT_MAX = 2 * DISCORD_LIMITS.messageContent;

export const TicketMessageContent = z.object({
  content: z.string().max(RECORDED_CONTENT_MAX).describe('Markdown text'),
  embeds: z.array(Embed).max(DISCORD_LIMITS.embedsPerMessage),
  mentions: z.array(Snowflake).describe('Ids of the users mentioned'),
  attachments: z.array(Attachment).max(10),
  replyTo: Snowflake.nullable().optional().describe('The platform message this one answers (its externalId in the ticket)'),
});
export type TicketMessageContent = z.infer<typeof TicketMessageContent>;

export const MessageRevision = z.object({
  content: z.string(),
  embeds: z.array(Embed),
  editedAt: IsoDateTime.describe('When this version was replaced'),
});
export type MessageRevision = z.infer<typeof MessageRevision>;

export const ReactionEmoji = EmojiRef;
export type ReactionEmoji = EmojiRef;

export const Reaction = z.object({
  count: z.number().int().min(1),
  emoji: ReactionEmoji,
});
export type Reaction = z.infer<typeof Reaction>;

export const TicketMessage = z.object({
  messageId: TicketMessageId,
  ticketId: TicketId,
  authorId: Snowflake,
  createdAt: IsoDateTime,
  messageType: MessageType,
  message: TicketMessageContent,
  externalId: Snowflake.nullable().describe('The platform message this one mirrors'),
  deleted: z.boolean(),
  modified: z.boolean().describe('Edited at least once; see history'),
  deletedAt: IsoDateTime.nullable(),
  history: z.array(MessageRevision).describe('Earlier versions, oldest first'),
  files: z.array(TicketFile).describe('Stored copies of the attachments'),
  reactions: z.array(Reaction),
});
export type TicketMessage = z.infer<typeof TicketMessage>;

// ---------------------------------------------------------------------------------------------
// Tickets
// ---------------------------------------------------------------------------------------------

export const TicketClosure = z.object({
  closedAt: IsoDateTime,
  force: z.boolean().describe('Closed at once, skipping the close delay'),
  closedBy: Snowflake,
  reason: z.string().max(1024).nullable(),
});
export type TicketClosure = z.infer<typeof TicketClosure>;

export const TemplateAnswer = z.object({
  questionId: TemplateId,
  question: z.string().max(256).describe('The question as it was asked'),
  answer: z.string().max(4000),
});
export type TemplateAnswer = z.infer<typeof TemplateAnswer>;

/** Enough of a server to show it where the viewer may not be able to load it. */
export const TicketServer = z.object({
  serverId: Snowflake,
  name: z.string(),
  iconUrl: z.string().nullable(),
});
export type TicketServer = z.infer<typeof TicketServer>;

export const TicketSubject = z.object({ subjectId: SubjectId, name: z.string() });
export type TicketSubject = z.infer<typeof TicketSubject>;

const ticketFields = {
  ticketId: TicketId,
  number: z.number().int().min(1).describe('Running number of the ticket within its server'),
  name: z.string().max(DISCORD_LIMITS.channelName),
  author: Snowflake.describe('User id of whoever opened the ticket'),
  server: TicketServer,
  subject: TicketSubject,
  createdAt: IsoDateTime,
  state: TicketState,
  assignee: Snowflake.nullable().describe('Staff member who claimed the ticket'),
  closed: TicketClosure.nullable(),
  users: z.array(PublicUser).describe('Profiles of every user the ticket refers to'),
};

/** What the ticket's subject lets each kind of person do in the ticket's channel (SPEC §3 permissions). */
export const TicketAccess = z.object({
  userPermissions: PermissionOverwrite.describe('For the author and the added members'),
  claimPermissions: PermissionOverwrite.describe('For the staff member who claimed the ticket'),
  staffPermissions: PermissionOverwrite.describe("For holders of the subject's staff roles"),
  staffRoles: z.array(Snowflake).describe("The subject's staff roles"),
});
export type TicketAccess = z.infer<typeof TicketAccess>;

export const Ticket = z.object({
  ...ticketFields,
  messages: z.array(TicketMessage).describe('Oldest first'),
  members: z.array(Snowflake).describe('Users added to the ticket besides its author'),
  templateAnswers: z.array(TemplateAnswer),
  access: TicketAccess.optional().describe("In a server's ticket, while its subject exists; not in a member's own ticket"),
});
export type Ticket = z.infer<typeof Ticket>;

/** A stretch of text with the search matches in it, as offsets, so the client can mark them without HTML. */
export const Highlight = z.object({
  field: z.enum(['name', 'message', 'answer']),
  text: z.string(),
  matches: z.array(z.object({ start: z.number().int().min(0), length: z.number().int().min(1) })),
});
export type Highlight = z.infer<typeof Highlight>;

export const MessagePreview = z.object({
  messageId: TicketMessageId,
  authorId: Snowflake,
  createdAt: IsoDateTime,
  content: z.string().max(200).describe('Start of the text'),
});
export type MessagePreview = z.infer<typeof MessagePreview>;

export const TicketListItem = z.object({
  ...ticketFields,
  highlights: z.array(Highlight).describe('Where a search matched; empty outside search'),
  lastMessage: MessagePreview.nullable(),
  lastActivity: IsoDateTime,
  attendees: z.array(Snowflake).describe('Staff who wrote in the ticket'),
});
export type TicketListItem = z.infer<typeof TicketListItem>;

/** Filters of the ticket lists; names are PascalCase as the SPEC gives them. */
export const TicketListQuery = PageQuery.extend({
  Author: Snowflake.optional(),
  Server: Snowflake.optional(),
  Subject: SubjectId.optional(),
  Assignee: Snowflake.optional(),
  ClosedBy: Snowflake.optional(),
  Active: BooleanQuery.optional().describe('true: only open tickets; false: only closed ones; absent: both'),
  HideResolved: BooleanQuery.optional().describe('true: leave out closed tickets and those closing on their own (AutoClose). Default: false'),
});
export type TicketListQuery = z.infer<typeof TicketListQuery>;

export const SearchRequest = z.object({ text: z.string().trim().min(1, 'Search text is required').max(200) });
export type SearchRequest = z.infer<typeof SearchRequest>;

export const CreateTicketRequest = z.object({
  ticketName: z.string().trim().min(1).max(DISCORD_LIMITS.channelName),
  subjectId: SubjectId,
  ticketId: TicketId.optional().describe('Id to use (e.g. the ticket channel id); generated when absent'),
  authorId: Snowflake,
  templateAnswers: z.array(TemplateAnswer).max(25).default([]),
});
export type CreateTicketRequest = z.infer<typeof CreateTicketRequest>;

export const UpdateTicketRequest = z
  .object({
    ticketName: z.string().trim().min(1).max(DISCORD_LIMITS.channelName).optional(),
    subjectId: SubjectId.optional(),
    authorId: Snowflake.optional(),
    assigneeId: Snowflake.nullable().optional().describe('null: unclaim'),
    closure: z
      .object({
        closedBy: Snowflake,
        reason: z.string().max(1024).nullable().default(null).describe('Default: null (no reason)'),
        force: z.boolean().default(false).describe('Close at once, skipping the close delay. Default: false'),
      })
      .nullable()
      .optional()
      .describe('Close the ticket; null reopens it'),
  })
  .refine((u) => Object.values(u).some((v) => v !== undefined), { message: 'Nothing to update' });
export type UpdateTicketRequest = z.infer<typeof UpdateTicketRequest>;

export const TicketMemberRequest = z.object({ userId: Snowflake });
export type TicketMemberRequest = z.infer<typeof TicketMemberRequest>;

const outgoingContent = z.object({
  content: z.string().max(RECORDED_CONTENT_MAX),
  embeds: z.array(Embed).max(DISCORD_LIMITS.embedsPerMessage).default([]),
  mentions: z.array(Snowflake).max(100).default([]),
  attachments: z.array(Attachment).max(10).default([]),
  replyTo: Snowflake.nullable().optional().describe('The platform message this one answers'),
});

export const CreateTicketMessageRequest = z
  .object({
    ticketId: TicketId.optional().describe('Must equal the path’s ticketId when given'),
    message: outgoingContent,
    messageType: MessageType,
    authorId: Snowflake.optional().describe('For bot and API-key callers; a signed-in user writes as themselves'),
    externalId: Snowflake.nullable().optional().describe('The platform message this one mirrors'),
  })
  .superRefine((r, ctx) => {
    const m = r.message;
    if (m.content.trim() === '' && m.embeds.length === 0 && m.attachments.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['message'],
        message: 'A message needs content, an embed or an attachment',
      });
    }
  });
export type CreateTicketMessageRequest = z.infer<typeof CreateTicketMessageRequest>;

export const UpdateTicketMessageRequest = z.object({
  ticketId: TicketId.optional().describe('Must equal the path’s ticketId when given'),
  messageId: TicketMessageId.optional().describe('Must equal the path’s messageId when given'),
  message: z.object({
    content: z.string().max(RECORDED_CONTENT_MAX),
    embeds: z.array(Embed).max(DISCORD_LIMITS.embedsPerMessage).default([]),
  }),
});
export type UpdateTicketMessageRequest = z.infer<typeof UpdateTicketMessageRequest>;

export const AddReactionRequest = z.object({
  messageId: TicketMessageId.optional().describe('Must equal the path’s messageId when given'),
  reactorId: Snowflake,
  emoji: ReactionEmoji,
});
export type AddReactionRequest = z.infer<typeof AddReactionRequest>;

export const RemoveReactionRequest = z
  .object({
    messageId: TicketMessageId.optional().describe('Must equal the path’s messageId when given'),
    deleteAll: z.boolean().default(false).describe('Remove every reaction of the message'),
    clearEmoji: z.boolean().default(false).describe('Remove every reaction with emoji'),
    reactorId: Snowflake.optional().describe('Whose reaction to remove, unless deleteAll or clearEmoji'),
    emoji: ReactionEmoji.optional(),
  })
  .superRefine((r, ctx) => {
    if (r.deleteAll) return;
    if (!r.emoji)
      ctx.addIssue({ code: 'custom', path: ['emoji'], message: 'emoji is required unless deleteAll is set' });
    if (!r.clearEmoji && !r.reactorId) {
      ctx.addIssue({
        code: 'custom',
        path: ['reactorId'],
        message: 'reactorId is required unless deleteAll or clearEmoji is set',
      });
    }
  });
export type RemoveReactionRequest = z.infer<typeof RemoveReactionRequest>;

/** An interaction the platform posts to the bot; verified by its signature headers, kept loose on purpose. */
export const DiscordInteraction = z
  .looseObject({
    type: z.number().int().min(1).describe('1 ping, 2 command, 3 component, 4 autocomplete, 5 modal submit'),
  })
  .describe('A platform interaction payload');
export type DiscordInteraction = z.infer<typeof DiscordInteraction>;

export const InteractionResponse = z.looseObject({
  type: z.number().int().min(1).describe('Interaction callback type; 1 answers a ping'),
});
export type InteractionResponse = z.infer<typeof InteractionResponse>;

// ---------------------------------------------------------------------------------------------
// Statistics
// ---------------------------------------------------------------------------------------------

export const DailyCount = z.object({
  date: IsoDate,
  count: z.number().min(0).describe('Count for the day; for response times, the mean in seconds'),
});
export type DailyCount = z.infer<typeof DailyCount>;

export const TopSimple = z.object({
  activeTickets: z.number().int().min(0),
  totalTickets: z.number().int().min(0),
  totalMessages: z.number().int().min(0),
});
export type TopSimple = z.infer<typeof TopSimple>;

export const TopSubject = z.object({
  subjectId: SubjectId,
  serverId: Snowflake,
  name: z.string(),
  amount: z.number().int().min(0).describe('Tickets'),
});
export type TopSubject = z.infer<typeof TopSubject>;

export const TopSupporter = z.object({
  id: Snowflake,
  name: z.string(),
  avatarUrl: z.string().nullable(),
  color: z.number().int().nullable(),
  amount: z.number().int().min(0).describe('Tickets handled'),
});
export type TopSupporter = z.infer<typeof TopSupporter>;

export const PublicStats = z.object({
  servers: z.number().int().min(0).describe('Servers the bot is in'),
  tickets: z.number().int().min(0).describe('Tickets ever opened'),
  messages: z.number().int().min(0).describe('Ticket messages ever written'),
  openTickets: z.number().int().min(0).describe('Tickets open now'),
});
export type PublicStats = z.infer<typeof PublicStats>;

/** Days a server's public statistics cover, ending today (UTC). */
export const PUBLIC_STATS_DAYS = 30;

export const PublicServerStats = z.object({
  serverId: Snowflake,
  name: z.string(),
  totals: TopSimple,
  ticketsPerDay: z.array(DailyCount).describe('Tickets opened per day, the last 30 days'),
  responseTimePerDay: z.array(DailyCount).describe('Mean seconds to the first staff answer, by the day the ticket opened'),
  topSubjects: z.array(TopSubject).max(10).describe('Subjects with the most tickets in the last 30 days'),
});
export type PublicServerStats = z.infer<typeof PublicServerStats>;

/** Longest range a statistics call covers. */
export const MAX_STATS_RANGE_DAYS = 366;
const DAY_MS = 86_400_000;

const checkRange = (start: string | undefined, end: string | undefined, ctx: z.RefinementCtx): void => {
  if (start === undefined && end === undefined) return;
  if (start === undefined || end === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: [start === undefined ? 'startDate' : 'endDate'],
      message: 'startDate and endDate go together',
    });
    return;
  }
  if (start > end) {
    ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'endDate must not be before startDate' });
    return;
  }
  const days = (Date.parse(end) - Date.parse(start)) / DAY_MS + 1;
  if (days > MAX_STATS_RANGE_DAYS) {
    ctx.addIssue({
      code: 'custom',
      path: ['endDate'],
      message: `The range covers ${days} days; the limit is ${MAX_STATS_RANGE_DAYS}`,
    });
  }
};

/** Both ends are included. */
export const StatsRangeQuery = z
  .object({
    startDate: IsoDate.describe('First day, YYYY-MM-DD'),
    endDate: IsoDate.describe('Last day, YYYY-MM-DD'),
  })
  .superRefine((q, ctx) => checkRange(q.startDate, q.endDate, ctx));
export type StatsRangeQuery = z.infer<typeof StatsRangeQuery>;

export const TopStatsQuery = PageQuery.extend({
  startDate: IsoDate.optional().describe('First day, YYYY-MM-DD; with endDate; all time when absent'),
  endDate: IsoDate.optional().describe('Last day, YYYY-MM-DD'),
}).superRefine((q, ctx) => checkRange(q.startDate, q.endDate, ctx));
export type TopStatsQuery = z.infer<typeof TopStatsQuery>;

export const SubjectTicketCount = z.object({
  subjectId: SubjectId,
  total: z.number().int().min(0),
  active: z.number().int().min(0).describe('Tickets not closed'),
});
export type SubjectTicketCount = z.infer<typeof SubjectTicketCount>;

// ---------------------------------------------------------------------------------------------
// Calls
// ---------------------------------------------------------------------------------------------

const TicketParams = z.object({ serverId: Snowflake, ticketId: TicketId });
const MessageParams = TicketParams.extend({
  messageId: TicketMessageId.describe('The message’s id, or the id of the platform message it mirrors (its externalId)'),
});
const pagedTickets = pagedResult(TicketListItem);

// ---------------------------------------------------------------------------------------------
// What the bot runtime reports from the platform's gateway
// ---------------------------------------------------------------------------------------------

const eventId = z.string().min(1).max(200).describe('Stable for the same platform event, so a report sent twice is done once');
export const PlatformEvent = z.discriminatedUnion('type', [
  z.object({ eventId, type: z.literal('memberLeft').describe('A member left the server, was kicked or banned'), userId: Snowflake }),
  z.object({
    eventId,
    type: z.literal('channelDeleted').describe('A channel was deleted on the platform; a ticket in it closes'),
    channelId: Snowflake,
    deletedBy: Snowflake.nullable().describe('Who deleted it, from the server’s audit log; null when unknown'),
  }),
  z.object({ eventId, type: z.literal('botAdded').describe('The bot is in the server') }),
  z.object({ eventId, type: z.literal('botRemoved').describe('The bot left or was removed from the server') }),
  z.object({ eventId, type: z.literal('rolesChanged').describe('A role of the server was created, changed or deleted') }),
  z.object({ eventId, type: z.literal('memberUpdated').describe('A member’s roles or name changed'), userId: Snowflake }),
  z.object({ eventId, type: z.literal('channelsChanged').describe('A channel of the server was created, changed or deleted') }),
]);
export type PlatformEvent = z.infer<typeof PlatformEvent>;

export const TicketChannels = z.object({
  channels: z.array(z.object({ channelId: Snowflake, ticketId: TicketId, subjectId: SubjectId })).describe('Open tickets that have a channel'),
});
export type TicketChannels = z.infer<typeof TicketChannels>;

export const supportCalls = {
  getSubjectTicketCount: defineCall({
    method: 'GET',
    path: '/admin/subject-count/:subjectId',
    summary: 'How many tickets a subject has (platform admin)',
    params: z.object({ subjectId: SubjectId }),
    response: SubjectTicketCount,
  }),
  handleInteraction: defineCall({
    method: 'POST',
    path: '/discord',
    summary: 'Interactions endpoint of the platform; signed with X-Signature-Ed25519 and X-Signature-Timestamp',
    body: DiscordInteraction,
    response: InteractionResponse,
  }),
  handleGatewayInteraction: defineCall({
    method: 'POST',
    path: '/interactions',
    summary: 'An interaction the bot runtime received over the gateway (platform operators); answers what POST /discord would',
    body: DiscordInteraction,
    response: InteractionResponse,
  }),
  handlePlatformEvent: defineCall({
    method: 'POST',
    path: '/servers/:serverId/events',
    summary: 'Something that happened in the server, as the bot runtime saw it on the gateway (platform operators); a repeated eventId changes nothing',
    params: ServerIdParams,
    body: PlatformEvent,
    response: null,
    status: 204,
  }),
  getTicketChannels: defineCall({
    method: 'GET',
    path: '/servers/:serverId/ticket-channels',
    summary: 'The channels of the server’s open tickets, which the bot runtime watches (platform operators)',
    params: ServerIdParams,
    response: TicketChannels,
  }),
  getPersonalTickets: defineCall({
    method: 'GET',
    path: '/personal/tickets',
    summary: 'Tickets the caller opened or was added to, across servers',
    query: TicketListQuery,
    response: pagedTickets,
  }),
  searchPersonalTickets: defineCall({
    method: 'POST',
    path: '/personal/tickets/search',
    summary: 'Full-text search in the caller’s tickets',
    query: TicketListQuery,
    body: SearchRequest,
    response: pagedTickets,
  }),
  getPersonalTicketServers: defineCall({
    method: 'GET',
    path: '/personal/tickets/servers',
    summary: 'Servers the caller has tickets in',
    query: PageQuery,
    response: pagedResult(TicketServer),
  }),
  getPersonalTicketSubjects: defineCall({
    method: 'GET',
    path: '/personal/tickets/subjects/:serverId',
    summary: 'Subjects of a server the caller has tickets in',
    params: ServerIdParams,
    query: PageQuery,
    response: pagedResult(TicketSubject),
  }),
  getPersonalTicket: defineCall({
    method: 'GET',
    path: '/personal/tickets/:ticketId',
    summary: 'One of the caller’s tickets, with its messages',
    params: z.object({ ticketId: TicketId }),
    response: Ticket,
  }),
  searchServerTickets: defineCall({
    method: 'POST',
    path: '/servers/:serverId/search',
    summary: 'Full-text search in the server’s tickets',
    params: ServerIdParams,
    query: TicketListQuery,
    body: SearchRequest,
    response: pagedTickets,
  }),
  getDailyMessageStats: defineCall({
    method: 'GET',
    path: '/servers/:serverId/stats/daily/messages',
    summary: 'Ticket messages per day; days without any are included with 0',
    params: ServerIdParams,
    query: StatsRangeQuery,
    response: z.array(DailyCount),
  }),
  getDailyResponseTimeStats: defineCall({
    method: 'GET',
    path: '/servers/:serverId/stats/daily/response-time',
    summary: 'Mean time to the first staff answer, in seconds, per day of ticket creation',
    params: ServerIdParams,
    query: StatsRangeQuery,
    response: z.array(DailyCount),
  }),
  getDailyTicketStats: defineCall({
    method: 'GET',
    path: '/servers/:serverId/stats/daily/tickets',
    summary: 'Tickets opened per day; days without any are included with 0',
    params: ServerIdParams,
    query: StatsRangeQuery,
    response: z.array(DailyCount),
  }),
  getPublicStats: defineCall({
    method: 'GET',
    path: '/stats',
    summary: 'Totals across the whole installation, for anyone',
    response: PublicStats,
  }),
  getPublicServerStats: defineCall({
    method: 'GET',
    path: '/public/servers/:serverId/stats',
    summary: "A server's statistics for anyone, once its admins made them public; 404 otherwise",
    params: ServerIdParams,
    response: PublicServerStats,
  }),
  getTopSimpleStats: defineCall({
    method: 'GET',
    path: '/servers/:serverId/stats/top/simple',
    summary: 'Totals of the server',
    params: ServerIdParams,
    response: TopSimple,
  }),
  getTopSubjects: defineCall({
    method: 'GET',
    path: '/servers/:serverId/stats/top/subjects',
    summary: 'Subjects by tickets, most first',
    params: ServerIdParams,
    query: TopStatsQuery,
    response: pagedResult(TopSubject),
  }),
  getTopSupporters: defineCall({
    method: 'GET',
    path: '/servers/:serverId/stats/top/supporters',
    summary: 'Staff by tickets handled, most first',
    params: ServerIdParams,
    query: TopStatsQuery,
    response: pagedResult(TopSupporter),
  }),
  getSupportSubjects: defineCall({
    method: 'GET',
    path: '/servers/:serverId/subjects',
    summary: 'Subjects of the server, for ticket filters',
    params: ServerIdParams,
    query: PageQuery,
    response: pagedResult(SubjectShort),
  }),
  getServerTickets: defineCall({
    method: 'GET',
    path: '/servers/:serverId/tickets',
    summary: 'The server’s tickets, newest activity first',
    params: ServerIdParams,
    query: TicketListQuery,
    response: pagedTickets,
  }),
  createTicket: defineCall({
    method: 'POST',
    path: '/servers/:serverId/tickets',
    summary: 'Record a new ticket',
    params: ServerIdParams,
    body: CreateTicketRequest,
    response: Ticket,
    status: 201,
  }),
  getServerTicket: defineCall({
    method: 'GET',
    path: '/servers/:serverId/tickets/:ticketId',
    summary: 'One ticket of the server, with its messages',
    params: TicketParams,
    response: Ticket,
  }),
  updateTicket: defineCall({
    method: 'PUT',
    path: '/servers/:serverId/tickets/:ticketId',
    summary: 'Rename, move, reassign, claim, close or reopen a ticket; absent fields stay as they are',
    params: TicketParams,
    body: UpdateTicketRequest,
    response: Ticket,
  }),
  deleteTicket: defineCall({
    method: 'DELETE',
    path: '/servers/:serverId/tickets/:ticketId',
    summary: 'Delete a ticket with its messages and files',
    params: TicketParams,
    response: null,
    status: 204,
  }),
  addTicketMember: defineCall({
    method: 'POST',
    path: '/servers/:serverId/tickets/:ticketId/member',
    summary: 'Add a user to a ticket',
    params: TicketParams,
    body: TicketMemberRequest,
    response: null,
    status: 204,
  }),
  removeTicketMember: defineCall({
    method: 'DELETE',
    path: '/servers/:serverId/tickets/:ticketId/member',
    summary: 'Remove a user from a ticket',
    params: TicketParams,
    body: TicketMemberRequest,
    response: null,
    status: 204,
  }),
  createTicketMessage: defineCall({
    method: 'POST',
    path: '/servers/:serverId/tickets/:ticketId/messages',
    summary: 'Add a message to a ticket',
    params: TicketParams,
    body: CreateTicketMessageRequest,
    response: TicketMessage,
    status: 201,
  }),
  updateTicketMessage: defineCall({
    method: 'PUT',
    path: '/servers/:serverId/tickets/:ticketId/messages/:messageId',
    summary: 'Edit a message; the old version goes to its history',
    params: MessageParams,
    body: UpdateTicketMessageRequest,
    response: TicketMessage,
  }),
  deleteTicketMessage: defineCall({
    method: 'DELETE',
    path: '/servers/:serverId/tickets/:ticketId/messages/:messageId',
    summary: 'Mark a message deleted (it stays in the transcript as deleted)',
    params: MessageParams,
    response: null,
    status: 204,
  }),
  addReaction: defineCall({
    method: 'POST',
    path: '/servers/:serverId/tickets/:ticketId/messages/:messageId/reactions',
    summary: 'Record a reaction; answers the message’s reactions',
    params: MessageParams,
    body: AddReactionRequest,
    response: z.array(Reaction),
  }),
  removeReaction: defineCall({
    method: 'DELETE',
    path: '/servers/:serverId/tickets/:ticketId/messages/:messageId/reactions',
    summary: 'Remove one reaction, every reaction with an emoji, or all; answers the reactions left',
    params: MessageParams,
    body: RemoveReactionRequest,
    response: z.array(Reaction),
  }),
};
