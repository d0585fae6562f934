import { z } from 'zod';
import {
  defineCall,
  EmojiRef,
  IsoDateTime,
  opaqueId,
  PageQuery,
  pagedResult,
  PlanType,
  ServerIdParams,
  Snowflake,
  SubjectId,
  TimeSpan,
} from './common';
import { LanguageCode } from './localization';
import {
  CHANNEL_PERMISSIONS,
  DISCORD_LIMITS,
  embedTextLength,
  type Problem,
  panelProblems,
  questionProblems,
} from './rules';

// ---------------------------------------------------------------------------------------------
// Platform limits and shared pieces
// ---------------------------------------------------------------------------------------------



const addProblems = (ctx: z.RefinementCtx, problems: Problem[]): void => {
  for (const p of problems) ctx.addIssue({ code: 'custom', path: p.path, message: p.message });
};

export const ButtonStyle = z.enum(['Primary', 'Secondary', 'Success', 'Danger', 'Link']);
export type ButtonStyle = z.infer<typeof ButtonStyle>;

/** Ticket-level roles, e.g. who may close a ticket (SPEC §6). */
export const TicketRole = z.enum(['Member', 'TicketOwner', 'Staff', 'Bot']);
export type TicketRole = z.infer<typeof TicketRole>;

export const StorageExceededPolicy = z.enum([
  'Reject',
  'Inform',
  'DeleteOldestFileSameSubject',
  'DeleteOldestFileGlobal',
]);
export type StorageExceededPolicy = z.infer<typeof StorageExceededPolicy>;

/** Where a URL may also be a placeholder such as `{user.avatar}`, so it is stored as typed (SPEC §5). */
const LooseUrl = z.string().max(2048).describe('A URL or a placeholder such as {user.avatar}');


// ---------------------------------------------------------------------------------------------
// Embeds and messages
// ---------------------------------------------------------------------------------------------

export const EmbedField = z.object({
  name: z.string().max(DISCORD_LIMITS.embedFieldName),
  value: z.string().max(DISCORD_LIMITS.embedFieldValue),
  inline: z.boolean().optional().describe('Show beside the neighbouring inline fields'),
});
export type EmbedField = z.infer<typeof EmbedField>;

export const Embed = z.object({
  title: z.string().max(DISCORD_LIMITS.embedTitle).optional(),
  description: z.string().max(DISCORD_LIMITS.embedDescription).optional(),
  url: LooseUrl.optional().describe('Where the title links to'),
  color: z.number().int().min(0).max(0xffffff).optional().describe('Colour of the left bar, 0xRRGGBB'),
  timestamp: IsoDateTime.optional(),
  footer: z.object({ text: z.string().max(DISCORD_LIMITS.embedFooterText), iconUrl: LooseUrl.optional() }).optional(),
  thumbnail: z.object({ url: LooseUrl }).optional(),
  image: z.object({ url: LooseUrl }).optional(),
  author: z
    .object({
      name: z.string().max(DISCORD_LIMITS.embedAuthorName),
      url: LooseUrl.optional(),
      iconUrl: LooseUrl.optional(),
    })
    .optional(),
  fields: z.array(EmbedField).max(DISCORD_LIMITS.embedFields).optional(),
});
export type Embed = z.infer<typeof Embed>;

/** What the bot posts: text and embeds, within the platform's limits. */
export const MessageBody = z
  .object({
    content: z.string().max(DISCORD_LIMITS.messageContent).describe('Markdown text; may hold placeholders'),
    embeds: z.array(Embed).max(DISCORD_LIMITS.embedsPerMessage).default([]).describe('Default: [] (no embeds)'),
  })
  .superRefine((m, ctx) => {
    const total = m.embeds.reduce((n, e) => n + embedTextLength(e), 0);
    if (total > DISCORD_LIMITS.embedTotal) {
      ctx.addIssue({
        code: 'custom',
        path: ['embeds'],
        message: `The embeds hold ${total} characters in total; the limit is ${DISCORD_LIMITS.embedTotal}`,
      });
    }
  });
export type MessageBody = z.infer<typeof MessageBody>;

// ---------------------------------------------------------------------------------------------
// Subjects
// ---------------------------------------------------------------------------------------------

