import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  CreateSubjectRequest,
  type Embed,
  MessageBody,
  PanelInput,
  PermissionOverwrite,
  SettingsUpdate,
  ServerSettingsUpdate,
  settingValueSchema,
  Subject,
  SubjectShort,
  TemplateDraft,
  TemplateUpdate,
} from './settings';
import { imageUrlWarning } from './rules';

const messagesOf = (r: z.ZodSafeParseResult<unknown>): string[] =>
  r.success ? [] : r.error.issues.map((i) => i.message);
const issueAt = (r: z.ZodSafeParseResult<unknown>, message: string) =>
  r.success ? undefined : r.error.issues.find((i) => i.message === message)?.path;

const SERVER = '123456789012345678';
const CHANNEL = '223456789012345678';

const textQuestion = {
  type: 'Text',
  question: 'What is your order number?',
  slug: 'order-number',
  answerFormat: 'CodeLine',
  index: 0,
  values: { large: false, minLength: null, maxLength: null, placeholder: null },
} as const;

const buttonQuestion = {
  type: 'Button',
  question: 'Which platform?',
  slug: 'platform',
  answerFormat: 'None',
  index: 1,
  values: [
    { buttonId: 'pc', text: 'PC', style: 'Primary', url: null, emote: null },
    { buttonId: 'mobile', text: 'Mobile', style: 'Secondary', url: null, emote: { id: null, name: '📱' } },
  ],
} as const;

const selectionQuestion = {
  type: 'Selection',
  question: 'Which region?',
  slug: 'region',
  answerFormat: 'None',
  index: 2,
  values: [
    { optionId: 'eu', label: 'Europe', description: null },
    { optionId: 'na', label: 'North America', description: 'US and Canada' },
  ],
} as const;

describe('TemplateDraft (question rules of SPEC §5)', () => {
  it('accepts valid questions of each type', () => {
    for (const q of [textQuestion, buttonQuestion, selectionQuestion])
      expect(messagesOf(TemplateDraft.safeParse(q))).toEqual([]);
  });

  it('requires question text and slug', () => {
    const r = TemplateDraft.safeParse({ ...textQuestion, question: '  ', slug: '' });
    expect(messagesOf(r)).toEqual(['Question text is required', 'Slug is required']);
    expect(issueAt(r, 'Question text is required')).toEqual(['question']);
    expect(issueAt(r, 'Slug is required')).toEqual(['slug']);
  });

  it('rejects slugs with spaces or symbols', () => {
    expect(messagesOf(TemplateDraft.safeParse({ ...textQuestion, slug: 'order number' }))).toEqual([
      'Slug may only contain letters, digits, "-" and "_"',
    ]);
  });

  it('requires at least one button, each with text', () => {
    expect(messagesOf(TemplateDraft.safeParse({ ...buttonQuestion, values: [] }))).toEqual(['Add at least one button']);
    const r = TemplateDraft.safeParse({
      ...buttonQuestion,
      values: [buttonQuestion.values[0], { ...buttonQuestion.values[1], text: ' ' }],
    });
    expect(messagesOf(r)).toEqual(['Button 2 needs button text']);
    expect(issueAt(r, 'Button 2 needs button text')).toEqual(['values', 1, 'text']);
  });

  it('requires a URL on link buttons and distinct button ids', () => {
    const r = TemplateDraft.safeParse({
      ...buttonQuestion,
      values: [
        { ...buttonQuestion.values[0], style: 'Link' },
        { ...buttonQuestion.values[1], buttonId: 'pc' },
      ],
    });
    expect(messagesOf(r)).toEqual(['Button 1 needs a URL', 'Button 2 has the same id as button 1']);
  });

  it('requires at least one option, each with a label', () => {
    expect(messagesOf(TemplateDraft.safeParse({ ...selectionQuestion, values: [] }))).toEqual([
      'Add at least one option',
    ]);
    const r = TemplateDraft.safeParse({
      ...selectionQuestion,
      values: [{ ...selectionQuestion.values[0], label: '' }, selectionQuestion.values[1]],
    });
    expect(messagesOf(r)).toEqual(['Option 1 needs a label']);
  });

  it('with length validation on, requires positive min and max, min below max', () => {
    const withLengths = (minLength: number | null, maxLength: number | null) =>
      messagesOf(
        TemplateDraft.safeParse({ ...textQuestion, values: { ...textQuestion.values, minLength, maxLength } }),
      );
    expect(withLengths(5, 100)).toEqual([]);
    expect(withLengths(5, null)).toEqual(['Maximum length is required']);
    expect(withLengths(null, 10)).toEqual(['Minimum length is required']);
    expect(withLengths(0, 10)).toEqual(['Minimum length must be a positive number']);
    expect(withLengths(3, -1)).toEqual(['Maximum length must be a positive number']);
    expect(withLengths(10, 10)).toEqual(['Minimum length must be less than maximum length']);
    expect(withLengths(20, 10)).toEqual(['Minimum length must be less than maximum length']);
  });

  it('keeps text questions within the platform’s form label limit', () => {
    expect(messagesOf(TemplateDraft.safeParse({ ...textQuestion, question: 'x'.repeat(46) }))).toEqual([
      'Text questions can be at most 45 characters long',
    ]);
    expect(messagesOf(TemplateDraft.safeParse({ ...buttonQuestion, question: 'x'.repeat(46) }))).toEqual([]);
  });

  it('applies the same rules to bulk updates, which need the question id', () => {
    expect(TemplateUpdate.safeParse(textQuestion).success).toBe(false);
    expect(messagesOf(TemplateUpdate.safeParse({ ...textQuestion, questionId: 'q1', slug: '' }))).toEqual([
      'Slug is required',
    ]);
  });
});

