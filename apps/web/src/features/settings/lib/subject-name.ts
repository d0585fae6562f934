import type { TFunction } from 'i18next';

/** SPEC §5, §9: a subject name has at least 3 and fewer than 120 characters. */
export const SUBJECT_NAME_MIN = 3;
export const SUBJECT_NAME_MAX = 119;

/**
 * What is wrong with a subject name, in the server's words (SPEC §5: at least 3 and under 120
 * characters, unique within the server, ignoring case), or undefined when nothing is.
 */
export function subjectNameProblem(t: TFunction, name: string, otherNames: readonly string[]): string | undefined {
  const trimmed = name.trim();
  if (trimmed.length < SUBJECT_NAME_MIN) return t('settings.subjectName.tooShort', { min: SUBJECT_NAME_MIN });
  if (trimmed.length > SUBJECT_NAME_MAX) return t('settings.subjectName.tooLong', { max: SUBJECT_NAME_MAX + 1 });
  const key = trimmed.toLowerCase();
  if (otherNames.some((other) => other.trim().toLowerCase() === key)) return t('settings.subjectName.taken', { name: trimmed });
  return undefined;
}