export const SubjectName = z
  .string()
  .trim()
  .min(3, 'Subject name must be at least 3 characters')
  .max(119, 'Subject name must be under 120 characters')
  .describe('Unique within the server');

/** A setting that can follow the subject it inherits from (or the server default) instead of its own value. */
export const inheritable = <T extends z.ZodType>(value: T) =>
  z.object({
    value,
    inherits: z
      .boolean()
      .describe('Use the value of the subject named in inheritsFrom (or the default) instead of value'),
  });

/** Channel permissions a subject can allow or deny to ticket users, staff and claimers. */
export const ChannelPermission = z.enum(CHANNEL_PERMISSIONS);
export type ChannelPermission = z.infer<typeof ChannelPermission>;

/**
 * A permission in neither list is neutral (the channel's own setting applies). The lists never
 * share a permission: adding one to a list removes it from the other.
 */
export const PermissionOverwrite = z
  .object({
    allow: z.array(ChannelPermission),
    deny: z.array(ChannelPermission),
  })
  .superRefine((p, ctx) => {
    for (const perm of p.allow) {
      if (p.deny.includes(perm)) {
        ctx.addIssue({ code: 'custom', path: ['deny'], message: `${perm} cannot be both allowed and denied` });
      }
    }
  });
export type PermissionOverwrite = z.infer<typeof PermissionOverwrite>;

export const CategoryRef = z.object({
  id: Snowflake.describe('Category channel id'),
  selfCreated: z.boolean().describe('The bot created this category (and may delete it)'),
});
export type CategoryRef = z.infer<typeof CategoryRef>;

export const SubjectMessage = inheritable(
  z.object({
    message: MessageBody,
    serialized: z
      .string()
      .describe('The message as the platform payload the bot sends; written by the server, ignored on input'),
  }),
).extend({ enabled: z.boolean() });
export type SubjectMessage = z.infer<typeof SubjectMessage>;

export const SubjectButton = z.object({
  text: z.string().max(DISCORD_LIMITS.buttonLabel),
  style: ButtonStyle,
  url: LooseUrl.nullable().describe('Target of a Link button; null otherwise'),
  emote: EmojiRef.nullable(),
});
export type SubjectButton = z.infer<typeof SubjectButton>;

export const LinkButton = z
  .object({
    enabled: z.boolean(),
    text: z.string().max(DISCORD_LIMITS.buttonLabel),
    url: LooseUrl.nullable(),
    emote: EmojiRef.nullable(),
  })
  .describe('An extra link button under the welcome message; shown only when enabled and url is set');
export type LinkButton = z.infer<typeof LinkButton>;

export const AutoCloseTime = inheritable(
  z.object({
    warnTime: TimeSpan.describe('Inactivity after which the ticket owner is warned'),
    closeTime: TimeSpan.describe('Inactivity after which the ticket closes'),
  }),
).extend({ enabled: z.boolean() });
export type AutoCloseTime = z.infer<typeof AutoCloseTime>;

const limit = z.number().int().min(1).max(10_000).nullable().describe('null: no limit');

