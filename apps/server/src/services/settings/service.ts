import { randomUUID } from 'node:crypto';
import {
  PLANS,
  settingValueSchema,
  Subject as SubjectSchema,
  type AuditAction,
  type AuditEntry,
  type CreateServerSettingsRequest,
  type CreateTemplateRequest,
  type PagedResult,
  type PlanFeature,
  type PlanType,
  type ServerSettings,
  type SettingsUpdate,
  type Subject,
  type SubjectShort,
  type Template,
  type TemplateDraft,
  type TemplateUpdate,
  type UpdateResult,
} from '@ticket/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { z } from 'zod';
import { fromFlag, fromJson, isUniqueViolation, toFlag } from '../../db/database';
import type { DB } from '../../db/schema';
import { BadRequestError, ConflictError, LimitReachedError, NotFoundError } from '../../http/errors';
import type { Caller } from '../../http/route';
import type { GuildAccess } from '../../platform/guild-access';
import * as repo from './repository';
import { applyOperation, getAt, groupOf, normalizePermissions, resolveInheritance } from './settings-paths';
import { defaultSubjectSettings, type SubjectSettings } from './subject-defaults';

type Db = Kysely<DB> | Transaction<DB>;

const IDENTITY_FIELDS = ['subjectId', 'serverId', 'name', 'deleted', 'active', 'index', 'inheritsFrom', 'questions'] as const;

const firstIssue = (error: z.ZodError) => {
  const issue = error.issues[0]!;
  return { path: issue.path.map(String).join('.'), message: issue.message };
};

/** Features a subject setting needs, checked when the setting is switched on. */
export const GATED_SETTINGS: { feature: PlanFeature; what: string; on: (s: Subject) => boolean }[] = [
  { feature: 'forms', what: 'Requiring a form is', on: (s) => s.requireForm },
  { feature: 'autoClose', what: 'Auto-close is', on: (s) => s.automation.autoCloseTime.enabled },
  {
    feature: 'autoMention',
    what: 'Mentions on reply are',
    on: (s) => s.notifications.mentionOwnerOnReply || s.notifications.mentionClaimeeOnReply,
  },
];

/**
 * The subject as it acts on a server of that plan: a setting of a feature the plan lacks is off
 * (a plan that ended stops it), while its stored value is kept for when the server is paid again.
 */
export function subjectInEffect(subject: Subject, plan: PlanType): Subject {
  const has = PLANS[plan].features;
  return {
    ...subject,
    requireForm: subject.requireForm && has.forms,
    automation: has.autoClose ? subject.automation : { ...subject.automation, autoCloseTime: { ...subject.automation.autoCloseTime, enabled: false } },
    notifications: has.autoMention ? subject.notifications : { ...subject.notifications, mentionOwnerOnReply: false, mentionClaimeeOnReply: false },
  };
}

export const planName = (plan: PlanType) => plan.charAt(0).toUpperCase() + plan.slice(1);
export const cheapestPlanWith = (feature: PlanFeature) =>
  planName((Object.values(PLANS).find((p) => p.features[feature])?.type ?? 'enterprise') as PlanType);

/** The server's plan; one the product no longer sells counts as Free. */
export async function planOfServer(db: Db, serverId: string): Promise<PlanType> {
  const plan = await repo.serverPlan(db, serverId);
  return (plan in PLANS ? plan : 'free') as PlanType;
}

/** Refuses what the plan does not give (`what` names it: "Auto-close is"), naming the plan that does. */
export function requirePlanFeature(plan: PlanType, feature: PlanFeature, what: string): void {
  if (!PLANS[plan].features[feature]) {
    throw new LimitReachedError(`${what} part of the ${cheapestPlanWith(feature)} plan; this server is on the ${planName(plan)} plan`);
  }
}

export function actorOf(caller: Caller | null): { actor_kind: string; actor_id: string | null } {
  if (caller?.kind === 'user') return { actor_kind: 'user', actor_id: caller.userId };
  return { actor_kind: caller?.kind ?? 'admin', actor_id: caller?.kind === 'apiKey' ? caller.serverId : null };
}

