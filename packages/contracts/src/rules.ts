/**
 * The rules of SPEC §5 that the editors check as the admin types and the services check again on
 * save, with the platform's limits. Nothing here needs zod, so a screen that only checks its input
 * loads this module alone (`@ticket/contracts/rules`), not the schemas.
 */
import type { Embed, MessageBody, PanelButton, PanelOption, QuestionContent } from './settings';

/** Limits the chat platform enforces on what the bot sends; exceeding one makes the send fail. */
export const DISCORD_LIMITS = {
  messageContent: 2000,
  embedsPerMessage: 10,
  embedTitle: 256,
  embedDescription: 4096,
  embedFields: 25,
  embedFieldName: 256,
  embedFieldValue: 1024,
  embedFooterText: 2048,
  embedAuthorName: 256,
  embedTotal: 6000,
  buttonsPerRow: 5,
  buttonsPerMessage: 25,
  buttonLabel: 80,
  selectOptions: 25,
  selectOptionLabel: 100,
  selectOptionDescription: 100,
  channelName: 100,
  modalLabel: 45,
  textInputLength: 4000,
  textInputPlaceholder: 100,
  activityName: 128,
} as const;

/** One problem found by a validator: where (as a zod issue path) and what, in words a user understands. */
export interface Problem {
  path: PropertyKey[];
  message: string;
}

const isBlank = (s: string | null | undefined): boolean => s == null || s.trim() === '';

/** Placeholders a ticket name format may use; the bot substitutes them when it names the channel. */
export const TICKET_NAME_PLACEHOLDERS = ['{number}', '{username}', '{userId}', '{subject}'] as const;

/** Channel permissions a subject can allow or deny to ticket users, staff and claimers. */
export const CHANNEL_PERMISSIONS = [
  'ViewChannel',
  'SendMessages',
  'SendMessagesInThreads',
  'CreatePublicThreads',
  'CreatePrivateThreads',
  'EmbedLinks',
  'AttachFiles',
  'AddReactions',
  'UseExternalEmojis',
  'UseExternalStickers',
  'MentionEveryone',
  'ManageMessages',
  'ManageThreads',
  'ReadMessageHistory',
  'SendTTSMessages',
  'SendVoiceMessages',
  'SendPolls',
  'UseApplicationCommands',
  'UseExternalApps',
  'CreateInstantInvite',
  'ManageChannels',
  'ManageRoles',
  'ManageWebhooks',
] as const;

const PLACEHOLDER = /^\{[A-Za-z][\w.]*\}$/;

/**
 * The warning the editors show under an image URL (SPEC §5: a warning only; saving is allowed).
 * Null when the value is empty, a placeholder or an http(s) URL of an image.
 */
export const imageUrlWarning = (url: string): string | null => {
  const value = url.trim();
  if (value === '' || PLACEHOLDER.test(value)) return null;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return 'Not a valid image URL or placeholder';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'Not a valid image URL or placeholder';
  if (!/\.(png|jpe?g|gif|webp|avif)$/i.test(parsed.pathname)) return 'This URL may not point to an image';
  return null;
};

/** Characters the platform counts towards its 6000-character limit on the embeds of one message. */
export const embedTextLength = (e: Embed): number =>
  (e.title?.length ?? 0) +
  (e.description?.length ?? 0) +
  (e.footer?.text.length ?? 0) +
  (e.author?.name.length ?? 0) +
  (e.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0);

/** Whether an embed would show anything at all (the platform rejects empty ones). */
export const embedIsEmpty = (e: Embed): boolean =>
  isBlank(e.title) &&
  isBlank(e.description) &&
  isBlank(e.footer?.text) &&
  isBlank(e.author?.name) &&
  isBlank(e.image?.url) &&
  isBlank(e.thumbnail?.url) &&
  (e.fields ?? []).length === 0;

const duplicates = <T>(items: T[], key: (t: T) => string, what: string): Problem[] => {
  const seen = new Map<string, number>();
  const problems: Problem[] = [];
  items.forEach((item, i) => {
    const k = key(item);
    const first = seen.get(k);
    if (first === undefined) seen.set(k, i);
    else
      problems.push({
        path: ['values', i],
        message: `${what} ${i + 1} has the same id as ${what.toLowerCase()} ${first + 1}`,
      });
  });
  return problems;
};