export const Subject = z.object({
  subjectId: SubjectId,
  serverId: Snowflake,
  name: SubjectName,
  deleted: z.boolean(),
  active: z.boolean().describe('Whether the subject is in use at all'),
  index: z.number().int().min(0).describe('Position in the server’s subject list'),
  inheritsFrom: SubjectId.nullable().optional().describe('Subject whose values inheriting settings follow'),
  questions: z.array(opaqueId('Template')).describe('Ids of the form questions (templates) of this subject, in order'),
  disableCreation: z.boolean().describe('Members cannot open new tickets in this subject'),
  requireForm: z.boolean().describe('A ticket can only be opened by answering the form'),
  language: LanguageCode.nullable().describe('Language of the bot’s messages; null: the server language'),
  ticketNameFormat: inheritable(
    z.string().trim().min(1).max(DISCORD_LIMITS.channelName).describe('Channel name; may use TICKET_NAME_PLACEHOLDERS'),
  ),
  staffRoles: inheritable(z.array(Snowflake).max(250).describe('Role ids whose members are staff here')),
  categories: z.object({
    waitingForStaff: z.array(CategoryRef).describe('Categories for tickets waiting for a staff answer'),
    waitingForUser: z.array(CategoryRef).describe('Categories for tickets waiting for the user'),
    moveTickets: z.boolean().describe('Move tickets between the two kinds of category as their state changes'),
  }),
  permissions: z.object({
    userPermissions: inheritable(PermissionOverwrite).describe('For the ticket owner and added members'),
    staffPermissions: inheritable(PermissionOverwrite).describe('For staff of the subject'),
    claimPermissions: inheritable(PermissionOverwrite).describe('For the staff member who claimed the ticket'),
  }),
  messages: z.object({
    initialMessage: SubjectMessage.describe('Welcome message posted when a ticket opens'),
    closeMessage: SubjectMessage.describe('Posted (and sent to the author) when a ticket closes'),
    messageCommandResponse: SubjectMessage.describe('Answer to the message command'),
  }),
  automation: z.object({
    notifyUser: z.boolean().describe('Notify the ticket owner of staff replies'),
    requireCloseReason: z.boolean(),
    notifyClaimer: z.boolean().describe('Notify the claiming staff member of user replies'),
    closeOnLeave: z.boolean().describe('Close the ticket when its owner leaves the server'),
    dmAuthorOnClose: z.boolean().describe('Send the author a direct message when the ticket closes'),
    closeDelay: TimeSpan.describe('Wait between a close request and the close'),
    autoCloseTime: AutoCloseTime,
  }),
  notifications: z.object({
    mentionOwnerOnReply: z.boolean().describe('Mention the ticket owner when staff reply'),
    mentionClaimeeOnReply: z.boolean().describe('Mention the claiming staff member when the user replies'),
  }),
  buttons: z.object({
    closeButton: SubjectButton,
    claimButton: SubjectButton,
    cancelCloseButton: SubjectButton,
    closeNowButton: SubjectButton,
    goToTicket: SubjectButton.describe('Link to the new ticket, sent to whoever opened it'),
    linkButton: LinkButton,
  }),
  limitations: z.object({
    neededCloseRole: TicketRole.describe('Least ticket role allowed to close a ticket'),
    maxActivePerUser: limit.describe('Open tickets one user may have in this subject; null: no limit'),
    maxActiveTotal: limit.describe('Open tickets in this subject; null: no limit'),
    cooldown: TimeSpan.describe('Wait before the same user may open another ticket'),
    whitelist: z.object({
      inverted: z.boolean().describe('ids lists who may NOT open tickets (a block list)'),
      ids: z.array(Snowflake).max(250).describe('Role or user ids; empty and not inverted: everyone'),
    }),
  }),
  logging: z.object({
    channelId: Snowflake.nullable().describe('Log channel; null: no logging'),
    rainbowColors: z.boolean().describe('Give each event kind its own embed colour'),
    created: z.boolean(),
    claimed: z.boolean(),
    closed: z.boolean(),
    deleted: z.boolean(),
    memberAdded: z.boolean(),
    memberRemoved: z.boolean(),
    subjectChanged: z.boolean(),
  }),
  files: z.object({
    storageExceeded: StorageExceededPolicy.describe('What happens to an upload beyond the plan’s storage'),
    retentionTime: TimeSpan.nullable().describe('Delete attachments this long after upload; null: keep'),
  }),
});
export type Subject = z.infer<typeof Subject>;

export const SubjectShort = Subject.pick({ subjectId: true, serverId: true, name: true, deleted: true });
export type SubjectShort = z.infer<typeof SubjectShort>;

export const CreateSubjectRequest = z.object({ name: SubjectName });
export type CreateSubjectRequest = z.infer<typeof CreateSubjectRequest>;

// ---------------------------------------------------------------------------------------------
// Templates (form questions)
// ---------------------------------------------------------------------------------------------

export const TemplateId = opaqueId('Template (form question)');
export type TemplateId = z.infer<typeof TemplateId>;

export const QuestionType = z.enum(['Button', 'Selection', 'Text']);
export type QuestionType = z.infer<typeof QuestionType>;

