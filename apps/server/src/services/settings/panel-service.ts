import { randomUUID } from 'node:crypto';
import type { Panel, PanelInput } from '@ticket/contracts';
import type { Kysely } from 'kysely';
import { fromFlag, fromJson, now, toFlag, toJson } from '../../db/database';
import type { DB, PanelsTable } from '../../db/schema';
import { AppError, BadRequestError, NotFoundError } from '../../http/errors';
import type { Caller } from '../../http/route';
import { PlatformRefusal, type PlatformClient } from '../../platform/discord';
import { GuildAccess } from '../../platform/guild-access';
import * as panels from './panel-repository';
import { insertAudit, liveSubjectIds } from './repository';
import { toPlatformMessage, type PanelShape } from './panel-message';

type Stored = Pick<PanelInput, 'subjects' | 'message'>;

/** A panel that passed the rules has a message (the rules require one before anything is posted). */
const shape = (id: string, input: Pick<PanelInput, 'type' | 'subjects' | 'message'>): PanelShape =>
  ({ id, type: input.type, subjects: input.subjects, message: input.message! }) as PanelShape;

/** What the user reads when the platform refuses: the action, then the reason in plain words. */
function refusal(action: 'create' | 'update' | 'resend' | 'delete', error: PlatformRefusal): AppError {
  const reasons: Record<number, string> = {
    50001: 'the bot cannot see that channel (Missing Access)',
    50013: 'the bot is not allowed to post in that channel (Missing Permissions)',
    10003: 'the channel no longer exists',
    50008: 'messages cannot be sent in that kind of channel',
  };
  const reason = reasons[error.code] ?? `the chat platform refused the message (${error.message})`;
  return new AppError(502, 'platform_refused', `Failed to ${action} panel: ${reason}`);
}

