import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  CONFIGURATION_FORMAT,
  CONFIGURATION_VERSION,
  ConfigurationDocument,
  PanelInput,
  PLANS,
  Subject as SubjectSchema,
  type ConfigurationChanges,
  type ConfigurationSubject,
  type PlanFeature,
  type Subject,
  type UnsetId,
} from '@ticket/contracts';
import type { Kysely, Transaction } from 'kysely';
import { fromFlag, fromJson, now, toFlag, toJson } from '../../db/database';
import type { DB, PanelsTable } from '../../db/schema';
import { LimitReachedError, NotFoundError } from '../../http/errors';
import type { Caller } from '../../http/route';
import { PlatformRefusal, type PlatformClient } from '../../platform/discord';
import { unsetUnknownIds } from './configuration-ids';
import * as panelRepo from './panel-repository';
import * as repo from './repository';
import { actorOf, GATED_SETTINGS, ownSubject, planName, planOfServer, questionContent, requirePlanFeature, splitSubject, templateOf } from './service';
import { defaultSubjectSettings } from './subject-defaults';

type Db = Kysely<DB> | Transaction<DB>;
type Question = ConfigurationSubject['questions'][number];
type StoredPanel = Pick<PanelInput, 'subjects' | 'message'>;

/** One write of an import, run in order inside its transaction once every check has passed. */
type Write = (trx: Transaction<DB>) => Promise<void>;

interface Plan {
  changes: ConfigurationChanges;
  writes: Write[];
  /** Posted messages of deleted panels, taken off the platform once the import is committed. */
  unpost: { channelId: string; messageId: string }[];
}

const emptyLists = () => ({ created: [] as string[], updated: [] as string[], deleted: [] as string[], unchanged: [] as string[] });

/** The subject as the file and the comparison see it: its own values, normalised by the contract. */
const normalised = (subject: Subject): Subject => {
  const parsed = SubjectSchema.safeParse(subject);
  return parsed.success ? parsed.data : subject;
};

const sameSettings = (a: Subject, b: Subject) => isDeepStrictEqual(splitSubject(normalised(a)).settings, splitSubject(normalised(b)).settings);

/**
 * The configuration file of a server: its export, and its import into a server (maybe another),
 * checked whole before anything is written and applied in one transaction. The rules of editing
 * by hand apply (SettingsService): the contract's validation, the platform ids the server must
 * own (GuildAccess), and the plan's limits.
 */
