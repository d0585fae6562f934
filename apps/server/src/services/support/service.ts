import { randomUUID } from 'node:crypto';
import type {
  AddReactionRequest,
  CreateTicketMessageRequest,
  CreateTicketRequest,
  EmojiRef,
  PagedResult,
  Reaction,
  RemoveReactionRequest,
  SubjectShort,
  SubjectTicketCount,
  Ticket,
  TicketListItem,
  TicketListQuery,
  TicketMessage,
  TicketMessageContent,
  TicketServer,
  TicketState,
  TicketSubject,
  UpdateTicketMessageRequest,
  UpdateTicketRequest,
} from '@ticket/contracts';
import type { Kysely, Transaction } from 'kysely';
import { fromJson, isUniqueViolation, now, toFlag, toJson, type Engine } from '../../db/database';
import type { DB } from '../../db/schema';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../http/errors';
import type { Caller } from '../../http/route';
import type { PlatformClient } from '../../platform/discord';
import type { FilesService } from '../files';
import * as repo from './repository';
import * as lists from './list-repository';
import * as searchIndex from './search-repository';
import * as counters from './stats-repository';
import { searchTerms } from './search-text';
import { TicketShapes, type Revision } from './ticket-shapes';
import { eventMessage, eventTicket, NO_TICKET_EVENTS, type TicketEvents } from './ticket-events';

type MessageBody = TicketMessageContent;

const emojiKey = (e: EmojiRef) => e.id ?? e.name ?? '';

/** Who spoke last decides whom the ticket waits for; system messages change nothing. */
export function stateAfterMessage(state: TicketState, type: TicketMessage['messageType']): TicketState {
  if (state === 'Closed' || type === 'System') return state;
  return type === 'Staff' ? 'PendingUser' : 'PendingStaff';
}

const pageOf = <T>(elements: T[], page: number, amount: number, total: number): PagedResult<T> => ({
  page,
  maxPage: Math.max(1, Math.ceil(total / amount)),
  elements,
});