export const AnswerFormat = z.enum(['None', 'CodeLine', 'CodeBlock']);
export type AnswerFormat = z.infer<typeof AnswerFormat>;

export const QuestionButton = z.object({
  buttonId: opaqueId('Button'),
  text: z.string().max(DISCORD_LIMITS.buttonLabel),
  style: ButtonStyle.default('Primary').describe('Default: Primary'),
  url: LooseUrl.nullable().default(null).describe('Target of a Link button; null otherwise. Default: null'),
  emote: EmojiRef.nullable().default(null).describe('Default: null (no emoji)'),
});
export type QuestionButton = z.infer<typeof QuestionButton>;

export const QuestionOption = z.object({
  optionId: opaqueId('Option'),
  label: z.string().max(DISCORD_LIMITS.selectOptionLabel),
  description: z.string().max(DISCORD_LIMITS.selectOptionDescription).nullable().default(null).describe('Default: null (none)'),
});
export type QuestionOption = z.infer<typeof QuestionOption>;

export const TextQuestionSettings = z.object({
  large: z.boolean().default(false).describe('Multi-line answer field. Default: false'),
  minLength: z
    .number()
    .int()
    .max(DISCORD_LIMITS.textInputLength)
    .nullable()
    .default(null)
    .describe('With maxLength: length validation is on when either is set. Default: null (no minimum)'),
  maxLength: z.number().int().max(DISCORD_LIMITS.textInputLength).nullable().default(null).describe('Default: null (no maximum)'),
  placeholder: z.string().max(DISCORD_LIMITS.textInputPlaceholder).nullable().default(null).describe('Default: null (none)'),
});
export type TextQuestionSettings = z.infer<typeof TextQuestionSettings>;

const questionFields = {
  answerFormat: AnswerFormat.default('None').describe('How the answer is shown in the ticket. Default: None'),
  question: z.string().max(256).describe('The question text'),
  slug: z.string().max(64).describe('Short key of the question, unique within the subject'),
  index: z.number().int().min(0).describe('Position within the form'),
};
const buttonQuestion = z.object({
  ...questionFields,
  type: z.literal('Button'),
  values: z.array(QuestionButton).max(DISCORD_LIMITS.buttonsPerMessage),
});
const selectionQuestion = z.object({
  ...questionFields,
  type: z.literal('Selection'),
  values: z.array(QuestionOption).max(DISCORD_LIMITS.selectOptions),
});
const textQuestion = z.object({
  ...questionFields,
  type: z.literal('Text'),
  values: TextQuestionSettings.prefault({}).describe('Default: a one-line answer with no length limits and no placeholder'),
});

export type QuestionContent =
  z.infer<typeof buttonQuestion> | z.infer<typeof selectionQuestion> | z.infer<typeof textQuestion>;

/** An editable question as the form editor sends it; the SPEC §5 rules apply. */
export const TemplateDraft = z
  .discriminatedUnion('type', [buttonQuestion, selectionQuestion, textQuestion])
  .superRefine((q, ctx) => addProblems(ctx, questionProblems(q)));
export type TemplateDraft = z.infer<typeof TemplateDraft>;

const stored = { questionId: TemplateId, serverId: Snowflake };
export const Template = z.discriminatedUnion('type', [
  buttonQuestion.extend(stored),
  selectionQuestion.extend(stored),
  textQuestion.extend(stored),
]);
export type Template = z.infer<typeof Template>;

/** One element of a bulk template update: the question's id and its new content. */
export const TemplateUpdate = z
  .discriminatedUnion('type', [
    buttonQuestion.extend({ questionId: TemplateId }),
    selectionQuestion.extend({ questionId: TemplateId }),
    textQuestion.extend({ questionId: TemplateId }),
  ])
  .superRefine((q, ctx) => addProblems(ctx, questionProblems(q)));
export type TemplateUpdate = z.infer<typeof TemplateUpdate>;

export const CreateTemplateRequest = z.object({
  template: TemplateDraft,
  subjectId: SubjectId.describe('The subject whose form gets the question'),
});
export type CreateTemplateRequest = z.infer<typeof CreateTemplateRequest>;

// ---------------------------------------------------------------------------------------------
// Panels
// ---------------------------------------------------------------------------------------------

