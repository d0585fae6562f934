import { z } from 'zod';
import { defineCall, IsoDateTime, ServerIdParams, Snowflake, SubjectId } from './common';
import { PLANS } from './payment';
import { PanelInput, ServerSettings, Subject, TemplateDraft } from './settings';

// ---------------------------------------------------------------------------------------------
// The configuration file: a server's subjects, form questions, panels and server settings
// ---------------------------------------------------------------------------------------------

export const CONFIGURATION_FORMAT = 'ticket-dashboard-configuration';
export const CONFIGURATION_VERSION = 1;

/** A subject as the file carries it: every setting, and its form questions in order. */
export const ConfigurationSubject = Subject.omit({ serverId: true, deleted: true, index: true, questions: true }).extend({
  subjectId: SubjectId.describe('The subject’s id in the file: panels and inheritsFrom refer to it; the server it is imported into gives it its own'),
  questions: z.array(TemplateDraft).max(100).describe('The subject’s form questions, in order'),
});
export type ConfigurationSubject = z.infer<typeof ConfigurationSubject>;

export const ConfigurationServerSettings = ServerSettings.pick({ language: true, publicStats: true });
export type ConfigurationServerSettings = z.infer<typeof ConfigurationServerSettings>;

const lower = (name: string) => name.trim().toLowerCase();

/** The rules that span the file: unique names and ids, and references that lead somewhere. */
function documentProblems(doc: { subjects: ConfigurationSubject[]; panels: PanelInput[] }, ctx: z.RefinementCtx): void {
  const ids = new Map<string, number>();
  const names = new Set<string>();
  doc.subjects.forEach((subject, i) => {
    if (ids.has(subject.subjectId)) ctx.addIssue({ code: 'custom', path: ['subjects', i, 'subjectId'], message: `Subject id ${subject.subjectId} appears twice` });
    ids.set(subject.subjectId, i);
    if (names.has(lower(subject.name))) ctx.addIssue({ code: 'custom', path: ['subjects', i, 'name'], message: `A subject named "${subject.name}" appears twice` });
    names.add(lower(subject.name));
    const slugs = new Set<string>();
    subject.questions.forEach((question, q) => {
      if (slugs.has(question.slug.toLowerCase())) {
        ctx.addIssue({ code: 'custom', path: ['subjects', i, 'questions', q, 'slug'], message: `A question with the slug "${question.slug}" appears twice in this subject` });
      }
      slugs.add(question.slug.toLowerCase());
    });
  });
  doc.subjects.forEach((subject, i) => {
    if (!subject.inheritsFrom) return;
    if (!ids.has(subject.inheritsFrom)) {
      ctx.addIssue({ code: 'custom', path: ['subjects', i, 'inheritsFrom'], message: `No subject ${subject.inheritsFrom} in the file` });
      return;
    }
    const seen = new Set([subject.subjectId]);
    for (let at: string | null | undefined = subject.inheritsFrom; at; at = doc.subjects[ids.get(at) ?? -1]?.inheritsFrom) {
      if (seen.has(at)) {
        ctx.addIssue({ code: 'custom', path: ['subjects', i, 'inheritsFrom'], message: `Inheriting from ${subject.inheritsFrom} makes a cycle` });
        return;
      }
      seen.add(at);
    }
  });
  doc.panels.forEach((panel, p) => {
    panel.subjects.forEach((entry, e) => {
      if (entry.subjectId && !ids.has(entry.subjectId)) {
        ctx.addIssue({ code: 'custom', path: ['panels', p, 'subjects', e, 'subjectId'], message: `No subject ${entry.subjectId} in the file` });
      }
    });
  });
}

/**
 * A server's whole configuration in one file, as the export gives it and the import takes it.
 * Ids of subjects are the file's own; platform ids (channels, categories, roles, emojis) are the
 * exporting server's, and the import unsets those the target server does not have.
 */