const embed = (e: Partial<Embed>): Embed => ({ description: 'Pick a subject to open a ticket', ...e });

const buttonPanel = {
  name: 'Support',
  draft: false,
  type: 'BUTTON',
  channelId: CHANNEL,
  message: { content: '', embeds: [embed({})] },
  subjects: [
    { subjectId: 's1', text: 'Billing', style: 'Primary', emoji: null },
    { subjectId: 's2', text: 'Bugs', style: 'Danger', emoji: { id: null, name: '🐛' } },
  ],
} as const;

const listPanel = {
  name: '',
  draft: false,
  type: 'LIST',
  channelId: CHANNEL,
  message: { content: 'Open a ticket', embeds: [] },
  subjects: [
    { subjectId: 's1', label: 'Billing', description: null, emoji: null },
    { subjectId: 's2', label: 'Bugs', description: 'Something broke', emoji: null },
  ],
} as const;

describe('PanelInput (panel rules of SPEC §5)', () => {
  it('accepts complete button and list panels', () => {
    expect(messagesOf(PanelInput.safeParse(buttonPanel))).toEqual([]);
    expect(messagesOf(PanelInput.safeParse(listPanel))).toEqual([]);
  });

  it('names the button that lacks text or a subject, counting from 1', () => {
    const r = PanelInput.safeParse({
      ...buttonPanel,
      subjects: [buttonPanel.subjects[0], { ...buttonPanel.subjects[1], text: '', subjectId: null }],
    });
    expect(messagesOf(r)).toEqual(['Button 2 needs button text', 'Button 2 needs a subject selected']);
    expect(issueAt(r, 'Button 2 needs a subject selected')).toEqual(['subjects', 1, 'subjectId']);
  });

  it('names the option that lacks a label or a subject', () => {
    const r = PanelInput.safeParse({
      ...listPanel,
      subjects: [{ ...listPanel.subjects[0], label: ' ', subjectId: null }],
    });
    expect(messagesOf(r)).toEqual(['Option 1 needs a label', 'Option 1 needs a subject selected']);
  });

  it('needs at least one button or option', () => {
    expect(messagesOf(PanelInput.safeParse({ ...buttonPanel, subjects: [] }))).toEqual(['Add at least one button']);
    expect(messagesOf(PanelInput.safeParse({ ...listPanel, subjects: [] }))).toEqual(['Add at least one option']);
  });

  it('rejects two entries opening the same subject', () => {
    const r = PanelInput.safeParse({
      ...listPanel,
      subjects: [listPanel.subjects[0], { ...listPanel.subjects[1], subjectId: 's1' }],
    });
    expect(messagesOf(r)).toEqual(['Option 2 opens the same subject as option 1']);
  });

  it('needs a channel and a message with content or an embed', () => {
    expect(messagesOf(PanelInput.safeParse({ ...buttonPanel, channelId: null }))).toEqual([
      'A channel must be selected',
    ]);
    expect(messagesOf(PanelInput.safeParse({ ...buttonPanel, message: null }))).toEqual(['A message is required']);
    expect(messagesOf(PanelInput.safeParse({ ...buttonPanel, message: { content: '  ', embeds: [] } }))).toEqual([
      'The message needs content or an embed',
    ]);
  });

  it('rejects empty embeds and fields without name or value', () => {
    expect(messagesOf(PanelInput.safeParse({ ...listPanel, message: { content: 'Hi', embeds: [{}] } }))).toEqual([
      'Embed 1 is empty',
    ]);
    expect(
      messagesOf(PanelInput.safeParse({ ...listPanel, message: { content: '', embeds: [{ title: ' ' }] } })),
    ).toEqual(['Embed 1 is empty', 'The message needs content or an embed']);
    const withField = { content: '', embeds: [embed({ fields: [{ name: 'Hours', value: '' }] })] };
    expect(messagesOf(PanelInput.safeParse({ ...listPanel, message: withField }))).toEqual([
      'Field 1 of embed 1 needs a name and a value',
    ]);
  });

  it('lets a draft be incomplete but still holds it to the platform limits', () => {
    const draft = {
      ...buttonPanel,
      draft: true,
      channelId: null,
      message: null,
      subjects: [{ subjectId: null, text: '', style: 'Primary', emoji: null }],
    };
    expect(messagesOf(PanelInput.safeParse(draft))).toEqual([]);
    const tooMany = Array.from({ length: 26 }, (_, i) => ({
      subjectId: `s${i}`,
      text: `B${i}`,
      style: 'Primary',
      emoji: null,
    }));
    expect(PanelInput.safeParse({ ...draft, subjects: tooMany }).success).toBe(false);
    expect(PanelInput.safeParse({ ...draft, subjects: tooMany.slice(0, 25) }).success).toBe(true);
  });

  it('refuses link buttons, which cannot open a ticket', () => {
    const r = PanelInput.safeParse({ ...buttonPanel, subjects: [{ ...buttonPanel.subjects[0], style: 'Link' }] });
    expect(r.success).toBe(false);
  });
});

