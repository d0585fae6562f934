import type {
  EmojiRef,
  Highlight,
  PublicUser,
  Reaction,
  TemplateAnswer,
  Ticket,
  TicketFile,
  TicketListItem,
  TicketMessage,
  TicketMessageContent,
  TicketServer,
  TicketState,
  TicketSubject,
} from '@ticket/contracts';
import type { Kysely } from 'kysely';
import { fromFlag, fromJson } from '../../db/database';
import type { DB } from '../../db/schema';
import type { PlatformClient } from '../../platform/discord';
import type { FilesService } from '../files';
import * as repo from './repository';
import type * as lists from './list-repository';
import { highlight } from './search-text';

type MessageBody = TicketMessageContent;
/** An earlier version of a message, as its history keeps it. */
export type Revision = { content: string; embeds: MessageBody['embeds']; editedAt: string };

/** A user's profile as the contract shows it; one the platform does not know (or did not answer for) is shown by id. */
export async function publicUser(platform: PlatformClient, id: string): Promise<PublicUser> {
  const user = await platform.getUser(id).catch(() => null);
  return {
    id,
    name: user ? (user.global_name ?? user.username) : id,
    avatarUrl: user ? platform.avatarUrl(user.id, user.avatar) : null,
    color: null,
  };
}

/**
 * Rows of tickets and messages as the contract shows them (DESIGN §9: one mapper from row to
 * contract shape): a whole ticket, a list's items with their search highlights (from the texts a
 * search's rows carry), a message with its reactions and files. Each shape also reads what it shows
 * beside the row: names of servers and subjects, users' profiles, reactions and files.
 */