export const PanelId = opaqueId('Panel');
export type PanelId = z.infer<typeof PanelId>;

export const PanelType = z.enum(['BUTTON', 'LIST']);
export type PanelType = z.infer<typeof PanelType>;

/** Link buttons cannot open a ticket, so panel buttons use the other styles. */
export const PanelButtonStyle = ButtonStyle.exclude(['Link']);
export type PanelButtonStyle = z.infer<typeof PanelButtonStyle>;

export const PanelButton = z.object({
  subjectId: SubjectId.nullable().describe('Subject the button opens a ticket in; null until chosen'),
  text: z.string().max(DISCORD_LIMITS.buttonLabel),
  style: PanelButtonStyle,
  emoji: EmojiRef.nullable(),
});
export type PanelButton = z.infer<typeof PanelButton>;

export const PanelOption = z.object({
  subjectId: SubjectId.nullable().describe('Subject the option opens a ticket in; null until chosen'),
  label: z.string().max(DISCORD_LIMITS.selectOptionLabel),
  description: z.string().max(DISCORD_LIMITS.selectOptionDescription).nullable(),
  emoji: EmojiRef.nullable(),
});
export type PanelOption = z.infer<typeof PanelOption>;

export const PanelIntegration = z.object({
  channelId: Snowflake.nullable().describe('Channel the panel is (to be) posted in'),
  serverId: Snowflake,
  messageId: Snowflake.nullable().describe('The posted message; null until sent'),
});
export type PanelIntegration = z.infer<typeof PanelIntegration>;

const panelEditable = {
  name: z.string().trim().max(100).describe('Name in the dashboard; empty shows as untitled'),
  draft: z.boolean().describe('Saved but not (to be) posted; the full panel rules apply only when false'),
  message: MessageBody.nullable(),
};
const buttonPanel = { type: z.literal('BUTTON'), subjects: z.array(PanelButton).max(DISCORD_LIMITS.buttonsPerMessage) };
const listPanel = { type: z.literal('LIST'), subjects: z.array(PanelOption).max(DISCORD_LIMITS.selectOptions) };

const panelStored = {
  ...panelEditable,
  id: PanelId,
  serverId: Snowflake,
  integrationDetails: PanelIntegration,
  lastSent: IsoDateTime.nullable().describe('When the message was last posted'),
};
export const Panel = z.discriminatedUnion('type', [
  z.object({ ...panelStored, ...buttonPanel }),
  z.object({ ...panelStored, ...listPanel }),
]);
export type Panel = z.infer<typeof Panel>;

/** Panel buttons and options as sent: what has an obvious default may be left out. */
const PanelButtonInput = PanelButton.extend({
  style: PanelButtonStyle.default('Primary').describe('Default: Primary'),
  emoji: EmojiRef.nullable().default(null).describe('Default: null (no emoji)'),
});
const PanelOptionInput = PanelOption.extend({
  description: PanelOption.shape.description.default(null).describe('Text under the label. Default: null (none)'),
  emoji: EmojiRef.nullable().default(null).describe('Default: null (no emoji)'),
});

const panelInput = {
  name: panelEditable.name.default('').describe('Name in the dashboard; empty shows as untitled. Default: "" (untitled)'),
  draft: panelEditable.draft
    .default(false)
    .describe('Saved but not (to be) posted; the full panel rules apply only when false. Default: false (post it)'),
  message: panelEditable.message,
  channelId: Snowflake.nullable().describe('Channel to post the panel in'),
};
const buttonPanelInput = { type: z.literal('BUTTON'), subjects: z.array(PanelButtonInput).max(DISCORD_LIMITS.buttonsPerMessage) };
const listPanelInput = { type: z.literal('LIST'), subjects: z.array(PanelOptionInput).max(DISCORD_LIMITS.selectOptions) };

/** A panel as the wizard saves it. Unless it is a draft, saving posts (or updates) it, so the panel rules apply. */
export const PanelInput = z
  .discriminatedUnion('type', [
    z.object({ ...panelInput, ...buttonPanelInput }),
    z.object({ ...panelInput, ...listPanelInput }),
  ])
  .superRefine((p, ctx) => {
    if (!p.draft) addProblems(ctx, panelProblems(p));
  });