export class SupportService {
  /** How rows are shown: whole tickets, list items, messages. */
  private readonly shapes: TicketShapes;
  /** A server's change counter (list-repository.ts, serverVersionReader). */
  private readonly serverVersion: (serverId: string) => Promise<number>;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly engine: Engine,
    platform: PlatformClient,
    private readonly files: FilesService,
    /** The server's outgoing webhooks, told of each change in its own transaction. */
    private readonly events: TicketEvents = NO_TICKET_EVENTS,
    /** Where searches read (`Database.reads`: on SQLite, off the API's thread). */
    private readonly reads: Kysely<DB> = db,
  ) {
    this.shapes = new TicketShapes(db, platform, files);
    this.serverVersion = lists.serverVersionReader(db, engine);
  }

  // --- Access ---------------------------------------------------------------------------------

  private async ticketIn(serverId: string, ticketId: string): Promise<repo.TicketRow> {
    const row = await repo.findTicket(this.db, ticketId, serverId);
    if (!row) throw new NotFoundError(`No ticket ${ticketId} in this server`);
    return row;
  }

  /** A member sees the tickets they opened or were added to; anything else is "not found" to them. */
  private async ownTicket(caller: Caller | null, ticketId: string): Promise<repo.TicketRow> {
    if (caller?.kind !== 'user') throw new ForbiddenError('Only signed-in users have personal tickets');
    const row = await repo.findTicket(this.db, ticketId);
    if (!row || (row.author_id !== caller.userId && !(await repo.isMember(this.db, ticketId, caller.userId)))) {
      throw new NotFoundError(`No ticket ${ticketId} among your tickets`);
    }
    return row;
  }

  // --- Tickets --------------------------------------------------------------------------------

  async list(serverId: string, query: TicketListQuery): Promise<PagedResult<TicketListItem>> {
    const { rows, total } = await lists.pageTickets(this.db, this.engine, { serverId }, query, null);
    return pageOf(await this.shapes.listItems(rows, null), query.Page, query.Amount, total);
  }

  /** Changes whenever anything a list of this server's tickets shows changes. */
  async listVersion(serverId: string): Promise<string> {
    return String(await this.serverVersion(serverId));
  }

  async search(serverId: string, query: TicketListQuery, text: string): Promise<PagedResult<TicketListItem>> {
    const terms = searchTerms(text);
    if (terms.length === 0) throw new BadRequestError('Search text needs at least one letter or digit', 'body.text');
    const { rows, total } = await lists.pageTickets(this.reads, this.engine, { serverId }, query, terms, this.db);
    return pageOf(await this.shapes.listItems(rows, terms), query.Page, query.Amount, total);
  }

  async get(serverId: string, ticketId: string): Promise<Ticket> {
    return this.shapes.full(await this.ticketIn(serverId, ticketId));
  }

  /**
   * Records a ticket. `channelId` is the ticket's channel on the platform, which the bot will
   * close, move and open to members: only ever one the bot created for it in this server, or one
   * checked to be this server's (TicketOpening.createTicket), never an id as a request sent it.
   */
  async create(serverId: string, request: CreateTicketRequest, channelId: string | null): Promise<Ticket> {
    const subject = await repo.findLiveSubject(this.db, serverId, request.subjectId);
    if (!subject) throw new NotFoundError(`No subject ${request.subjectId} in this server`);
    const ticketId = request.ticketId ?? randomUUID();
    const at = now();
    for (let attempt = 0; ; attempt++) {
      try {
        await this.db.transaction().execute(async (trx) => {
          if (await repo.findTicket(trx, ticketId)) throw new BadRequestError(`A ticket with id ${ticketId} already exists`, 'body.ticketId');
          const number = await repo.nextNumber(trx, serverId);
          const ticket: Omit<repo.TicketRow, 'deleted'> = {
            id: ticketId,
            server_id: serverId,
            subject_id: request.subjectId,
            number,
            name: request.ticketName,
            author_id: request.authorId,
            assignee_id: null,
            state: 'PendingStaff',
            channel_id: channelId,
            template_answers: toJson(request.templateAnswers),
            created_at: at,
            last_activity_at: at,
            closed_at: null,
            closed_by: null,
            close_reason: null,
            close_force: null,
            search_key: null,
            answered_at: null,
            attendees: null,
            ...repo.lastMessageFields(null),
          };
          await repo.insertTicket(trx, ticket);
          await counters.countTicketOpened(trx, ticket);
          await this.events.emit(trx, serverId, 'ticket.opened', { ticket: eventTicket({ ...ticket, deleted: 0 }) });
          await repo.addMember(trx, ticketId, request.authorId);
          await searchIndex.putSearchDoc(trx, this.engine, { ticket_id: ticketId, server_id: serverId, kind: 'name', ref_id: ticketId, body: request.ticketName });
          for (const answer of request.templateAnswers) {
            await searchIndex.putSearchDoc(trx, this.engine, { ticket_id: ticketId, server_id: serverId, kind: 'answer', ref_id: answer.questionId, body: answer.answer });
          }
        });
        break;
      } catch (error) {
        // Two tickets opened at the same moment may pick the same number: take the next one.
        if (isUniqueViolation(error) && attempt < 5) continue;
        throw error;
      }
    }
    return this.get(serverId, ticketId);
  }

  async update(serverId: string, ticketId: string, update: UpdateTicketRequest): Promise<Ticket> {
    await this.db.transaction().execute(async (trx) => {
      const row = await repo.findTicket(trx, ticketId, serverId);
      if (!row) throw new NotFoundError(`No ticket ${ticketId} in this server`);
      const fields: Partial<repo.TicketRow> = {};
      if (update.ticketName !== undefined) {
        fields.name = update.ticketName;
        await searchIndex.putSearchDoc(trx, this.engine, { ticket_id: ticketId, server_id: serverId, kind: 'name', ref_id: ticketId, body: update.ticketName });
      }
      if (update.subjectId !== undefined) {
        const subject = await repo.findLiveSubject(trx, serverId, update.subjectId);
        if (!subject) throw new BadRequestError(`No subject ${update.subjectId} in this server`, 'body.subjectId');
        fields.subject_id = update.subjectId;
        await counters.countSubjectChange(trx, row, update.subjectId);
      }
      if (update.authorId !== undefined) {
        fields.author_id = update.authorId;
        await repo.addMember(trx, ticketId, update.authorId);
      }
      if (update.assigneeId !== undefined) fields.assignee_id = update.assigneeId;
      if (update.closure === null) {
        Object.assign(fields, { state: 'PendingStaff', closed_at: null, closed_by: null, close_reason: null, close_force: null });
      } else if (update.closure) {
        Object.assign(fields, {
          state: 'Closed',
          closed_at: now(),
          closed_by: update.closure.closedBy,
          close_reason: update.closure.reason,
          close_force: toFlag(update.closure.force),
        });
      }
      fields.last_activity_at = now();
      if (update.closure) {
        // Only one close wins, even when two arrive at once; what was scheduled for the ticket
        // (a delayed close) goes with it, in the same transaction.
        if (!(await repo.closeTicket(trx, ticketId, fields))) throw new ConflictError('The ticket is already closed');
        await counters.countOpenChange(trx, serverId, -1);
        await repo.deleteTicketJobs(trx, ticketId);
      } else {
        await repo.updateTicket(trx, ticketId, fields);
        if (update.closure === null && row.state === 'Closed') await counters.countOpenChange(trx, serverId, 1);
      }
      const after = eventTicket({ ...row, ...fields });
      if (update.assigneeId && update.assigneeId !== row.assignee_id) await this.events.emit(trx, serverId, 'ticket.claimed', { ticket: after });
      if (update.closure) await this.events.emit(trx, serverId, 'ticket.closed', { ticket: after });
      else if (update.closure === null && row.state === 'Closed') await this.events.emit(trx, serverId, 'ticket.reopened', { ticket: after });
    });
    return this.get(serverId, ticketId);
  }

  /** The ticket goes with its messages and its files (their bytes are removed right after). */
  async delete(serverId: string, ticketId: string): Promise<void> {
    await this.ticketIn(serverId, ticketId);
    await this.db.transaction().execute(async (trx) => {
      const row = await repo.findTicket(trx, ticketId, serverId);
      if (!row) throw new NotFoundError(`No ticket ${ticketId} in this server`);
      await this.events.emit(trx, serverId, 'ticket.deleted', { ticket: eventTicket(row) });
      await this.files.deleteTicketFiles(serverId, ticketId, trx);
      await counters.countTicketDeleted(trx, row);
      await repo.deleteTicket(trx, this.engine, ticketId);
    });
    await this.files.purgeDeleted();
  }

  /**
   * Adds someone to a ticket; false when they were already in it (its author always is), so an
   * add sent twice changes, logs and announces nothing the second time.
   */
  async addMember(serverId: string, ticketId: string, userId: string): Promise<boolean> {
    const row = await this.ticketIn(serverId, ticketId);
    if (row.state === 'Closed') throw new ConflictError('Members of a closed ticket cannot be changed');
    if (row.author_id === userId || (await repo.isMember(this.db, ticketId, userId))) return false;
    await repo.addMember(this.db, ticketId, userId);
    return true;
  }

  async removeMember(serverId: string, ticketId: string, userId: string): Promise<void> {
    const row = await this.ticketIn(serverId, ticketId);
    if (row.author_id === userId) throw new BadRequestError('The author of a ticket cannot be removed from it', 'body.userId');
    if (row.state === 'Closed') throw new ConflictError('Members of a closed ticket cannot be changed');
    if (!(await repo.removeMember(this.db, ticketId, userId))) throw new NotFoundError('That user is not a member of this ticket');
  }

  // --- Messages -------------------------------------------------------------------------------

  async addMessage(caller: Caller | null, serverId: string, ticketId: string, request: CreateTicketMessageRequest): Promise<TicketMessage> {
    if (request.ticketId && request.ticketId !== ticketId) throw new BadRequestError('ticketId in the body must match the ticket in the path', 'body.ticketId');
    const authorId = caller?.kind === 'user' ? caller.userId : request.authorId;
    if (!authorId) throw new BadRequestError('authorId is required for bot and API-key callers', 'body.authorId');
    let id: string = randomUUID();
    const at = now();
    await this.db.transaction().execute(async (trx) => {
      const row = await repo.findTicket(trx, ticketId, serverId);
      if (!row) throw new NotFoundError(`No ticket ${ticketId} in this server`);
      if (request.externalId) {
        // Reported again (the bot runtime reports at least once): the message recorded the first time.
        const seen = await repo.findMessageByExternalId(trx, ticketId, request.externalId);
        if (seen) {
          id = seen.id;
          return;
        }
      }
      const message: repo.MessageRow = {
        id,
        ticket_id: ticketId,
        server_id: serverId,
        external_id: request.externalId ?? null,
        author_id: authorId,
        message_type: request.messageType,
        body: toJson(request.message),
        history: toJson([]),
        modified: 0,
        deleted: 0,
        deleted_at: null,
        created_at: at,
      };
      await counters.countMessage(trx, row, message);
      await repo.insertMessage(trx, message);
      await searchIndex.putSearchDoc(trx, this.engine, { ticket_id: ticketId, server_id: serverId, kind: 'message', ref_id: id, body: request.message.content });
      const attendees = row.attendees ? row.attendees.split(',') : [];
      const fields = {
        state: stateAfterMessage(row.state as TicketState, request.messageType),
        last_activity_at: at,
        ...repo.lastMessageFields({ id, author_id: authorId, created_at: at, content: request.message.content }),
        ...(request.messageType === 'Staff' && !attendees.includes(authorId) ? { attendees: [...attendees, authorId].join(',') } : {}),
      };
      const ticket = { ...row, ...fields };
      await repo.updateTicket(trx, ticketId, fields);
      await this.events.emit(trx, serverId, 'message.created', { ticket: eventTicket(ticket), message: eventMessage(message) });
    });
    return this.messageWithReactions(ticketId, id);
  }

  async editMessage(serverId: string, ticketId: string, messageId: string, request: UpdateTicketMessageRequest): Promise<TicketMessage> {
    if (request.ticketId && request.ticketId !== ticketId) throw new BadRequestError('ticketId in the body must match the ticket in the path', 'body.ticketId');
    let id = messageId;
    await this.db.transaction().execute(async (trx) => {
      const ticket = await this.requireTicket(trx, serverId, ticketId);
      const row = await repo.findMessageByAnyId(trx, ticketId, messageId);
      if (!row || row.deleted === 1) throw new NotFoundError(`No message ${messageId} in this ticket`);
      this.sameMessage(request.messageId, row);
      id = row.id;
      const body = fromJson<MessageBody>(row.body);
      // The same edit reported again is no new revision.
      if (body.content === request.message.content && JSON.stringify(body.embeds) === JSON.stringify(request.message.embeds)) return;
      const history = [...fromJson<Revision[]>(row.history), { content: body.content, embeds: body.embeds, editedAt: now() }];
      await repo.updateMessage(trx, id, { body: toJson({ ...body, ...request.message }), history: toJson(history), modified: 1 });
      if (ticket.last_message_id === id) await repo.updateTicket(trx, ticketId, repo.lastMessageFields({ ...row, content: request.message.content }));
      await searchIndex.putSearchDoc(trx, this.engine, { ticket_id: ticketId, server_id: serverId, kind: 'message', ref_id: id, body: request.message.content });
    });
    return this.messageWithReactions(ticketId, id);
  }

  /** A message id in a body must name the same message as the path (by either of its ids). */
  private sameMessage(bodyId: string | undefined, row: repo.MessageRow): void {
    if (bodyId && bodyId !== row.id && bodyId !== row.external_id) throw new BadRequestError('messageId in the body must match the message in the path', 'body.messageId');
  }

  /** Deleting keeps the message, flagged, so the ticket's history stays whole; deleting it again changes nothing. */
  async deleteMessage(serverId: string, ticketId: string, messageId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.requireTicket(trx, serverId, ticketId);
      const row = await repo.findMessageByAnyId(trx, ticketId, messageId);
      if (!row) throw new NotFoundError(`No message ${messageId} in this ticket`);
      if (row.deleted === 1) return;
      await repo.updateMessage(trx, row.id, { deleted: 1, deleted_at: now() });
      await searchIndex.removeSearchDoc(trx, this.engine, ticketId, 'message', row.id);
      await repo.refreshLastMessage(trx, ticketId);
    });
  }

  private async requireTicket(db: Kysely<DB> | Transaction<DB>, serverId: string, ticketId: string) {
    const row = await repo.findTicket(db, ticketId, serverId);
    if (!row) throw new NotFoundError(`No ticket ${ticketId} in this server`);
    return row;
  }

  private async messageWithReactions(ticketId: string, messageId: string): Promise<TicketMessage> {
    const row = await repo.findMessage(this.db, ticketId, messageId);
    if (!row) throw new NotFoundError(`No message ${messageId} in this ticket`);
    return this.shapes.message(row, (await this.shapes.reactionsBy([messageId])).get(messageId) ?? []);
  }

  async addReaction(serverId: string, ticketId: string, messageId: string, request: AddReactionRequest): Promise<Reaction[]> {
    const message = await this.reactedMessage(serverId, ticketId, messageId, request.messageId);
    await repo.addReaction(this.db, { message_id: message.id, emoji_key: emojiKey(request.emoji), emoji: request.emoji, user_id: request.reactorId });
    return (await this.shapes.reactionsBy([message.id])).get(message.id) ?? [];
  }

  async removeReaction(serverId: string, ticketId: string, messageId: string, request: RemoveReactionRequest): Promise<Reaction[]> {
    const { id } = await this.reactedMessage(serverId, ticketId, messageId, request.messageId);
    if (request.deleteAll) await repo.removeReactions(this.db, id, {});
    else if (request.clearEmoji) await repo.removeReactions(this.db, id, { emojiKey: emojiKey(request.emoji!) });
    else await repo.removeReactions(this.db, id, { emojiKey: emojiKey(request.emoji!), userId: request.reactorId! });
    return (await this.shapes.reactionsBy([id])).get(id) ?? [];
  }

  private async reactedMessage(serverId: string, ticketId: string, messageId: string, bodyId: string | undefined): Promise<repo.MessageRow> {
    await this.ticketIn(serverId, ticketId);
    const message = await repo.findMessageByAnyId(this.db, ticketId, messageId);
    if (!message) throw new NotFoundError(`No message ${messageId} in this ticket`);
    this.sameMessage(bodyId, message);
    return message;
  }

  // --- Personal tickets -----------------------------------------------------------------------

  private userOf(caller: Caller | null): string {
    if (caller?.kind !== 'user') throw new ForbiddenError('Only signed-in users have personal tickets');
    return caller.userId;
  }

  async personal(caller: Caller | null, query: TicketListQuery): Promise<PagedResult<TicketListItem>> {
    const { rows, total } = await lists.pageTickets(this.db, this.engine, { userId: this.userOf(caller) }, query, null);
    return pageOf(await this.shapes.listItems(rows, null), query.Page, query.Amount, total);
  }

  async personalSearch(caller: Caller | null, query: TicketListQuery, text: string): Promise<PagedResult<TicketListItem>> {
    const terms = searchTerms(text);
    if (terms.length === 0) throw new BadRequestError('Search text needs at least one letter or digit', 'body.text');
    const { rows, total } = await lists.pageTickets(this.reads, this.engine, { userId: this.userOf(caller) }, query, terms, this.db);
    return pageOf(await this.shapes.listItems(rows, terms), query.Page, query.Amount, total);
  }

  async personalTicket(caller: Caller | null, ticketId: string): Promise<Ticket> {
    return this.shapes.full(await this.ownTicket(caller, ticketId), 'member');
  }

  async personalServers(caller: Caller | null, page: number, amount: number): Promise<PagedResult<TicketServer>> {
    const { rows, total } = await lists.personalServers(this.db, this.userOf(caller), (page - 1) * amount, amount);
    return pageOf(rows.map((r) => this.shapes.serverShape(r.id, r.name, r.icon)), page, amount, total);
  }

  async personalSubjects(caller: Caller | null, serverId: string, page: number, amount: number): Promise<PagedResult<TicketSubject>> {
    const { rows, total } = await lists.personalSubjects(this.db, this.userOf(caller), serverId, (page - 1) * amount, amount);
    return pageOf(rows.map((r) => ({ subjectId: r.id, name: r.name })), page, amount, total);
  }

  // --- Subjects -------------------------------------------------------------------------------

  async supportSubjects(serverId: string, page: number, amount: number): Promise<PagedResult<SubjectShort>> {
    const { rows, total } = await repo.pageLiveSubjects(this.db, serverId, (page - 1) * amount, amount);
    return pageOf(rows.map((r) => ({ subjectId: r.id, serverId, name: r.name, deleted: false })), page, amount, total);
  }

  async subjectCount(subjectId: string): Promise<SubjectTicketCount> {
    return { subjectId, ...(await repo.subjectCounts(this.db, subjectId)) };
  }
}