describe('Embed and message limits', () => {
  const ok = (m: unknown) => MessageBody.safeParse(m).success;

  it('bounds each embed part at the platform limit', () => {
    expect(ok({ content: '', embeds: [embed({ title: 'x'.repeat(256) })] })).toBe(true);
    expect(ok({ content: '', embeds: [embed({ title: 'x'.repeat(257) })] })).toBe(false);
    expect(ok({ content: '', embeds: [embed({ description: 'x'.repeat(4096) })] })).toBe(true);
    expect(ok({ content: '', embeds: [embed({ description: 'x'.repeat(4097) })] })).toBe(false);
    expect(ok({ content: '', embeds: [embed({ footer: { text: 'x'.repeat(2049) } })] })).toBe(false);
    expect(ok({ content: '', embeds: [embed({ author: { name: 'x'.repeat(257) } })] })).toBe(false);
    expect(ok({ content: '', embeds: [embed({ fields: [{ name: 'x'.repeat(257), value: 'v' }] })] })).toBe(false);
    expect(ok({ content: '', embeds: [embed({ fields: [{ name: 'n', value: 'x'.repeat(1025) }] })] })).toBe(false);
    expect(ok({ content: '', embeds: [embed({ color: 0x1000000 })] })).toBe(false);
  });

  it('allows at most 25 fields, 10 embeds and 2000 characters of content', () => {
    const fields = (n: number) => Array.from({ length: n }, () => ({ name: 'n', value: 'v' }));
    expect(ok({ content: '', embeds: [embed({ fields: fields(25) })] })).toBe(true);
    expect(ok({ content: '', embeds: [embed({ fields: fields(26) })] })).toBe(false);
    expect(ok({ content: '', embeds: Array.from({ length: 11 }, () => embed({})) })).toBe(false);
    expect(ok({ content: 'x'.repeat(2000), embeds: [] })).toBe(true);
    expect(ok({ content: 'x'.repeat(2001), embeds: [] })).toBe(false);
  });

  it('counts the 6000-character total over all embeds of the message', () => {
    const big = embed({ description: 'x'.repeat(4000), title: 'x'.repeat(100) });
    const r = MessageBody.safeParse({ content: '', embeds: [big, embed({ description: 'x'.repeat(1900) })] });
    expect(messagesOf(r)).toEqual([]);
    const over = MessageBody.safeParse({ content: '', embeds: [big, embed({ description: 'x'.repeat(1901) })] });
    expect(messagesOf(over)).toEqual(['The embeds hold 6001 characters in total; the limit is 6000']);
  });

  it('warns about image URLs that are neither images nor placeholders, without blocking', () => {
    expect(imageUrlWarning('https://cdn.example.com/logo.png')).toBeNull();
    expect(imageUrlWarning('{user.avatar}')).toBeNull();
    expect(imageUrlWarning('')).toBeNull();
    expect(imageUrlWarning('not a url')).toBe('Not a valid image URL or placeholder');
    expect(imageUrlWarning('ftp://example.com/a.png')).toBe('Not a valid image URL or placeholder');
    expect(imageUrlWarning('https://example.com/page')).toBe('This URL may not point to an image');
    expect(MessageBody.safeParse({ content: '', embeds: [embed({ image: { url: 'not a url' } })] }).success).toBe(true);
  });
});

