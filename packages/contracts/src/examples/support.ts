import type { supportCalls, Ticket, TicketListItem, TicketMessage } from '../support';
import { EX } from './fixtures';
import type { ExamplesOf } from './types';

const serverParams = { serverId: EX.serverId };
const ticketParams = { serverId: EX.serverId, ticketId: EX.ticketId };
const messageParams = { ...ticketParams, messageId: EX.messageId };

const ticketServer = { serverId: EX.serverId, name: EX.serverName, iconUrl: EX.iconUrl };
const billing = { subjectId: EX.billingSubjectId, name: 'Billing' };

const message: TicketMessage = {
  messageId: EX.messageId,
  ticketId: EX.ticketId,
  authorId: EX.staffId,
  createdAt: '2025-03-14T09:31:02.000Z',
  messageType: 'Staff',
  message: {
    content: 'Thanks! I can see the double charge and have refunded one of them.',
    embeds: [],
    mentions: [],
    attachments: [],
    replyTo: null,
  },
  externalId: EX.platformMessageId,
  deleted: false,
  modified: false,
  deletedAt: null,
  history: [],
  files: [],
  reactions: [{ count: 1, emoji: { id: null, name: '👍' } }],
};

const ticket: Ticket = {
  ticketId: EX.ticketId,
  number: 1042,
  name: 'billing-1042',
  author: EX.memberId,
  server: ticketServer,
  subject: billing,
  createdAt: EX.createdAt,
  state: 'PendingUser',
  assignee: EX.staffId,
  closed: null,
  users: [
    { id: EX.memberId, name: 'Sam', avatarUrl: null, color: null },
    { id: EX.staffId, name: 'Jonas | Support', avatarUrl: null, color: 0x2ecc71 },
  ],
  messages: [message],
  members: [],
  templateAnswers: [{ questionId: EX.templateId, question: 'Which plan are you on?', answer: 'Premium' }],
};

const listItem: TicketListItem = {
  ticketId: ticket.ticketId,
  number: ticket.number,
  name: ticket.name,
  author: ticket.author,
  server: ticket.server,
  subject: ticket.subject,
  createdAt: ticket.createdAt,
  state: ticket.state,
  assignee: ticket.assignee,
  closed: ticket.closed,
  users: ticket.users,
  highlights: [],
  lastMessage: { messageId: EX.messageId, authorId: EX.staffId, createdAt: message.createdAt, content: 'Thanks! I can see the double charge and have refunded one of them.' },
  lastActivity: message.createdAt,
  attendees: [EX.staffId],
};

const searchHit: TicketListItem = {
  ...listItem,
  highlights: [{ field: 'message', text: 'I can see the double charge and have refunded', matches: [{ start: 14, length: 13 }] }],
};

const page = <T>(elements: T[]) => ({ page: 1, maxPage: 1, elements });
const listQuery = { Page: 1, Amount: 100, Subject: EX.billingSubjectId, Active: true };
const range = { startDate: '2025-03-10', endDate: '2025-03-12' };

