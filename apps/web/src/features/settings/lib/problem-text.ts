import type { TFunction } from 'i18next';

type Rule = [RegExp, (t: TFunction, match: RegExpExecArray) => string];

/**
 * The validators of the contracts (questionProblems, imageUrlWarning) speak English; these are
 * their messages in the UI language. A message not listed here is shown as it is.
 */
const RULES: Rule[] = [
  [/^Question text is required$/, (t) => t('settings.problems.questionRequired')],
  [/^Text questions can be at most (\d+) characters long$/, (t, m) => t('settings.problems.questionTooLong', { max: m[1] })],
  [/^Slug is required$/, (t) => t('settings.problems.slugRequired')],
  [/^Slug may only contain letters, digits, "-" and "_"$/, (t) => t('settings.problems.slugCharacters')],
  [/^Add at least one button$/, (t) => t('settings.problems.addButton')],
  [/^Button (\d+) needs button text$/, (t, m) => t('settings.problems.buttonText', { n: m[1] })],
  [/^Button (\d+) needs a URL$/, (t, m) => t('settings.problems.buttonUrl', { n: m[1] })],
  [/^Button (\d+) has the same id as button (\d+)$/, (t, m) => t('settings.problems.buttonDuplicate', { n: m[1], first: m[2] })],
  [/^Add at least one option$/, (t) => t('settings.problems.addOption')],
  [/^Option (\d+) needs a label$/, (t, m) => t('settings.problems.optionLabel', { n: m[1] })],
  [/^Option (\d+) has the same id as option (\d+)$/, (t, m) => t('settings.problems.optionDuplicate', { n: m[1], first: m[2] })],
  [/^Minimum length is required$/, (t) => t('settings.problems.minRequired')],
  [/^Maximum length is required$/, (t) => t('settings.problems.maxRequired')],
  [/^Minimum length must be a positive number$/, (t) => t('settings.problems.minPositive')],
  [/^Maximum length must be a positive number$/, (t) => t('settings.problems.maxPositive')],
  [/^Minimum length must be less than maximum length$/, (t) => t('settings.problems.minBelowMax')],
  [/^Not a valid image URL or placeholder$/, (t) => t('settings.problems.imageUrlInvalid')],
  [/^This URL may not point to an image$/, (t) => t('settings.problems.imageUrlNotImage')],
];

export function problemText(t: TFunction, message: string): string {
  for (const [pattern, text] of RULES) {
    const match = pattern.exec(message);
    if (match) return text(t, match);
  }
  return message;
}