describe('Subject names', () => {
  const nameMessages = (name: string) => messagesOf(CreateSubjectRequest.safeParse({ name }));

  it('accepts 3 to 119 characters, trimmed', () => {
    expect(nameMessages('abc')).toEqual([]);
    expect(nameMessages('x'.repeat(119))).toEqual([]);
    expect(CreateSubjectRequest.parse({ name: '  Billing  ' }).name).toBe('Billing');
  });

  it('names the bound that was broken', () => {
    expect(nameMessages('ab')).toEqual(['Subject name must be at least 3 characters']);
    expect(nameMessages('  ab  ')).toEqual(['Subject name must be at least 3 characters']);
    expect(nameMessages('x'.repeat(120))).toEqual(['Subject name must be under 120 characters']);
  });
});

const button = { text: 'Close', style: 'Danger', url: null, emote: null } as const;
const span = (time: number, unit: 'seconds' | 'minutes' | 'hours' | 'days') => ({ time, unit });
const message = (content: string) => ({
  value: { message: { content, embeds: [] }, serialized: JSON.stringify({ content }) },
  inherits: false,
  enabled: true,
});
const noPerms = { value: { allow: [], deny: [] }, inherits: true };

const subjectFixture = {
  subjectId: 's1',
  serverId: SERVER,
  name: 'Billing',
  deleted: false,
  active: true,
  index: 0,
  inheritsFrom: null,
  questions: ['q1'],
  disableCreation: false,
  requireForm: false,
  language: null,
  ticketNameFormat: { value: 'ticket-{number}', inherits: false },
  staffRoles: { value: ['323456789012345678'], inherits: false },
  categories: { waitingForStaff: [{ id: CHANNEL, selfCreated: true }], waitingForUser: [], moveTickets: false },
  permissions: { userPermissions: noPerms, staffPermissions: noPerms, claimPermissions: noPerms },
  messages: { initialMessage: message('Welcome'), closeMessage: message('Bye'), messageCommandResponse: message('Hi') },
  automation: {
    notifyUser: true,
    requireCloseReason: false,
    notifyClaimer: true,
    closeOnLeave: false,
    dmAuthorOnClose: true,
    closeDelay: span(10, 'seconds'),
    autoCloseTime: {
      value: { warnTime: span(1, 'days'), closeTime: span(2, 'days') },
      inherits: false,
      enabled: false,
    },
  },
  notifications: { mentionOwnerOnReply: true, mentionClaimeeOnReply: false },
  buttons: {
    closeButton: button,
    claimButton: { ...button, text: 'Claim', style: 'Success' },
    cancelCloseButton: { ...button, text: 'Cancel', style: 'Secondary' },
    closeNowButton: { ...button, text: 'Close now' },
    goToTicket: { ...button, text: 'Go to ticket', style: 'Link', url: null },
    linkButton: { enabled: false, text: '', url: null, emote: null },
  },
  limitations: {
    neededCloseRole: 'Staff',
    maxActivePerUser: 1,
    maxActiveTotal: null,
    cooldown: span(0, 'minutes'),
    whitelist: { inverted: false, ids: [] },
  },
  logging: {
    channelId: null,
    rainbowColors: false,
    created: true,
    claimed: true,
    closed: true,
    deleted: true,
    memberAdded: false,
    memberRemoved: false,
    subjectChanged: false,
  },
  files: { storageExceeded: 'Inform', retentionTime: span(90, 'days') },
};