/** The question rules of SPEC §5, plus what the platform needs to show the question. */
export const questionProblems = (q: QuestionContent): Problem[] => {
  const problems: Problem[] = [];
  if (isBlank(q.question)) problems.push({ path: ['question'], message: 'Question text is required' });
  else if (q.type === 'Text' && q.question.trim().length > DISCORD_LIMITS.modalLabel) {
    problems.push({
      path: ['question'],
      message: `Text questions can be at most ${DISCORD_LIMITS.modalLabel} characters long`,
    });
  }
  if (isBlank(q.slug)) problems.push({ path: ['slug'], message: 'Slug is required' });
  else if (!/^[A-Za-z0-9_-]+$/.test(q.slug)) {
    problems.push({ path: ['slug'], message: 'Slug may only contain letters, digits, "-" and "_"' });
  }
  switch (q.type) {
    case 'Button':
      if (q.values.length === 0) problems.push({ path: ['values'], message: 'Add at least one button' });
      q.values.forEach((b, i) => {
        if (isBlank(b.text))
          problems.push({ path: ['values', i, 'text'], message: `Button ${i + 1} needs button text` });
        if (b.style === 'Link' && isBlank(b.url)) {
          problems.push({ path: ['values', i, 'url'], message: `Button ${i + 1} needs a URL` });
        }
      });
      problems.push(...duplicates(q.values, (b) => b.buttonId, 'Button'));
      break;
    case 'Selection':
      if (q.values.length === 0) problems.push({ path: ['values'], message: 'Add at least one option' });
      q.values.forEach((o, i) => {
        if (isBlank(o.label)) problems.push({ path: ['values', i, 'label'], message: `Option ${i + 1} needs a label` });
      });
      problems.push(...duplicates(q.values, (o) => o.optionId, 'Option'));
      break;
    case 'Text': {
      const { minLength: min, maxLength: max } = q.values;
      if (min === null && max === null) break;
      if (min === null) problems.push({ path: ['values', 'minLength'], message: 'Minimum length is required' });
      else if (min <= 0)
        problems.push({ path: ['values', 'minLength'], message: 'Minimum length must be a positive number' });
      if (max === null) problems.push({ path: ['values', 'maxLength'], message: 'Maximum length is required' });
      else if (max <= 0)
        problems.push({ path: ['values', 'maxLength'], message: 'Maximum length must be a positive number' });
      if (min !== null && max !== null && min > 0 && max > 0 && min >= max) {
        problems.push({ path: ['values', 'minLength'], message: 'Minimum length must be less than maximum length' });
      }
      break;
    }
  }
  return problems;
};

/** What panelProblems looks at: the sendable content of a panel, stored or being edited. */
export type PanelContent = { channelId: string | null; message: MessageBody | null } & (
  { type: 'BUTTON'; subjects: PanelButton[] } | { type: 'LIST'; subjects: PanelOption[] }
);

const sameSubject = (subjects: { subjectId: string | null }[], what: string): Problem[] => {
  const seen = new Map<string, number>();
  const problems: Problem[] = [];
  subjects.forEach((s, i) => {
    if (s.subjectId === null) return;
    const first = seen.get(s.subjectId);
    if (first === undefined) seen.set(s.subjectId, i);
    else {
      problems.push({
        path: ['subjects', i, 'subjectId'],
        message: `${what} ${i + 1} opens the same subject as ${what.toLowerCase()} ${first + 1}`,
      });
    }
  });
  return problems;
};

/** The panel rules of SPEC §5, checked before a panel is posted. Button and option numbers are 1-based. */
export const panelProblems = (p: PanelContent): Problem[] => {
  const problems: Problem[] = [];
  if (p.type === 'BUTTON') {
    if (p.subjects.length === 0) problems.push({ path: ['subjects'], message: 'Add at least one button' });
    p.subjects.forEach((b, i) => {
      if (isBlank(b.text))
        problems.push({ path: ['subjects', i, 'text'], message: `Button ${i + 1} needs button text` });
      if (b.subjectId === null) {
        problems.push({ path: ['subjects', i, 'subjectId'], message: `Button ${i + 1} needs a subject selected` });
      }
    });
    problems.push(...sameSubject(p.subjects, 'Button'));
  } else {
    if (p.subjects.length === 0) problems.push({ path: ['subjects'], message: 'Add at least one option' });
    p.subjects.forEach((o, i) => {
      if (isBlank(o.label)) problems.push({ path: ['subjects', i, 'label'], message: `Option ${i + 1} needs a label` });
      if (o.subjectId === null) {
        problems.push({ path: ['subjects', i, 'subjectId'], message: `Option ${i + 1} needs a subject selected` });
      }
    });
    problems.push(...sameSubject(p.subjects, 'Option'));
  }
  if (p.channelId === null) problems.push({ path: ['channelId'], message: 'A channel must be selected' });
  if (p.message === null) {
    problems.push({ path: ['message'], message: 'A message is required' });
  } else {
    p.message.embeds.forEach((e, i) => {
      if (embedIsEmpty(e)) problems.push({ path: ['message', 'embeds', i], message: `Embed ${i + 1} is empty` });
      (e.fields ?? []).forEach((f, j) => {
        if (isBlank(f.name) || isBlank(f.value)) {
          problems.push({
            path: ['message', 'embeds', i, 'fields', j],
            message: `Field ${j + 1} of embed ${i + 1} needs a name and a value`,
          });
        }
      });
    });
    if (isBlank(p.message.content) && p.message.embeds.every(embedIsEmpty)) {
      problems.push({ path: ['message'], message: 'The message needs content or an embed' });
    }
  }
  return problems;
};
