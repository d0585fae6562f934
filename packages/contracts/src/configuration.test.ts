import { describe, expect, it } from 'vitest';
import { callExamples } from './examples';
import { ConfigurationDocument, serviceCalls } from './index';

const fieldsOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) => result.error?.issues.map((i) => i.path.join('.')) ?? [];
const example = callExamples.settings.updateConfiguration!.body!;
const [billing] = example.subjects;
const withSubjects = (subjects: unknown[], panels: unknown[] = example.panels) => ({ ...example, subjects, panels });

describe('configuration contracts', () => {
  it('are calls of the settings base', () => {
    expect(Object.keys(serviceCalls.settings)).toEqual(expect.arrayContaining(['getConfiguration', 'getConfigurationChanges', 'updateConfiguration']));
  });

  it('take a file of this format and version only', () => {
    expect(ConfigurationDocument.safeParse(example).success).toBe(true);
    expect(fieldsOf(ConfigurationDocument.safeParse({ ...example, format: 'other' }))).toEqual(['format']);
    expect(fieldsOf(ConfigurationDocument.safeParse({ ...example, version: 2 }))).toEqual(['version']);
  });

  it('refuse names and ids that appear twice, and slugs that appear twice in one subject', () => {
    const copy = { ...billing, subjectId: 'another', name: 'BILLING ' };
    expect(fieldsOf(ConfigurationDocument.safeParse(withSubjects([billing, copy])))).toEqual(['subjects.1.name']);
    expect(fieldsOf(ConfigurationDocument.safeParse(withSubjects([billing, { ...billing, name: 'Other' }])))).toEqual(['subjects.1.subjectId']);
    const twice = { ...billing, questions: [billing!.questions[0], { ...billing!.questions[0], index: 1, slug: 'ORDER' }] };
    expect(fieldsOf(ConfigurationDocument.safeParse(withSubjects([twice])))).toEqual(['subjects.0.questions.1.slug']);
  });

  it('refuse references to subjects the file does not have, and inheritance in a circle', () => {
    expect(fieldsOf(ConfigurationDocument.safeParse(withSubjects([{ ...billing, inheritsFrom: 'missing' }])))).toEqual(['subjects.0.inheritsFrom']);
    const a = { ...billing, subjectId: 'a', name: 'Alpha', inheritsFrom: 'b' };
    const b = { ...billing, subjectId: 'b', name: 'Beta', inheritsFrom: 'a' };
    expect(fieldsOf(ConfigurationDocument.safeParse(withSubjects([a, b], [])))).toEqual(['subjects.0.inheritsFrom', 'subjects.1.inheritsFrom']);
    expect(fieldsOf(ConfigurationDocument.safeParse(withSubjects([], example.panels)))).toEqual(['panels.0.subjects.0.subjectId']);
  });
});