export type PanelInput = z.infer<typeof PanelInput>;

// ---------------------------------------------------------------------------------------------
// Server settings and settings updates
// ---------------------------------------------------------------------------------------------

export const ServerSettings = z.object({
  serverId: Snowflake,
  language: LanguageCode.describe('Default language of the bot’s messages'),
  publicStats: z.boolean().describe('Anyone may see the server’s ticket statistics (no member is named)'),
  subjects: z.array(SubjectShort),
  subscription: PlanType,
});
export type ServerSettings = z.infer<typeof ServerSettings>;

export const CreateServerSettingsRequest = z.object({ language: LanguageCode.optional().describe('Default: en') });
export type CreateServerSettingsRequest = z.infer<typeof CreateServerSettingsRequest>;

export const SettingsOperation = z.enum(['set', 'add', 'remove']);
export type SettingsOperation = z.infer<typeof SettingsOperation>;

export const SettingsPath = z
  .string()
  .max(200)
  .regex(/^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)*$/, 'must be a dot-notation path such as "logging.channelId"')
  .describe('Dot-notation path of the setting within the subject (or the server settings)');

const settingsUpdateFields = {
  serverId: Snowflake,
  subjectId: z.union([SubjectId, z.literal('')]).describe('Empty string: a server-level setting'),
  path: SettingsPath,
  operation: SettingsOperation.describe('set replaces the value; add/remove change a list by one element'),
  value: z
    .unknown()
    .describe('Any JSON value (required; null is a value): the new value for set, the element for add/remove'),
  filterKey: z
    .string()
    .max(64)
    .optional()
    .describe('For lists of objects: the field that identifies an element (e.g. "id"); add replaces a match'),
};
export const SettingsUpdate = z.object(settingsUpdateFields);
export type SettingsUpdate = z.infer<typeof SettingsUpdate>;

/** PATCH of the server settings: the same update without a subject. */
export const ServerSettingsUpdate = z.object({ ...settingsUpdateFields, subjectId: z.literal('').optional() });
export type ServerSettingsUpdate = z.infer<typeof ServerSettingsUpdate>;

export const BulkSettingsUpdate = z.object({ updates: z.array(SettingsUpdate).min(1).max(100) });
export type BulkSettingsUpdate = z.infer<typeof BulkSettingsUpdate>;

export const UpdateResult = z.object({
  path: SettingsPath,
  value: z.unknown().describe('The value now in effect at path'),
  inherits: z.boolean().describe('The value in effect is inherited'),
});
export type UpdateResult = z.infer<typeof UpdateResult>;

/** Subject fields no settings update may touch: identity and what other calls manage. */
const READ_ONLY_SUBJECT_FIELDS = new Set(['subjectId', 'serverId', 'deleted', 'questions']);
const writableServerSettings = ServerSettings.pick({ language: true, publicStats: true });

const unwrapNullish = (schema: z.ZodType): z.ZodType => {
  let s = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault) {
    s = s.unwrap() as z.ZodType;
  }
  return s;
};

/**
 * The schema the value of a settings update must satisfy, or undefined when the path names no
 * writable setting (or add/remove targets something that is not a list). Validate the whole
 * subject again after applying the update: some rules span fields.
 */
export const settingValueSchema = (
  scope: 'server' | 'subject',
  path: string,
  operation: SettingsOperation,
): z.ZodType | undefined => {
  if (!SettingsPath.safeParse(path).success) return undefined;
  const segments = path.split('.');
  if (scope === 'subject' && READ_ONLY_SUBJECT_FIELDS.has(segments[0] ?? '')) return undefined;
  let schema: z.ZodType = scope === 'subject' ? Subject : writableServerSettings;
  for (const segment of segments) {
    const inner = unwrapNullish(schema);
    if (!(inner instanceof z.ZodObject) || !Object.hasOwn(inner.shape, segment)) return undefined;
    schema = inner.shape[segment] as z.ZodType;
  }
  if (operation === 'set') return schema;
  const list = unwrapNullish(schema);
  return list instanceof z.ZodArray ? (list.element as z.ZodType) : undefined;
};