/** Writes the platform payload of each message so the bot can send it as it is. */
function withSerializedMessages(settings: SubjectSettings): SubjectSettings {
  const messages = { ...settings.messages };
  for (const key of Object.keys(messages) as (keyof SubjectSettings['messages'])[]) {
    const group = messages[key];
    messages[key] = { ...group, value: { ...group.value, serialized: JSON.stringify(group.value.message) } };
  }
  return { ...settings, messages };
}

export function ownSubject(row: repo.SubjectRow, questions: string[]): Subject {
  return {
    subjectId: row.id,
    serverId: row.server_id,
    name: row.name,
    deleted: fromFlag(row.deleted),
    active: fromFlag(row.active),
    index: row.position,
    inheritsFrom: row.inherits_from,
    questions,
    ...fromJson<SubjectSettings>(row.settings),
  };
}

export function splitSubject(subject: Subject): { settings: SubjectSettings } {
  const settings = { ...subject } as Partial<Subject>;
  for (const field of IDENTITY_FIELDS) delete settings[field];
  return { settings: withSerializedMessages(settings as SubjectSettings) };
}

/** The subjects of one server as stored, and the view with inheritance applied. */
class SubjectSet {
  private readonly own = new Map<string, Subject>();
  private readonly resolved = new Map<string, Subject>();

  constructor(subjects: Subject[]) {
    for (const s of subjects) this.own.set(s.subjectId, s);
  }

  get(id: string): Subject | undefined {
    const cached = this.resolved.get(id);
    if (cached) return cached;
    const own = this.own.get(id);
    if (!own) return undefined;
    const parentId = own.inheritsFrom;
    const parentOwn = parentId ? this.own.get(parentId) : undefined;
    // A deleted parent no longer lends its values; cycles are refused on write, the guard is for safety.
    const parent = parentOwn && !parentOwn.deleted && parentId !== id ? this.get(parentOwn.subjectId) : undefined;
    const resolved = resolveInheritance(own, parent);
    this.resolved.set(id, resolved);
    return resolved;
  }

  live(): Subject[] {
    return [...this.own.values()].filter((s) => !s.deleted).map((s) => this.get(s.subjectId)!);
  }
}

async function loadSubjectSet(db: Db, serverId: string): Promise<SubjectSet> {
  const rows = await repo.listSubjects(db, [serverId], true);
  const questions = await repo.templateIdsBySubject(db, rows.map((r) => r.id));
  return new SubjectSet(rows.map((r) => ownSubject(r, questions.get(r.id) ?? [])));
}

/**
 * Staff roles of each server's active subjects, inheritance applied: who is Staff (SPEC §6) and
 * in which subjects they may act. Used by sign-in and by `subjects/me`.
 */
export async function staffSubjectsByServer(db: Db, serverIds: string[]): Promise<Map<string, { subjectId: string; roleIds: Set<string> }[]>> {
  const rows = await repo.listSubjects(db, serverIds, true);
  const byServer = new Map<string, Subject[]>();
  for (const row of rows) byServer.set(row.server_id, [...(byServer.get(row.server_id) ?? []), ownSubject(row, [])]);
  const result = new Map<string, { subjectId: string; roleIds: Set<string> }[]>();
  for (const [serverId, subjects] of byServer) {
    const set = new SubjectSet(subjects);
    const staff = set
      .live()
      .filter((s) => s.active)
      .map((s) => ({ subjectId: s.subjectId, roleIds: new Set(s.staffRoles.value) }));
    result.set(serverId, staff);
  }
  return result;
}

const shortOf = (s: Subject): SubjectShort => ({ subjectId: s.subjectId, serverId: s.serverId, name: s.name, deleted: s.deleted });

export const templateOf = (row: { id: string; server_id: string; position: number; question: unknown }): Template =>
  ({ ...fromJson<Omit<Template, 'questionId' | 'serverId' | 'index'>>(row.question), index: row.position, questionId: row.id, serverId: row.server_id }) as Template;

export const questionContent = (t: TemplateDraft | TemplateUpdate) => {
  const { index: _index, ...rest } = t as TemplateDraft & { questionId?: string };
  delete (rest as { questionId?: string }).questionId;
  return rest;
};

/** Ids that differ between two lists: the ones a change brought in. */
const added = (before: string[], after: string[]) => after.filter((id) => !before.includes(id));