export class TicketShapes {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly platform: PlatformClient,
    private readonly files: FilesService,
  ) {}

  /** A ticket's server as every shape of a ticket shows it. */
  serverShape(id: string, name: string, icon: string | null): TicketServer {
    return { serverId: id, name, iconUrl: this.platform.iconUrl(id, icon) };
  }

  private async server(id: string): Promise<TicketServer | undefined> {
    const row = await repo.findServer(this.db, id);
    return row && this.serverShape(row.id, row.name, row.icon);
  }

  private async subject(id: string): Promise<TicketSubject | undefined> {
    const row = await repo.findSubject(this.db, id);
    return row && { subjectId: row.id, name: row.name };
  }

  /** Profiles of the users a ticket names. */
  private users(ids: string[]): Promise<PublicUser[]> {
    return Promise.all([...new Set(ids)].map((id) => publicUser(this.platform, id)));
  }

  /**
   * The fields every shape of a ticket shares; a server or subject the database no longer has is
   * shown by id. Each shape adds its own with Object.assign: V8 builds `{ ...base, more }` as a
   * slow dictionary object, 10 µs each (a list page's shaping took 0.3 ms that way), and the
   * answer's writer then reads it slowly too.
   */
  private base(row: lists.TicketFields, server: TicketServer | undefined, subject: TicketSubject | undefined) {
    return {
      ticketId: row.id,
      number: row.number,
      name: row.name,
      author: row.author_id,
      server: server ?? { serverId: row.server_id, name: row.server_id, iconUrl: null },
      subject: subject ?? { subjectId: row.subject_id, name: 'Deleted subject' },
      createdAt: row.created_at,
      state: row.state as TicketState,
      assignee: row.assignee_id,
      closed:
        row.closed_at && row.closed_by
          ? { closedAt: row.closed_at, force: fromFlag(row.close_force), closedBy: row.closed_by, reason: row.close_reason }
          : null,
    };
  }

  message(row: repo.MessageRow, reactions: Reaction[], files: Map<string, TicketFile> = new Map()): TicketMessage {
    const body = fromJson<MessageBody>(row.body);
    return {
      messageId: row.id,
      ticketId: row.ticket_id,
      authorId: row.author_id,
      createdAt: row.created_at,
      messageType: row.message_type as TicketMessage['messageType'],
      message: body,
      externalId: row.external_id,
      deleted: fromFlag(row.deleted),
      modified: fromFlag(row.modified),
      deletedAt: row.deleted_at,
      history: fromJson<Revision[]>(row.history),
      files: body.attachments.flatMap((a) => files.get(a.id) ?? []),
      reactions,
    };
  }

  async reactionsBy(messageIds: string[]): Promise<Map<string, Reaction[]>> {
    const rows = await repo.reactionsOf(this.db, messageIds);
    const map = new Map<string, Map<string, Reaction>>();
    for (const row of rows) {
      const byEmoji = map.get(row.message_id) ?? new Map<string, Reaction>();
      const current = byEmoji.get(row.emoji_key);
      byEmoji.set(row.emoji_key, { emoji: fromJson<EmojiRef>(row.emoji), count: (current?.count ?? 0) + 1 });
      map.set(row.message_id, byEmoji);
    }
    return new Map([...map].map(([id, byEmoji]) => [id, [...byEmoji.values()]]));
  }

  /**
   * The whole ticket. Staff see everything; a member (their own ticket, from the personal list)
   * sees a deleted message as deleted, without what it said, and no message's earlier versions.
   */
  async full(row: repo.TicketRow, view: 'staff' | 'member' = 'staff'): Promise<Ticket> {
    const [server, subject, members, messages] = await Promise.all([
      this.server(row.server_id),
      this.subject(row.subject_id),
      repo.membersOf(this.db, [row.id]),
      repo.messagesOf(this.db, row.id),
    ]);
    const reactions = await this.reactionsBy(messages.map((m) => m.id));
    const attachmentIds = messages.flatMap((m) => fromJson<MessageBody>(m.body).attachments.map((a) => a.id));
    const files = await this.files.filesForAttachments(row.server_id, attachmentIds);
    const memberIds = (members.get(row.id) ?? []).filter((id) => id !== row.author_id);
    const mentioned = [row.author_id, row.assignee_id, row.closed_by, ...memberIds, ...messages.map((m) => m.author_id)].filter((x): x is string => !!x);
    return Object.assign(this.base(row, server, subject), {
      users: await this.users(mentioned),
      messages: messages.map((m) => {
        const message = this.message(m, reactions.get(m.id) ?? [], files);
        if (view === 'staff') return message;
        const hidden = message.deleted ? { message: { ...message.message, content: '', embeds: [], mentions: [], attachments: [] }, files: [], reactions: [] } : {};
        return { ...message, ...hidden, history: [] };
      }),
      members: memberIds,
      templateAnswers: fromJson<TemplateAnswer[]>(row.template_answers),
    });
  }

  async listItems(rows: lists.ListRow[], terms: string[] | null): Promise<TicketListItem[]> {
    const users = new Map(
      (await this.users(rows.flatMap((r) => [r.author_id, r.assignee_id, r.closed_by].filter((x): x is string => !!x)))).map((u) => [u.id, u]),
    );
    return rows.map((row) => {
      const ticketUsers = [row.author_id, row.assignee_id, row.closed_by].filter((x): x is string => !!x).map((id) => users.get(id)!);
      const highlights = terms ? (row.found ?? []).map((text) => highlight(text.kind as Highlight['field'], text.body, terms)).filter((h): h is Highlight => h !== null) : [];
      const server = row.server_name === null ? undefined : this.serverShape(row.server_id, row.server_name, row.server_icon);
      const subject = row.subject_name === null ? undefined : { subjectId: row.subject_id, name: row.subject_name };
      return Object.assign(this.base(row, server, subject), {
        users: [...new Map(ticketUsers.map((u) => [u.id, u])).values()],
        highlights,
        lastMessage:
          row.last_message_id && row.last_message_author && row.last_message_at
            ? { messageId: row.last_message_id, authorId: row.last_message_author, createdAt: row.last_message_at, content: row.last_message_preview ?? '' }
            : null,
        lastActivity: row.last_activity_at,
        attendees: row.attendees ? row.attendees.split(',') : [],
      });
    });
  }
}