export const supportExamples: ExamplesOf<typeof supportCalls> = {
  getSubjectTicketCount: { params: { subjectId: EX.billingSubjectId }, response: { subjectId: EX.billingSubjectId, total: 312, active: 9 } },
  handleInteraction: { body: { type: 1 }, response: { type: 1 } },
  handleGatewayInteraction: {
    body: { type: 3, guild_id: EX.serverId, channel_id: EX.channelId, data: { custom_id: `panel:${EX.panelId}:${EX.billingSubjectId}`, component_type: 2 } },
    response: { type: 4, data: { content: `Your ticket is ready: <#${EX.ticketChannelId}>`, flags: 64 } },
  },
  handlePlatformEvent: { params: serverParams, body: { eventId: 'GUILD_MEMBER_REMOVE:552081372201844737:1710408413', type: 'memberLeft', userId: EX.memberId } },
  getTicketChannels: {
    params: serverParams,
    response: { channels: [{ channelId: EX.ticketChannelId, ticketId: EX.ticketId, subjectId: EX.billingSubjectId }] },
  },
  getPersonalTickets: { query: { Page: 1, Amount: 100, Active: true }, response: page([listItem]) },
  searchPersonalTickets: { query: { Page: 1, Amount: 100 }, body: { text: 'double charge' }, response: page([searchHit]) },
  getPersonalTicketServers: { query: { Page: 1, Amount: 100 }, response: page([ticketServer]) },
  getPersonalTicketSubjects: { params: serverParams, query: { Page: 1, Amount: 100 }, response: page([billing]) },
  getPersonalTicket: { params: { ticketId: EX.ticketId }, response: ticket },
  searchServerTickets: { params: serverParams, query: listQuery, body: { text: 'double charge' }, response: page([searchHit]) },
  getDailyMessageStats: {
    params: serverParams,
    query: range,
    response: [
      { date: '2025-03-10', count: 48 },
      { date: '2025-03-11', count: 0 },
      { date: '2025-03-12', count: 63 },
    ],
  },
  getDailyResponseTimeStats: {
    params: serverParams,
    query: range,
    response: [
      { date: '2025-03-10', count: 412.5 },
      { date: '2025-03-11', count: 0 },
      { date: '2025-03-12', count: 318 },
    ],
  },
  getDailyTicketStats: {
    params: serverParams,
    query: range,
    response: [
      { date: '2025-03-10', count: 7 },
      { date: '2025-03-11', count: 0 },
      { date: '2025-03-12', count: 11 },
    ],
  },
  getPublicStats: { response: { servers: 1287, tickets: 482_113, messages: 6_021_448, openTickets: 3312 } },
  getPublicServerStats: {
    params: serverParams,
    response: {
      serverId: EX.serverId,
      name: EX.serverName,
      totals: { activeTickets: 9, totalTickets: 1042, totalMessages: 18_733 },
      ticketsPerDay: [
        { date: '2025-03-11', count: 0 },
        { date: '2025-03-12', count: 11 },
      ],
      responseTimePerDay: [
        { date: '2025-03-11', count: 0 },
        { date: '2025-03-12', count: 318 },
      ],
      topSubjects: [{ subjectId: EX.billingSubjectId, serverId: EX.serverId, name: 'Billing', amount: 12 }],
    },
  },
  getTopSimpleStats: { params: serverParams, response: { activeTickets: 9, totalTickets: 1042, totalMessages: 18_733 } },
  getTopSubjects: {
    params: serverParams,
    query: { Page: 1, Amount: 10, ...range },
    response: page([
      { subjectId: EX.billingSubjectId, serverId: EX.serverId, name: 'Billing', amount: 12 },
      { subjectId: EX.bugSubjectId, serverId: EX.serverId, name: 'Bug reports', amount: 6 },
    ]),
  },
  getTopSupporters: {
    params: serverParams,
    query: { Page: 1, Amount: 10, ...range },
    response: page([{ id: EX.staffId, name: 'Jonas | Support', avatarUrl: null, color: 0x2ecc71, amount: 14 }]),
  },
  getSupportSubjects: {
    params: serverParams,
    query: { Page: 1, Amount: 100 },
    response: page([
      { subjectId: EX.billingSubjectId, serverId: EX.serverId, name: 'Billing', deleted: false },
      { subjectId: EX.bugSubjectId, serverId: EX.serverId, name: 'Bug reports', deleted: false },
    ]),
  },
  getServerTickets: { params: serverParams, query: listQuery, response: page([listItem]) },
  createTicket: {
    params: serverParams,
    body: {
      ticketName: 'billing-1042',
      subjectId: EX.billingSubjectId,
      authorId: EX.memberId,
      templateAnswers: [{ questionId: EX.templateId, question: 'Which plan are you on?', answer: 'Premium' }],
    },
    response: { ...ticket, state: 'PendingStaff', assignee: null, messages: [], users: [ticket.users[0]!] },
  },
  getServerTicket: { params: ticketParams, response: ticket },
  updateTicket: {
    params: ticketParams,
    body: { closure: { closedBy: EX.staffId, reason: 'Refund issued' } },
    response: {
      ...ticket,
      state: 'Closed',
      closed: { closedAt: EX.updatedAt, force: false, closedBy: EX.staffId, reason: 'Refund issued' },
    },
  },
  deleteTicket: { params: ticketParams },
  addTicketMember: { params: ticketParams, body: { userId: EX.ownerId } },
  removeTicketMember: { params: ticketParams, body: { userId: EX.ownerId } },
  createTicketMessage: {
    params: ticketParams,
    body: { message: { content: 'Thanks! I can see the double charge and have refunded one of them.' }, messageType: 'Staff', authorId: EX.staffId, externalId: EX.platformMessageId },
    response: { ...message, reactions: [] },
  },
  updateTicketMessage: {
    params: messageParams,
    body: { message: { content: 'Thanks! I can see the double charge and have refunded the second one.' } },
    response: {
      ...message,
      message: { ...message.message, content: 'Thanks! I can see the double charge and have refunded the second one.' },
      modified: true,
      history: [{ content: message.message.content, embeds: [], editedAt: '2025-03-14T09:33:40.000Z' }],
    },
  },
  deleteTicketMessage: { params: messageParams },
  addReaction: {
    params: messageParams,
    body: { reactorId: EX.memberId, emoji: { name: '👍' } },
    response: [{ count: 2, emoji: { id: null, name: '👍' } }],
  },
  removeReaction: {
    params: messageParams,
    body: { reactorId: EX.memberId, emoji: { name: '👍' } },
    response: [{ count: 1, emoji: { id: null, name: '👍' } }],
  },
};