export class PanelService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly platform: PlatformClient,
  ) {}

  private toPanel(row: PanelsTable): Panel {
    const content = fromJson<Stored>(row.content);
    return {
      id: row.id,
      serverId: row.server_id,
      type: row.type,
      name: row.name,
      draft: fromFlag(row.draft),
      subjects: content.subjects,
      message: content.message,
      integrationDetails: { channelId: row.channel_id, serverId: row.server_id, messageId: row.message_id },
      lastSent: row.last_sent,
    } as Panel;
  }

  private async row(serverId: string, id: string): Promise<PanelsTable> {
    const row = await panels.findPanel(this.db, serverId, id);
    if (!row) throw new NotFoundError(`No panel ${id} in this server`);
    return row;
  }

  async list(serverId: string): Promise<Panel[]> {
    const rows = await panels.listPanels(this.db, serverId);
    return rows.map((r) => this.toPanel(r));
  }

  async get(serverId: string, id: string): Promise<Panel> {
    return this.toPanel(await this.row(serverId, id));
  }

  /** The server-side half of the panel rules: the subjects and the channel must be this server's. */
  private async check(serverId: string, input: PanelInput): Promise<void> {
    const ids = [...new Set(input.subjects.flatMap((s) => (s.subjectId ? [s.subjectId] : [])))];
    if (ids.length > 0) {
      const known = new Set(await liveSubjectIds(this.db, serverId, ids));
      const index = input.subjects.findIndex((s) => s.subjectId && !known.has(s.subjectId));
      if (index !== -1) {
        const what = input.type === 'BUTTON' ? 'Button' : 'Option';
        throw new BadRequestError(`${what} ${index + 1} opens a subject that does not exist in this server`, `body.subjects.${index}.subjectId`);
      }
    }
    if (input.channelId) await new GuildAccess(this.platform).assertPostable(serverId, input.channelId, 'body.channelId');
  }

  private async audit(caller: Caller | null, serverId: string, action: 'panel.create' | 'panel.update' | 'panel.delete' | 'panel.resend', before: unknown, after: unknown) {
    await insertAudit(this.db, [
      {
        id: randomUUID(),
        server_id: serverId,
        subject_id: null,
        actor_kind: caller?.kind ?? 'admin',
        actor_id: caller?.kind === 'user' ? caller.userId : null,
        action,
        path: null,
        old_value: before,
        new_value: after,
      },
    ]);
  }

  /** Posts as the server's own bot (its white-label bot while one runs), never by guesswork from the channel. */
  private async post(
    action: 'create' | 'update' | 'resend',
    serverId: string,
    panelId: string,
    input: Pick<PanelInput, 'type' | 'subjects' | 'message'>,
    channelId: string,
  ) {
    try {
      return await this.platform.postMessage(channelId, toPlatformMessage(shape(panelId, input)), serverId);
    } catch (error) {
      if (error instanceof PlatformRefusal) throw refusal(action, error);
      throw error;
    }
  }

  /** Removes a posted message; one that is already gone is fine. */
  private async unpost(action: 'update' | 'resend' | 'delete', serverId: string, channelId: string | null, messageId: string | null): Promise<void> {
    if (!channelId || !messageId) return;
    try {
      await this.platform.deleteMessage(channelId, messageId, serverId);
    } catch (error) {
      if (error instanceof PlatformRefusal) {
        if (error.gone) return;
        throw refusal(action, error);
      }
      throw error;
    }
  }

  async create(caller: Caller | null, serverId: string, input: PanelInput): Promise<Panel> {
    await this.check(serverId, input);
    const id = randomUUID();
    const sent = input.draft ? null : await this.post('create', serverId, id, input, input.channelId!);
    const at = now();
    try {
      await panels.insertPanel(this.db, {
        id,
        server_id: serverId,
        type: input.type,
        name: input.name,
        draft: toFlag(input.draft),
        channel_id: input.channelId,
        message_id: sent?.id ?? null,
        content: toJson({ subjects: input.subjects, message: input.message }),
        last_sent: sent ? at : null,
        created_at: at,
        updated_at: at,
      });
    } catch (error) {
      // Nothing half-done: a message without its panel would open tickets nobody can manage.
      if (sent) await this.unpost('delete', serverId, input.channelId, sent.id).catch(() => undefined);
      throw error;
    }
    const panel = await this.get(serverId, id);
    await this.audit(caller, serverId, 'panel.create', null, panel);
    return panel;
  }

  async update(caller: Caller | null, serverId: string, id: string, input: PanelInput): Promise<Panel> {
    const row = await this.row(serverId, id);
    await this.check(serverId, input);
    const before = this.toPanel(row);
    let messageId = row.message_id;
    let channelId = input.channelId;
    let lastSent = row.last_sent;
    if (!input.draft) {
      const payload = toPlatformMessage(shape(id, input));
      if (messageId && row.channel_id === input.channelId) {
        try {
          await this.platform.editMessage(row.channel_id!, messageId, payload, serverId);
          lastSent = now();
        } catch (error) {
          if (!(error instanceof PlatformRefusal)) throw error;
          if (!error.gone) throw refusal('update', error);
          messageId = null; // deleted on the platform: post it again below
        }
      } else if (messageId) {
        await this.unpost('update', serverId, row.channel_id, messageId);
        messageId = null;
      }
      if (!messageId) {
        messageId = (await this.post('update', serverId, id, input, input.channelId!)).id;
        lastSent = now();
      }
    } else {
      channelId = input.channelId ?? row.channel_id;
    }
    await panels.updatePanel(this.db, id, {
      type: input.type,
      name: input.name,
      draft: toFlag(input.draft),
      channel_id: channelId,
      message_id: messageId,
      content: toJson({ subjects: input.subjects, message: input.message }),
      last_sent: lastSent,
      updated_at: now(),
    });
    const panel = await this.get(serverId, id);
    await this.audit(caller, serverId, 'panel.update', before, panel);
    return panel;
  }

  async resend(caller: Caller | null, serverId: string, id: string): Promise<Panel> {
    const panel = await this.get(serverId, id);
    if (panel.draft || !panel.integrationDetails.channelId || !panel.message) {
      throw new BadRequestError('Only a sent panel can be resent; save it with a channel and a message first');
    }
    const sent = await this.post('resend', serverId, id, panel, panel.integrationDetails.channelId);
    await this.unpost('resend', serverId, panel.integrationDetails.channelId, panel.integrationDetails.messageId);
    await panels.updatePanel(this.db, id, { message_id: sent.id, last_sent: now(), updated_at: now() });
    await this.audit(caller, serverId, 'panel.resend', null, { messageId: sent.id });
    return this.get(serverId, id);
  }

  async delete(caller: Caller | null, serverId: string, id: string): Promise<void> {
    const row = await this.row(serverId, id);
    await this.unpost('delete', serverId, row.channel_id, row.message_id);
    await panels.deletePanel(this.db, id);
    await this.audit(caller, serverId, 'panel.delete', this.toPanel(row), null);
  }
}