describe('Subject', () => {
  it('parses a full subject, and its short form', () => {
    expect(messagesOf(Subject.safeParse(subjectFixture))).toEqual([]);
    expect(SubjectShort.parse(subjectFixture)).toEqual({
      subjectId: 's1',
      serverId: SERVER,
      name: 'Billing',
      deleted: false,
    });
  });

  it('refuses a permission that is both allowed and denied', () => {
    expect(messagesOf(PermissionOverwrite.safeParse({ allow: ['AttachFiles'], deny: ['AttachFiles'] }))).toEqual([
      'AttachFiles cannot be both allowed and denied',
    ]);
  });
});

describe('Settings updates', () => {
  const update = { serverId: SERVER, subjectId: 's1', path: 'logging.channelId', operation: 'set', value: CHANNEL };

  it('accept a dot-notation path and any JSON value, server-level with an empty subjectId', () => {
    expect(SettingsUpdate.safeParse(update).success).toBe(true);
    expect(SettingsUpdate.safeParse({ ...update, subjectId: '', path: 'language', value: 'de' }).success).toBe(true);
    expect(SettingsUpdate.safeParse({ ...update, value: null }).success).toBe(true);
    expect(
      ServerSettingsUpdate.safeParse({ serverId: SERVER, path: 'language', operation: 'set', value: 'de' }).success,
    ).toBe(true);
    expect(ServerSettingsUpdate.safeParse({ ...update }).success).toBe(false);
  });

  it('require a value and a well-formed path', () => {
    const { value: _value, ...withoutValue } = update;
    expect(
      issueAt(SettingsUpdate.safeParse(withoutValue), 'Invalid input: expected nonoptional, received undefined'),
    ).toEqual(['value']);
    expect(messagesOf(SettingsUpdate.safeParse({ ...update, path: 'logging..channelId' }))).toEqual([
      'must be a dot-notation path such as "logging.channelId"',
    ]);
    expect(SettingsUpdate.safeParse({ ...update, operation: 'replace' }).success).toBe(false);
  });

  it('resolve the schema of the value a path names', () => {
    expect(settingValueSchema('subject', 'logging.channelId', 'set')?.safeParse(CHANNEL).success).toBe(true);
    expect(settingValueSchema('subject', 'logging.channelId', 'set')?.safeParse(null).success).toBe(true);
    expect(settingValueSchema('subject', 'logging.channelId', 'set')?.safeParse('general').success).toBe(false);
    expect(
      settingValueSchema('subject', 'automation.autoCloseTime.value.warnTime', 'set')?.safeParse(span(3, 'hours'))
        .success,
    ).toBe(true);
    expect(settingValueSchema('server', 'language', 'set')?.safeParse('pt-BR').success).toBe(true);
  });

  it('resolve list elements for add and remove, and nothing for non-lists', () => {
    expect(settingValueSchema('subject', 'staffRoles.value', 'add')?.safeParse(CHANNEL).success).toBe(true);
    expect(
      settingValueSchema('subject', 'categories.waitingForUser', 'remove')?.safeParse({
        id: CHANNEL,
        selfCreated: false,
      }).success,
    ).toBe(true);
    expect(settingValueSchema('subject', 'logging.channelId', 'add')).toBeUndefined();
  });

  it('resolve nothing for unknown or read-only paths', () => {
    expect(settingValueSchema('subject', 'logging.nope', 'set')).toBeUndefined();
    expect(settingValueSchema('subject', 'subjectId', 'set')).toBeUndefined();
    expect(settingValueSchema('subject', 'questions', 'add')).toBeUndefined();
    expect(settingValueSchema('subject', 'name.length', 'set')).toBeUndefined();
    expect(settingValueSchema('subject', 'constructor', 'set')).toBeUndefined();
    expect(settingValueSchema('server', 'subscription', 'set')).toBeUndefined();
  });
});