export class SettingsService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly guilds: GuildAccess,
  ) {}

  /**
   * The platform ids a subject change brings in must be the server's own, because the bot acts on
   * them: it posts to the log channel, files ticket channels under the categories, and gives the
   * staff roles access to ticket channels.
   */
  private async assertOwnIds(serverId: string, before: Subject, next: Subject, at: string): Promise<void> {
    const log = next.logging.channelId;
    if (log && log !== before.logging.channelId) await this.guilds.assertPostable(serverId, log, `${at}.value`, 'The log channel');
    const categories = (s: Subject) => [...s.categories.waitingForStaff, ...s.categories.waitingForUser].map((c) => c.id);
    await this.guilds.assertCategories(serverId, added(categories(before), categories(next)), `${at}.value`);
    await this.guilds.assertRoles(serverId, added(before.staffRoles.value, next.staffRoles.value), `${at}.value`);
  }

  private async plan(db: Db, serverId: string): Promise<PlanType> {
    return planOfServer(db, serverId);
  }

  private async requireFeature(db: Db, serverId: string, feature: PlanFeature, what: string): Promise<void> {
    requirePlanFeature(await this.plan(db, serverId), feature, what);
  }

  private async requireActiveServer(db: Db, serverId: string): Promise<void> {
    if (!(await repo.isServerActive(db, serverId))) throw new NotFoundError('The bot is not in this server');
  }

  // --- Subjects -----------------------------------------------------------------------------

  async listSubjects(serverId: string): Promise<Subject[]> {
    return (await loadSubjectSet(this.db, serverId)).live();
  }

  async getSubject(serverId: string, subjectId: string): Promise<Subject> {
    const subject = (await loadSubjectSet(this.db, serverId)).get(subjectId);
    if (!subject || subject.deleted) throw new NotFoundError(`No subject ${subjectId} in this server`);
    return subject;
  }

  /** The subject as the bot acts on it: plan-gated settings are off while the server's plan lacks them. */
  async getSubjectInEffect(serverId: string, subjectId: string): Promise<Subject> {
    const [subject, plan] = await Promise.all([this.getSubject(serverId, subjectId), this.plan(this.db, serverId)]);
    return subjectInEffect(subject, plan);
  }

  async subjectsBulk(ids: string[]): Promise<Subject[]> {
    const rows = await repo.findSubjectsByIds(this.db, ids);
    const servers = [...new Set(rows.map((r) => r.server_id))];
    const sets = new Map(await Promise.all(servers.map(async (id) => [id, await loadSubjectSet(this.db, id)] as const)));
    return rows.flatMap((r) => sets.get(r.server_id)?.get(r.id) ?? []);
  }

  /** The subjects the caller may act in: all for admins, keys and operators; those naming one of their roles for staff. */
  async mySubjects(caller: Caller | null, serverId: string, role: string | null): Promise<SubjectShort[]> {
    const live = (await this.listSubjects(serverId)).filter((s) => s.active);
    if (caller?.kind !== 'user' || role === 'Owner' || role === 'Admin') return live.map(shortOf);
    const held = new Set(await repo.memberRoleIds(this.db, caller.userId, serverId));
    return live.filter((s) => s.staffRoles.value.some((r) => held.has(r))).map(shortOf);
  }

  async createSubject(caller: Caller | null, serverId: string, name: string): Promise<Subject> {
    const subjectId = randomUUID();
    try {
      await this.db.transaction().execute(async (trx) => {
        await this.requireActiveServer(trx, serverId);
        await repo.ensureServerSettings(trx, serverId);
        await repo.findServerSettings(trx, serverId, true); // serialises creations per server
        const plan = await this.plan(trx, serverId);
        const count = await repo.countLiveSubjects(trx, serverId);
        const limit = PLANS[plan].maxSubjects;
        if (count >= limit) {
          throw new LimitReachedError(`The ${planName(plan)} plan allows up to ${limit} subjects; this server has ${count}. Upgrade to create more.`);
        }
        await this.assertNameFree(trx, serverId, name, null);
        const settings = withSerializedMessages(defaultSubjectSettings(name));
        await repo.insertSubject(trx, {
          id: subjectId,
          server_id: serverId,
          name,
          name_key: name.toLowerCase(),
          deleted: 0,
          active: 1,
          position: count,
          inherits_from: null,
          settings,
        });
        await this.audit(trx, caller, serverId, subjectId, 'subject.create', null, null, { name });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(`A subject named "${name}" already exists in this server`, 'body.name');
      throw error;
    }
    return this.getSubject(serverId, subjectId);
  }

  private async assertNameFree(db: Db, serverId: string, name: string, exceptId: string | null): Promise<void> {
    if (await repo.liveSubjectNamed(db, serverId, name.toLowerCase(), exceptId)) throw new ConflictError(`A subject named "${name}" already exists in this server`, 'body.name');
  }

  async deleteSubject(caller: Caller | null, serverId: string, subjectId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await repo.findSubject(trx, serverId, subjectId, true);
      if (!row || fromFlag(row.deleted)) throw new NotFoundError(`No subject ${subjectId} in this server`);
      await repo.updateSubject(trx, subjectId, { deleted: 1 });
      const live = (await repo.listSubjects(trx, [serverId])).map((r) => r.id);
      await repo.setPositions(trx, live);
      await this.audit(trx, caller, serverId, subjectId, 'subject.delete', null, { name: row.name }, null);
    });
  }

  async updateSubject(caller: Caller | null, serverId: string, subjectId: string, update: SettingsUpdate): Promise<UpdateResult> {
    if (update.subjectId !== subjectId) {
      throw new BadRequestError('subjectId in the body must match the subject in the path', 'body.subjectId');
    }
    const [result] = await this.applyUpdates(caller, serverId, [update], 'body');
    return result!;
  }

  async bulkUpdate(caller: Caller | null, serverId: string, updates: SettingsUpdate[]): Promise<UpdateResult[]> {
    return this.applyUpdates(caller, serverId, updates, 'body.updates');
  }

  /** Applies updates in order, all or none, and answers the value now in effect at each path. */
  private async applyUpdates(caller: Caller | null, serverId: string, updates: SettingsUpdate[], field: string): Promise<UpdateResult[]> {
    const touched: { subjectId: string; path: string }[] = [];
    await this.db.transaction().execute(async (trx) => {
      for (const [i, update] of updates.entries()) {
        const at = field === 'body' ? 'body' : `${field}.${i}`;
        if (update.serverId !== serverId) throw new BadRequestError('serverId in the body must match the server in the path', `${at}.serverId`);
        if (update.subjectId === '') {
          await this.applyServerUpdate(trx, caller, serverId, update, at);
        } else {
          await this.applySubjectUpdate(trx, caller, serverId, update, at);
        }
        touched.push({ subjectId: update.subjectId, path: update.path });
      }
    });
    const set = await loadSubjectSet(this.db, serverId);
    const serverSettings = await this.getServerSettings(serverId);
    return touched.map(({ subjectId, path }) => {
      if (subjectId === '') return { path, value: getAt(serverSettings, path) ?? null, inherits: false };
      const resolved = set.get(subjectId)!;
      const group = groupOf(path);
      const inherits = group !== undefined && path !== `${group}.inherits` && resolved.inheritsFrom != null && getAt(resolved, `${group}.inherits`) === true;
      return { path, value: getAt(resolved, path) ?? null, inherits };
    });
  }

  private parseValue(scope: 'server' | 'subject', update: SettingsUpdate, at: string): unknown {
    // Removing by key needs only the key, not a whole valid element.
    if (update.operation === 'remove' && update.filterKey && settingValueSchema(scope, update.path, 'remove')) {
      const value = update.value;
      if (value !== null && typeof value === 'object' && !(update.filterKey in value)) {
        throw new BadRequestError(`value must carry "${update.filterKey}" to remove by it`, `${at}.value`);
      }
      return value;
    }
    const schema = settingValueSchema(scope, update.path, update.operation);
    if (!schema) {
      if (update.operation !== 'set' && settingValueSchema(scope, update.path, 'set')) {
        throw new BadRequestError(`"${update.path}" is not a list; use the set operation`, `${at}.operation`);
      }
      throw new BadRequestError(`Unknown or read-only setting "${update.path}"`, `${at}.path`);
    }
    const parsed = schema.safeParse(update.value);
    if (!parsed.success) {
      const issue = firstIssue(parsed.error);
      throw new BadRequestError(`${update.path}${issue.path ? `.${issue.path}` : ''}: ${issue.message}`, `${at}.value`);
    }
    return parsed.data;
  }

  private async applySubjectUpdate(trx: Transaction<DB>, caller: Caller | null, serverId: string, update: SettingsUpdate, at: string): Promise<void> {
    const value = this.parseValue('subject', update, at);
    const row = await repo.findSubject(trx, serverId, update.subjectId, true);
    if (!row || fromFlag(row.deleted)) throw new NotFoundError(`No subject ${update.subjectId} in this server`);
    const questions = (await repo.templateIdsBySubject(trx, [row.id])).get(row.id) ?? [];
    const before = ownSubject(row, questions);
    let next = applyOperation(before, update.path, update.operation, value, update.filterKey) as Subject;
    next = normalizePermissions(next, update.path) as Subject;
    const checked = SubjectSchema.safeParse(next);
    if (!checked.success) {
      const issue = firstIssue(checked.error);
      throw new BadRequestError(`${issue.path}: ${issue.message}`, `${at}.value`);
    }
    next = checked.data;

    for (const gate of GATED_SETTINGS) {
      if (!gate.on(before) && gate.on(next)) await this.requireFeature(trx, serverId, gate.feature, gate.what);
    }
    // A subject the plan's end switched off comes back when the server is paid for again, not by hand.
    if (next.active && !before.active && row.plan_inactive === 1) {
      const plan = await this.plan(trx, serverId);
      throw new LimitReachedError(`The ${planName(plan)} plan allows up to ${PLANS[plan].maxSubjects} active subjects; upgrade to switch this one on again`);
    }
    if (next.name !== before.name) await this.assertNameFree(trx, serverId, next.name, row.id);
    await this.assertOwnIds(serverId, before, next, at);
    if (next.inheritsFrom !== before.inheritsFrom && next.inheritsFrom) await this.assertNoCycle(trx, serverId, row.id, next.inheritsFrom, at);

    const { settings } = splitSubject(next);
    await repo.updateSubject(trx, row.id, {
      name: next.name,
      name_key: next.name.toLowerCase(),
      active: toFlag(next.active),
      inherits_from: next.inheritsFrom ?? null,
      settings,
    });
    if (next.index !== before.index) {
      const order = (await repo.listSubjects(trx, [serverId])).map((r) => r.id).filter((id) => id !== row.id);
      order.splice(Math.min(next.index, order.length), 0, row.id);
      await repo.setPositions(trx, order);
    }
    await this.audit(trx, caller, serverId, row.id, 'subject.update', update.path, getAt(before, update.path), getAt(next, update.path));
  }

  private async assertNoCycle(db: Db, serverId: string, subjectId: string, parentId: string, at: string): Promise<void> {
    const rows = await repo.listSubjects(db, [serverId], true);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const parent = byId.get(parentId);
    if (!parent || fromFlag(parent.deleted)) throw new BadRequestError(`inheritsFrom: no subject ${parentId} in this server`, `${at}.value`);
    const seen = new Set([subjectId]);
    for (let id: string | null = parentId; id; id = byId.get(id)?.inherits_from ?? null) {
      if (seen.has(id)) throw new BadRequestError(`inheritsFrom: inheriting from "${parent.name}" would create a cycle`, `${at}.value`);
      seen.add(id);
    }
  }

  // --- Server settings ----------------------------------------------------------------------

  private async serverSettingsOf(db: Db, serverIds: string[]): Promise<ServerSettings[]> {
    const [rows, subjects, plans] = await Promise.all([
      repo.listServerSettings(db, serverIds),
      repo.listSubjects(db, serverIds),
      repo.serverPlans(db, serverIds),
    ]);
    return rows.map((row) => ({
      serverId: row.server_id,
      language: row.language,
      publicStats: fromFlag(row.public_stats),
      subjects: subjects.filter((s) => s.server_id === row.server_id).map((s) => ({ subjectId: s.id, serverId: s.server_id, name: s.name, deleted: false })),
      subscription: (plans.get(row.server_id) ?? 'free') as PlanType,
    }));
  }

  async createServerSettings(caller: Caller | null, serverId: string, request: CreateServerSettingsRequest): Promise<ServerSettings> {
    await this.db.transaction().execute(async (trx) => {
      await this.requireActiveServer(trx, serverId);
      if (await repo.findServerSettings(trx, serverId)) throw new ConflictError('This server already has settings; change them with PATCH');
      await repo.ensureServerSettings(trx, serverId, request.language ?? 'en');
      await this.audit(trx, caller, serverId, null, 'settings.create', null, null, { language: request.language ?? 'en' });
    });
    return this.getServerSettings(serverId);
  }

  /** A server without stored settings has the defaults. */
  async getServerSettings(serverId: string): Promise<ServerSettings> {
    const [stored] = await this.serverSettingsOf(this.db, [serverId]);
    if (stored) return stored;
    const subjects = await repo.listSubjects(this.db, [serverId]);
    return {
      serverId,
      language: 'en',
      publicStats: false,
      subjects: subjects.map((s) => ({ subjectId: s.id, serverId, name: s.name, deleted: false })),
      subscription: await this.plan(this.db, serverId),
    };
  }

  async updateServerSettings(caller: Caller | null, serverId: string, update: SettingsUpdate): Promise<UpdateResult> {
    const [result] = await this.applyUpdates(caller, serverId, [{ ...update, subjectId: '' }], 'body');
    return result!;
  }

  private async applyServerUpdate(trx: Transaction<DB>, caller: Caller | null, serverId: string, update: SettingsUpdate, at: string): Promise<void> {
    const value = this.parseValue('server', update, at);
    await this.requireActiveServer(trx, serverId);
    await repo.ensureServerSettings(trx, serverId);
    const row = await repo.findServerSettings(trx, serverId, true);
    const before = { language: row!.language, publicStats: fromFlag(row!.public_stats) };
    const next = applyOperation(before, update.path, update.operation, value, update.filterKey) as typeof before;
    await repo.updateServerSettings(trx, serverId, next);
    await this.audit(trx, caller, serverId, null, 'settings.update', update.path, getAt(before, update.path), getAt(next, update.path));
  }

  /** The language the bot speaks on this server where a subject does not choose one. */
  async serverLanguage(serverId: string): Promise<string> {
    return (await repo.findServerSettings(this.db, serverId))?.language ?? 'en';
  }

  async settingsBulk(serverIds: string[]): Promise<ServerSettings[]> {
    return this.serverSettingsOf(this.db, serverIds);
  }

  async allSettings(page: number, amount: number): Promise<PagedResult<ServerSettings>> {
    const { rows, total } = await repo.pageServerSettings(this.db, (page - 1) * amount, amount);
    const elements = await this.serverSettingsOf(this.db, rows.map((r) => r.server_id));
    return { page, maxPage: Math.max(1, Math.ceil(total / amount)), elements };
  }

  // --- Templates (form questions) -----------------------------------------------------------

  async listTemplates(serverId: string, subjectId?: string): Promise<Template[]> {
    return (await repo.listTemplates(this.db, serverId, subjectId)).map(templateOf);
  }

  async getTemplate(serverId: string, templateId: string): Promise<Template> {
    const row = await repo.findTemplate(this.db, serverId, templateId);
    if (!row) throw new NotFoundError(`No form question ${templateId} in this server`);
    return templateOf(row);
  }

  private async assertSlugFree(db: Db, serverId: string, subjectId: string, slug: string, exceptId: string | null, field: string): Promise<void> {
    const taken = (await repo.listTemplates(db, serverId, subjectId)).some(
      (t) => t.id !== exceptId && fromJson<{ slug: string }>(t.question).slug.toLowerCase() === slug.toLowerCase(),
    );
    if (taken) throw new ConflictError(`A question with the slug "${slug}" already exists in this subject`, field);
  }

  /** Puts the question at its index within the subject's form and renumbers the rest. */
  private async placeTemplate(db: Db, serverId: string, subjectId: string, templateId: string, index: number): Promise<void> {
    const order = (await repo.listTemplates(db, serverId, subjectId)).map((t) => t.id).filter((id) => id !== templateId);
    order.splice(Math.min(index, order.length), 0, templateId);
    await repo.setTemplatePositions(db, order);
  }

  async createTemplate(caller: Caller | null, serverId: string, { template, subjectId }: CreateTemplateRequest): Promise<Template> {
    const id = randomUUID();
    await this.db.transaction().execute(async (trx) => {
      await this.requireFeature(trx, serverId, 'forms', 'Form questions are');
      const subject = await repo.findSubject(trx, serverId, subjectId, true);
      if (!subject || fromFlag(subject.deleted)) throw new NotFoundError(`No subject ${subjectId} in this server`);
      await this.assertSlugFree(trx, serverId, subjectId, template.slug, null, 'body.template.slug');
      const count = (await repo.listTemplates(trx, serverId, subjectId)).length;
      await repo.insertTemplate(trx, { id, server_id: serverId, subject_id: subjectId, position: count, question: questionContent(template) });
      await this.placeTemplate(trx, serverId, subjectId, id, template.index);
      await this.audit(trx, caller, serverId, subjectId, 'template.create', null, null, questionContent(template));
    });
    return this.getTemplate(serverId, id);
  }

  async updateTemplate(caller: Caller | null, serverId: string, templateId: string, draft: TemplateDraft): Promise<Template> {
    await this.db.transaction().execute((trx) => this.writeTemplate(trx, caller, serverId, templateId, draft, 'body'));
    return this.getTemplate(serverId, templateId);
  }

  async updateTemplatesBulk(caller: Caller | null, serverId: string, updates: TemplateUpdate[]): Promise<Template[]> {
    await this.db.transaction().execute(async (trx) => {
      for (const [i, update] of updates.entries()) await this.writeTemplate(trx, caller, serverId, update.questionId, update, `body.${i}`);
    });
    return this.listTemplates(serverId).then((all) => all.filter((t) => updates.some((u) => u.questionId === t.questionId)));
  }

  private async writeTemplate(trx: Transaction<DB>, caller: Caller | null, serverId: string, templateId: string, draft: TemplateDraft | TemplateUpdate, field: string): Promise<void> {
    const row = await repo.findTemplate(trx, serverId, templateId);
    if (!row) throw new NotFoundError(`No form question ${templateId} in this server`);
    await this.assertSlugFree(trx, serverId, row.subject_id, draft.slug, templateId, `${field}.slug`);
    const before = fromJson<unknown>(row.question);
    await repo.updateTemplate(trx, templateId, { position: row.position, question: questionContent(draft) });
    if (draft.index !== row.position) await this.placeTemplate(trx, serverId, row.subject_id, templateId, draft.index);
    await this.audit(trx, caller, serverId, row.subject_id, 'template.update', null, before, questionContent(draft));
  }

  async deleteTemplate(caller: Caller | null, serverId: string, templateId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await repo.findTemplate(trx, serverId, templateId);
      if (!row) throw new NotFoundError(`No form question ${templateId} in this server`);
      await repo.deleteTemplate(trx, templateId);
      const rest = (await repo.listTemplates(trx, serverId, row.subject_id)).map((t) => t.id);
      await repo.setTemplatePositions(trx, rest);
      await this.audit(trx, caller, serverId, row.subject_id, 'template.delete', null, fromJson(row.question), null);
    });
  }

  // --- Audit log ----------------------------------------------------------------------------

  private async audit(db: Db, caller: Caller | null, serverId: string, subjectId: string | null, action: AuditAction, path: string | null, oldValue: unknown, newValue: unknown): Promise<void> {
    await repo.insertAudit(db, [
      { id: randomUUID(), server_id: serverId, subject_id: subjectId, ...actorOf(caller), action, path, old_value: oldValue ?? null, new_value: newValue ?? null },
    ]);
  }

  async auditLog(serverId: string, page: number, amount: number, subjectId?: string): Promise<PagedResult<AuditEntry>> {
    const { rows, total } = await repo.pageAudit(this.db, serverId, subjectId, (page - 1) * amount, amount);
    return {
      page,
      maxPage: Math.max(1, Math.ceil(total / amount)),
      elements: rows.map((r) => ({
        id: r.id,
        serverId: r.server_id,
        subjectId: r.subject_id,
        subjectName: r.subject_name ?? null,
        actor: {
          kind: r.actor_kind as AuditEntry['actor']['kind'],
          id: r.actor_kind === 'user' ? r.actor_id : null,
          name: r.actor_global_name ?? r.actor_name ?? null,
        },
        action: r.action as AuditAction,
        path: r.path,
        oldValue: r.old_value === null ? null : fromJson<{ v: unknown }>(r.old_value).v,
        newValue: r.new_value === null ? null : fromJson<{ v: unknown }>(r.new_value).v,
        createdAt: r.created_at,
      })),
    };
  }
}