export const ConfigurationDocument = z
  .object({
    format: z.literal(CONFIGURATION_FORMAT).describe('Marks the file as a configuration of this product'),
    version: z.literal(CONFIGURATION_VERSION).describe('Version of the file format'),
    exportedAt: IsoDateTime,
    serverSettings: ConfigurationServerSettings,
    subjects: z.array(ConfigurationSubject).max(PLANS.enterprise.maxSubjects).describe('In the order the server lists them'),
    panels: z.array(PanelInput).max(200).describe('Subjects are referred to by their id in the file'),
  })
  .superRefine(documentProblems);
export type ConfigurationDocument = z.infer<typeof ConfigurationDocument>;

// ---------------------------------------------------------------------------------------------
// What an import changes
// ---------------------------------------------------------------------------------------------

/** Where a platform id sat that the target server does not have. */
export const UnsetSetting = z.enum(['logChannel', 'ticketCategory', 'staffRole', 'accessList', 'panelChannel', 'emoji']);
export type UnsetSetting = z.infer<typeof UnsetSetting>;

export const UnsetId = z.object({
  field: z.string().describe('Where the id was in the file, in dot notation (e.g. subjects.0.staffRoles.value)'),
  id: Snowflake,
  setting: UnsetSetting,
  subject: z.string().nullable().describe('Name of the subject it belongs to, if any'),
  panel: z.string().nullable().describe('Name of the panel it belongs to, if any ("" for an untitled one)'),
});
export type UnsetId = z.infer<typeof UnsetId>;

const changeLists = z.object({
  created: z.array(z.string()),
  updated: z.array(z.string()),
  deleted: z.array(z.string()),
  unchanged: z.array(z.string()),
});

export const ConfigurationChanges = z.object({
  applied: z.boolean().describe('false for a preview: nothing was written'),
  subjects: changeLists.describe('Names of subjects; subjects are matched by name (case-insensitive)'),
  panels: changeLists.describe('Names of panels ("" for an untitled one); panels are matched by name, in order'),
  serverSettings: z.array(z.object({ setting: z.enum(['language', 'publicStats']), from: z.unknown(), to: z.unknown() })),
  unsetIds: z.array(UnsetId).describe('Platform ids the target server does not have: unset (or left out of their list)'),
});
export type ConfigurationChanges = z.infer<typeof ConfigurationChanges>;

// ---------------------------------------------------------------------------------------------
// Calls (on the settings base)
// ---------------------------------------------------------------------------------------------

const importRules =
  'Subjects matched by name are updated, the others created, and the server’s subjects absent from the file deleted (as a deletion by hand); ' +
  'form questions are matched by slug within their subject; panels matched by name (in order) are updated, the others created, and those absent deleted. ' +
  'Panels are saved, never posted: imported or changed ones are drafts until sent from the panels page. ' +
  'Channels, categories, roles and emojis the server does not have are unset. The plan’s limits apply as when editing by hand.';

export const configurationCalls = {
  getConfiguration: defineCall({
    method: 'GET',
    path: '/servers/:serverId/configuration',
    summary: 'Export the server’s configuration (subjects with every setting and their questions, panels, server settings) as one document',
    params: ServerIdParams,
    response: ConfigurationDocument,
  }),
  getConfigurationChanges: defineCall({
    method: 'POST',
    path: '/servers/:serverId/configuration/preview',
    summary: `Check a configuration document against this server and describe what importing it would change; writes nothing. ${importRules}`,
    params: ServerIdParams,
    body: ConfigurationDocument,
    response: ConfigurationChanges,
  }),
  updateConfiguration: defineCall({
    method: 'POST',
    path: '/servers/:serverId/configuration',
    summary: `Import a configuration document: all of it in one transaction, or nothing. ${importRules}`,
    params: ServerIdParams,
    body: ConfigurationDocument,
    response: ConfigurationChanges,
  }),
};
