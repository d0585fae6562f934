import type { Attachment, EmojiRef, Embed, PlatformEvent } from '@ticket/contracts';

interface InChannel {
  guildId: string;
  channelId: string;
}

interface OnMessage extends InChannel {
  /** The platform's message id. */
  messageId: string;
}

/**
 * What the runtime has to tell the Ticket API, as kept in the queue. Channel reports are checked
 * against the server's ticket channels when sent (the set may have changed since).
 */
export type Report =
  | (OnMessage & {
      kind: 'messageCreated';
      authorId: string;
      content: string;
      embeds: Embed[];
      mentions: string[];
      attachments: Attachment[];
      /** The platform message this one answers. */
      replyTo: string | null;
    })
  | (OnMessage & { kind: 'messageUpdated'; content: string; embeds: Embed[] })
  | (OnMessage & { kind: 'messageDeleted' })
  | (OnMessage & { kind: 'reactionAdded'; userId: string; emoji: EmojiRef })
  | (OnMessage & { kind: 'reactionRemoved'; userId: string; emoji: EmojiRef })
  /** Every reaction of the message (emoji null), or every reaction with one emoji. */
  | (OnMessage & { kind: 'reactionsCleared'; emoji: EmojiRef | null })
  /** A copy of an attachment for the files service; sent once its message is recorded. */
  | (InChannel & { kind: 'fileCloned'; fileName: string; url: string })
  /** Who deleted the channel is read from the audit log when the report is sent. */
  | (InChannel & { kind: 'channelDeleted'; eventId: string })
  | { kind: 'serverEvent'; guildId: string; event: Exclude<PlatformEvent, { type: 'channelDeleted' }> };

export type ReportKind = Report['kind'];

/**
 * Reports of one lane are sent in order: a channel's (its messages' creation before their edits),
 * or a server's events.
 */
export function laneOf(report: Report): string {
  return report.kind === 'serverEvent' ? `guild:${report.guildId}` : `channel:${report.channelId}`;
}