export class ConfigurationService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly platform: PlatformClient,
  ) {}

  async export(serverId: string): Promise<ConfigurationDocument> {
    const [rows, settings, templates, panelRows] = await Promise.all([
      repo.listSubjects(this.db, [serverId]),
      repo.findServerSettings(this.db, serverId),
      repo.listTemplates(this.db, serverId),
      panelRepo.listPanels(this.db, serverId),
    ]);
    const live = new Set(rows.map((r) => r.id));
    const subjects = rows.map((row): ConfigurationSubject => {
      const { serverId: _server, deleted: _deleted, index: _index, questions: _questions, ...own } = normalised(ownSubject(row, []));
      const questions = templates
        .filter((t) => t.subject_id === row.id)
        .map((t) => {
          const { questionId: _id, serverId: _s, ...draft } = templateOf(t);
          return draft as Question;
        });
      return { ...own, inheritsFrom: own.inheritsFrom && live.has(own.inheritsFrom) ? own.inheritsFrom : null, questions };
    });
    const panels = panelRows.map((row) => {
      const content = fromJson<StoredPanel>(row.content);
      // A button of a subject deleted since opens nothing: it is left for the admin to choose again.
      const entries = content.subjects.map((e) => ({ ...e, subjectId: e.subjectId && live.has(e.subjectId) ? e.subjectId : null }));
      const panel = { type: row.type, name: row.name, draft: fromFlag(row.draft), channelId: row.channel_id, message: content.message, subjects: entries };
      // A sent panel that no longer passes the panel rules travels as a draft, as the wizard would keep it.
      return PanelInput.safeParse(panel).success ? panel : { ...panel, draft: true };
    });
    return ConfigurationDocument.parse({
      format: CONFIGURATION_FORMAT,
      version: CONFIGURATION_VERSION,
      exportedAt: now(),
      serverSettings: { language: settings?.language ?? 'en', publicStats: settings ? fromFlag(settings.public_stats) : false },
      subjects,
      panels,
    });
  }

  /** What importing the document would change; writes nothing. */
  async preview(serverId: string, doc: ConfigurationDocument): Promise<ConfigurationChanges> {
    const { doc: usable, unset } = await unsetUnknownIds(this.platform, serverId, doc);
    if (!(await repo.isServerActive(this.db, serverId))) throw new NotFoundError('The bot is not in this server');
    return (await this.planImport(this.db, null, serverId, usable, unset)).changes;
  }

  /** Imports the document: everything, or nothing when any check or write fails. */
  async apply(caller: Caller | null, serverId: string, doc: ConfigurationDocument): Promise<ConfigurationChanges> {
    // The platform is asked before the transaction: its calls are slow and nothing there is written.
    const { doc: usable, unset } = await unsetUnknownIds(this.platform, serverId, doc);
    const plan = await this.db.transaction().execute(async (trx) => {
      if (!(await repo.isServerActive(trx, serverId))) throw new NotFoundError('The bot is not in this server');
      await repo.ensureServerSettings(trx, serverId);
      await repo.findServerSettings(trx, serverId, true); // one import (or subject creation) at a time per server
      const planned = await this.planImport(trx, caller, serverId, usable, unset);
      for (const write of planned.writes) await write(trx);
      return planned;
    });
    for (const { channelId, messageId } of plan.unpost) await this.unpost(serverId, channelId, messageId);
    return { ...plan.changes, applied: true };
  }

  /** The deleted panel's message goes too, as when deleting by hand; the import stands even when the platform refuses. */
  private async unpost(serverId: string, channelId: string, messageId: string): Promise<void> {
    try {
      await this.platform.deleteMessage(channelId, messageId, serverId);
    } catch (error) {
      if (!(error instanceof PlatformRefusal)) throw error;
    }
  }

  /**
   * Compares the document with the server, checks the plan's limits, and lists the writes. Every
   * check is here, before the first write, so a refusal leaves the server as it was.
   */
  private async planImport(db: Db, caller: Caller | null, serverId: string, doc: ConfigurationDocument, unsetIds: UnsetId[]): Promise<Plan> {
    const [plan, rows, templateRows, panelRows, settingsRow] = await Promise.all([
      planOfServer(db, serverId),
      repo.listSubjects(db, [serverId]),
      repo.listTemplates(db, serverId),
      panelRepo.listPanels(db, serverId),
      repo.findServerSettings(db, serverId),
    ]);
    const limit = PLANS[plan].maxSubjects;
    if (doc.subjects.length > limit) {
      throw new LimitReachedError(
        `The ${planName(plan)} plan allows up to ${limit} subjects; the configuration has ${doc.subjects.length}. Upgrade to import it.`,
      );
    }
    const requireFeature = (feature: PlanFeature, what: string) => requirePlanFeature(plan, feature, what);

    const changes: ConfigurationChanges = { applied: false, subjects: emptyLists(), panels: emptyLists(), serverSettings: [], unsetIds };
    const writes: Write[] = [];
    const audit = (subjectId: string | null, action: repo.AuditRecord['action'], oldValue: unknown, newValue: unknown): Write => (trx) =>
      repo.insertAudit(trx, [{ id: randomUUID(), server_id: serverId, subject_id: subjectId, ...actorOf(caller), action, path: null, old_value: oldValue, new_value: newValue }]);

    // --- Subjects: matched by name; the file's ids become this server's --------------------------
    const byName = new Map(rows.map((r) => [r.name_key, r]));
    const matched = new Map<string, repo.SubjectRow>();
    const targetId = new Map<string, string>();
    for (const s of doc.subjects) {
      const row = byName.get(s.name.toLowerCase());
      if (row) matched.set(s.subjectId, row);
      targetId.set(s.subjectId, row?.id ?? randomUUID());
    }
    const kept = new Set([...matched.values()].map((r) => r.id));
    for (const row of rows.filter((r) => !kept.has(r.id))) {
      changes.subjects.deleted.push(row.name);
      writes.push((trx) => repo.updateSubject(trx, row.id, { deleted: 1 }), audit(row.id, 'subject.delete', { name: row.name }, null));
    }

    const templatesOf = (subjectId: string) => templateRows.filter((t) => t.subject_id === subjectId);
    for (const [index, s] of doc.subjects.entries()) {
      const id = targetId.get(s.subjectId)!;
      const row = matched.get(s.subjectId);
      const { questions, ...settings } = s;
      const before: Subject = row ? ownSubject(row, []) : { ...defaultSubjectSettings(s.name), subjectId: id, serverId, name: s.name, deleted: false, active: true, index, inheritsFrom: null, questions: [] };
      const next: Subject = { ...settings, subjectId: id, serverId, deleted: false, index, inheritsFrom: s.inheritsFrom ? targetId.get(s.inheritsFrom)! : null, questions: [] };

      for (const gate of GATED_SETTINGS) if (!gate.on(before) && gate.on(next)) requireFeature(gate.feature, gate.what);
      if (row && next.active && !fromFlag(row.active) && row.plan_inactive === 1) {
        throw new LimitReachedError(`The ${planName(plan)} plan allows up to ${limit} active subjects; upgrade to switch "${row.name}" on again`);
      }
      const questionWrites = this.planQuestions(serverId, id, row ? templatesOf(row.id) : [], questions, requireFeature, audit);
      const { settings: stored } = splitSubject(next);
      const fields = { name: next.name, name_key: next.name.toLowerCase(), active: toFlag(next.active), position: index, inherits_from: next.inheritsFrom ?? null, settings: stored };
      if (!row) {
        changes.subjects.created.push(next.name);
        writes.push(
          (trx) => repo.insertSubject(trx, { id, server_id: serverId, deleted: 0, ...fields }),
          audit(id, 'subject.create', null, { name: next.name }),
        );
      } else {
        const same =
          row.name === next.name &&
          fromFlag(row.active) === next.active &&
          row.position === index &&
          (row.inherits_from ?? null) === fields.inherits_from &&
          sameSettings(before, next) &&
          questionWrites.length === 0;
        if (same) {
          changes.subjects.unchanged.push(next.name);
          continue;
        }
        changes.subjects.updated.push(next.name);
        writes.push((trx) => repo.updateSubject(trx, id, fields), audit(id, 'subject.update', normalised(before), next));
      }
      writes.push(...questionWrites);
    }

    // --- Server settings ------------------------------------------------------------------------
    const current = { language: settingsRow?.language ?? 'en', publicStats: settingsRow ? fromFlag(settingsRow.public_stats) : false };
    for (const setting of ['language', 'publicStats'] as const) {
      if (current[setting] !== doc.serverSettings[setting]) changes.serverSettings.push({ setting, from: current[setting], to: doc.serverSettings[setting] });
    }
    if (changes.serverSettings.length > 0) {
      writes.push(async (trx) => {
        await repo.ensureServerSettings(trx, serverId);
        await repo.updateServerSettings(trx, serverId, doc.serverSettings);
        await repo.insertAudit(
          trx,
          changes.serverSettings.map((c) => ({ id: randomUUID(), server_id: serverId, subject_id: null, ...actorOf(caller), action: 'settings.update', path: c.setting, old_value: c.from, new_value: c.to })),
        );
      });
    }

    // --- Panels: matched by name, in order; saved as drafts, never posted -----------------------
    const unpost: Plan['unpost'] = [];
    const waiting = [...panelRows];
    for (const p of doc.panels) {
      const at = waiting.findIndex((r) => r.name === p.name);
      const row = at === -1 ? undefined : waiting.splice(at, 1)[0];
      const subjects = p.subjects.map((e) => ({ ...e, subjectId: e.subjectId ? targetId.get(e.subjectId)! : null }));
      const content = { subjects, message: p.message } as StoredPanel;
      if (!row) {
        const id = randomUUID();
        const at = now();
        changes.panels.created.push(p.name);
        const record: PanelsTable = { id, server_id: serverId, type: p.type, name: p.name, draft: 1, channel_id: p.channelId, message_id: null, content: toJson(content), last_sent: null, created_at: at, updated_at: at };
        writes.push((trx) => panelRepo.insertPanel(trx, record), audit(null, 'panel.create', null, { name: p.name, type: p.type }));
        continue;
      }
      // As saving a draft in the wizard: a message already posted stays where it is until the panel is sent again.
      const channelId = p.channelId ?? row.channel_id;
      if (row.type === p.type && row.channel_id === channelId && isDeepStrictEqual(fromJson<StoredPanel>(row.content), JSON.parse(JSON.stringify(content)))) {
        changes.panels.unchanged.push(p.name);
        continue;
      }
      changes.panels.updated.push(p.name);
      writes.push(
        (trx) => panelRepo.updatePanel(trx, row.id, { type: p.type, name: p.name, draft: 1, channel_id: channelId, content: toJson(content), updated_at: now() }),
        audit(null, 'panel.update', { name: row.name, type: row.type }, { name: p.name, type: p.type }),
      );
    }
    for (const row of waiting) {
      changes.panels.deleted.push(row.name);
      if (row.channel_id && row.message_id) unpost.push({ channelId: row.channel_id, messageId: row.message_id });
      writes.push((trx) => panelRepo.deletePanel(trx, row.id), audit(null, 'panel.delete', { name: row.name, type: row.type }, null));
    }
    return { changes, writes, unpost };
  }

  /** The form of one subject: questions matched by slug are updated, the others created, the rest deleted. */
  private planQuestions(
    serverId: string,
    subjectId: string,
    existing: { id: string; position: number; question: unknown }[],
    questions: Question[],
    requireFeature: (feature: 'forms', what: string) => void,
    audit: (subjectId: string | null, action: repo.AuditRecord['action'], oldValue: unknown, newValue: unknown) => Write,
  ): Write[] {
    const writes: Write[] = [];
    const bySlug = new Map(existing.map((t) => [fromJson<{ slug: string }>(t.question).slug.toLowerCase(), t]));
    const ordered = [...questions].sort((a, b) => a.index - b.index);
    const kept = new Set<string>();
    for (const [position, question] of ordered.entries()) {
      const content = questionContent(question);
      const row = bySlug.get(question.slug.toLowerCase());
      if (!row) {
        requireFeature('forms', 'Form questions are');
        const id = randomUUID();
        writes.push((trx) => repo.insertTemplate(trx, { id, server_id: serverId, subject_id: subjectId, position, question: content }), audit(subjectId, 'template.create', null, content));
        continue;
      }
      kept.add(row.id);
      const before = fromJson<unknown>(row.question);
      if (row.position === position && isDeepStrictEqual(before, JSON.parse(JSON.stringify(content)))) continue;
      writes.push((trx) => repo.updateTemplate(trx, row.id, { position, question: content }), audit(subjectId, 'template.update', before, content));
    }
    for (const row of existing.filter((t) => !kept.has(t.id))) {
      writes.push((trx) => repo.deleteTemplate(trx, row.id), audit(subjectId, 'template.delete', fromJson(row.question), null));
    }
    return writes;
  }
}