// ---------------------------------------------------------------------------------------------
// Audit log
// ---------------------------------------------------------------------------------------------

export const AuditAction = z.enum([
  'subject.create',
  'subject.update',
  'subject.delete',
  'settings.create',
  'settings.update',
  'template.create',
  'template.update',
  'template.delete',
  'panel.create',
  'panel.update',
  'panel.delete',
  'panel.resend',
]);
export type AuditAction = z.infer<typeof AuditAction>;

export const AuditEntry = z.object({
  id: z.string(),
  serverId: Snowflake,
  subjectId: SubjectId.nullable(),
  subjectName: z.string().nullable().describe('Name of the subject at the time of reading'),
  actor: z.object({
    kind: z.enum(['user', 'apiKey', 'admin']),
    id: Snowflake.nullable(),
    name: z.string().nullable(),
  }),
  action: AuditAction,
  path: z.string().nullable().describe('The setting changed, in dot notation'),
  oldValue: z.unknown().describe('Value before the change (null when created)'),
  newValue: z.unknown().describe('Value after the change (null when deleted)'),
  createdAt: IsoDateTime,
});
export type AuditEntry = z.infer<typeof AuditEntry>;

// ---------------------------------------------------------------------------------------------
// Calls
// ---------------------------------------------------------------------------------------------

const TemplateParams = z.object({ serverId: Snowflake, templateId: TemplateId });
const PanelParams = z.object({ serverId: Snowflake, id: PanelId });
const SubjectParams = z.object({ serverId: Snowflake, subjectId: SubjectId });

export const SubjectIdsRequest = z.object({ ids: z.array(SubjectId).min(1).max(1000) });
export type SubjectIdsRequest = z.infer<typeof SubjectIdsRequest>;
const ServerIdsRequest = z.object({ ids: z.array(Snowflake).min(1).max(1000) });

