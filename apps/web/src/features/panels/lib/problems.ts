import type { Problem } from '@ticket/contracts';
import type { TFunction } from 'i18next';

/** The wizard's steps (SPEC §2), in order. */
export const STEPS = ['message', 'actions', 'components', 'channel', 'send'] as const;
export type StepId = (typeof STEPS)[number];

/** The step whose fields a problem of `panelProblems()` (or a server field path) concerns. */
export function stepOfPath(path: readonly PropertyKey[]): StepId {
  switch (path[0]) {
    case 'message':
      return 'message';
    case 'subjects':
      return 'components';
    case 'channelId':
      return 'channel';
    default:
      return 'send';
  }
}

/** Where a server error's `field` (e.g. `body.subjects.0.subjectId`) points, as a problem path. */
export const pathOfField = (field: string | undefined): PropertyKey[] =>
  field ? field.replace(/^body\.?/, '').split('.').filter(Boolean).map((part) => (/^\d+$/.test(part) ? Number(part) : part)) : [];

export const samePath = (a: readonly PropertyKey[], b: readonly PropertyKey[]): boolean =>
  a.length === b.length && a.every((part, i) => part === b[i]);

/** The problems whose path is exactly `path`, translated. */
export const problemsAt = (problems: readonly Problem[], path: readonly PropertyKey[], t: TFunction): string | undefined => {
  const found = problems.filter((p) => samePath(p.path, path)).map((p) => translateProblem(p, t));
  return found.length > 0 ? found.join(' ') : undefined;
};

/**
 * The rules' messages come from the contracts in English, worded as SPEC §5 words them. Each known
 * one is said in the UI language (the English text of each key is that same wording); an unknown
 * one is shown as it came.
 */
export function translateProblem({ message }: Problem, t: TFunction): string {
  let m: RegExpExecArray | null;
  if ((m = /^Button (\d+) needs button text$/.exec(message))) return t('panels.problems.buttonText', { n: m[1] });
  if ((m = /^Button (\d+) needs a subject selected$/.exec(message))) return t('panels.problems.buttonSubject', { n: m[1] });
  if ((m = /^Option (\d+) needs a label$/.exec(message))) return t('panels.problems.optionLabel', { n: m[1] });
  if ((m = /^Option (\d+) needs a subject selected$/.exec(message))) return t('panels.problems.optionSubject', { n: m[1] });
  if ((m = /^Button (\d+) opens the same subject as button (\d+)$/.exec(message))) {
    return t('panels.problems.buttonSameSubject', { n: m[1], other: m[2] });
  }
  if ((m = /^Option (\d+) opens the same subject as option (\d+)$/.exec(message))) {
    return t('panels.problems.optionSameSubject', { n: m[1], other: m[2] });
  }
  if ((m = /^Embed (\d+) is empty$/.exec(message))) return t('panels.problems.embedEmpty', { n: m[1] });
  if ((m = /^Field (\d+) of embed (\d+) needs a name and a value$/.exec(message))) {
    return t('panels.problems.fieldIncomplete', { n: m[1], embed: m[2] });
  }
  switch (message) {
    case 'Add at least one button':
      return t('panels.problems.noButtons');
    case 'Add at least one option':
      return t('panels.problems.noOptions');
    case 'A channel must be selected':
      return t('panels.problems.channel');
    case 'A message is required':
      return t('panels.problems.messageRequired');
    case 'The message needs content or an embed':
      return t('panels.problems.messageEmpty');
    default:
      return message;
  }
}

/** `imageUrlWarning()`'s two texts, said in the UI language. */
export function translateImageWarning(warning: string | null, t: TFunction): string | undefined {
  if (warning === null) return undefined;
  if (warning === 'Not a valid image URL or placeholder') return t('panels.imageWarnings.invalid');
  if (warning === 'This URL may not point to an image') return t('panels.imageWarnings.notImage');
  return warning;
}