export const settingsCalls = {
  createTemplate: defineCall({
    method: 'PUT',
    path: '/servers/:serverId/templates',
    summary: "Add a question to a subject's form",
    params: ServerIdParams,
    body: CreateTemplateRequest,
    response: Template,
    status: 201,
  }),
  getTemplates: defineCall({
    method: 'GET',
    path: '/servers/:serverId/templates',
    summary: 'Form questions of the server, optionally of one subject',
    params: ServerIdParams,
    query: z.object({ subjectId: SubjectId.optional() }),
    response: z.array(Template),
  }),
  updateTemplatesBulk: defineCall({
    method: 'PATCH',
    path: '/servers/:serverId/templates/bulk',
    summary: 'Replace several questions at once (e.g. after reordering)',
    params: ServerIdParams,
    body: z.array(TemplateUpdate).min(1).max(100),
    response: z.array(Template),
  }),
  getTemplate: defineCall({
    method: 'GET',
    path: '/servers/:serverId/templates/:templateId',
    summary: 'One form question',
    params: TemplateParams,
    response: Template,
  }),
  updateTemplate: defineCall({
    method: 'PATCH',
    path: '/servers/:serverId/templates/:templateId',
    summary: "Replace a question's content",
    params: TemplateParams,
    body: TemplateDraft,
    response: Template,
  }),
  deleteTemplate: defineCall({
    method: 'DELETE',
    path: '/servers/:serverId/templates/:templateId',
    summary: 'Delete a form question',
    params: TemplateParams,
    response: null,
    status: 204,
  }),
  createPanel: defineCall({
    method: 'POST',
    path: '/servers/:serverId/panels',
    summary: 'Save a panel; unless it is a draft, post it to its channel',
    params: ServerIdParams,
    body: PanelInput,
    response: Panel,
    status: 201,
  }),
  getPanels: defineCall({
    method: 'GET',
    path: '/servers/:serverId/panels',
    summary: "The server's panels",
    params: ServerIdParams,
    response: z.array(Panel),
  }),
  getPanel: defineCall({
    method: 'GET',
    path: '/servers/:serverId/panels/:id',
    summary: 'One panel',
    params: PanelParams,
    response: Panel,
  }),
  updatePanel: defineCall({
    method: 'PATCH',
    path: '/servers/:serverId/panels/:id',
    summary: 'Replace a panel; unless it is a draft, the posted message is updated (or posted)',
    params: PanelParams,
    body: PanelInput,
    response: Panel,
  }),
  deletePanel: defineCall({
    method: 'DELETE',
    path: '/servers/:serverId/panels/:id',
    summary: 'Delete a panel and its posted message',
    params: PanelParams,
    response: null,
    status: 204,
  }),
  resendPanel: defineCall({
    method: 'POST',
    path: '/servers/:serverId/panels/:id/resend',
    summary: 'Post the panel again as a new message in its channel',
    params: PanelParams,
    response: Panel,
  }),
  createServerSettings: defineCall({
    method: 'POST',
    path: '/servers/:serverId/settings',
    summary: 'Create the default settings of a server (when the bot joins)',
    params: ServerIdParams,
    body: CreateServerSettingsRequest,
    response: ServerSettings,
    status: 201,
  }),
  getServerSettings: defineCall({
    method: 'GET',
    path: '/servers/:serverId/settings',
    summary: 'Server-level settings and the list of subjects',
    params: ServerIdParams,
    response: ServerSettings,
  }),
  updateServerSettings: defineCall({
    method: 'PATCH',
    path: '/servers/:serverId/settings',
    summary: 'Change one server-level setting',
    params: ServerIdParams,
    body: ServerSettingsUpdate,
    response: UpdateResult,
  }),
  createSubject: defineCall({
    method: 'POST',
    path: '/servers/:serverId/subjects',
    summary: 'Create a subject with default settings; 409 if the name is taken, 402 beyond the plan limit',
    params: ServerIdParams,
    body: CreateSubjectRequest,
    response: Subject,
    status: 201,
  }),
  getSubjects: defineCall({
    method: 'GET',
    path: '/servers/:serverId/subjects',
    summary: "The server's subjects with all their settings",
    params: ServerIdParams,
    response: z.array(Subject),
  }),
  getMySubjects: defineCall({
    method: 'GET',
    path: '/servers/:serverId/subjects/me',
    summary: 'Subjects the caller is staff of',
    params: ServerIdParams,
    response: z.array(SubjectShort),
  }),
  updateSubjectsBulk: defineCall({
    method: 'PATCH',
    path: '/servers/:serverId/subjects/bulk',
    summary: 'Apply several queued setting updates in order; all or none',
    params: ServerIdParams,
    body: BulkSettingsUpdate,
    response: z.array(UpdateResult),
  }),
  getSubject: defineCall({
    method: 'GET',
    path: '/servers/:serverId/subjects/:subjectId',
    summary: 'One subject with all its settings',
    params: SubjectParams,
    response: Subject,
  }),
  updateSubject: defineCall({
    method: 'PATCH',
    path: '/servers/:serverId/subjects/:subjectId',
    summary: 'Change one setting of a subject',
    params: SubjectParams,
    body: SettingsUpdate,
    response: UpdateResult,
  }),
  deleteSubject: defineCall({
    method: 'DELETE',
    path: '/servers/:serverId/subjects/:subjectId',
    summary: 'Delete a subject (its tickets stay readable)',
    params: SubjectParams,
    response: null,
    status: 204,
  }),
  getAuditLog: defineCall({
    method: 'GET',
    path: '/servers/:serverId/audit-log',
    summary: 'Who changed which setting when, newest first',
    params: ServerIdParams,
    query: PageQuery.extend({ subjectId: SubjectId.optional() }),
    response: pagedResult(AuditEntry),
  }),
  getSettingsBulk: defineCall({
    method: 'POST',
    path: '/bulk/settings',
    summary: 'Settings of several servers (bot worker)',
    body: ServerIdsRequest,
    response: z.array(ServerSettings),
  }),
  getSubjectsBulk: defineCall({
    method: 'POST',
    path: '/bulk/subjects',
    summary: 'Several subjects by id (bot worker)',
    body: SubjectIdsRequest,
    response: z.array(Subject),
  }),
  getAllSettings: defineCall({
    method: 'GET',
    path: '/',
    summary: 'Settings of every server, a page at a time (platform admin)',
    query: PageQuery,
    response: pagedResult(ServerSettings),
  }),
};
