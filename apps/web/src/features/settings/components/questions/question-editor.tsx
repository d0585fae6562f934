import {
  ActionIcon,
  Alert,
  Button,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import type { AnswerFormat, Problem, QuestionButton, QuestionOption, QuestionType, TemplateDraft } from '@ticket/contracts';
import { DISCORD_LIMITS, questionProblems } from '@ticket/contracts/rules';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/error-message';
import { problemText } from '../../lib/problem-text';
import { ButtonStyleSelect, isLinkTarget } from '../controls/button-editor';
import { EmojiPicker } from '../controls/emoji-picker';
import { FieldGroup } from '../controls/settings-card';
import { isResponseError } from '@/lib/api';

const QUESTION_TYPES: readonly QuestionType[] = ['Button', 'Selection', 'Text'];
const ANSWER_FORMATS: readonly AnswerFormat[] = ['None', 'CodeLine', 'CodeBlock'];

const newId = (): string =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : Math.random().toString(36).slice(2, 14);

export const newButton = (): QuestionButton => ({ buttonId: newId(), text: '', style: 'Primary', url: null, emote: null });
export const newOption = (): QuestionOption => ({ optionId: newId(), label: '', description: null });

/** The values a question of a type starts with. */
export function withType(draft: TemplateDraft, type: QuestionType): TemplateDraft {
  const { answerFormat, question, slug, index } = draft;
  const base = { answerFormat, question, slug, index };
  switch (type) {
    case 'Button':
      return { ...base, type, values: [newButton()] };
    case 'Selection':
      return { ...base, type, values: [newOption()] };
    case 'Text':
      return { ...base, type, values: { large: false, minLength: null, maxLength: null, placeholder: null } };
  }
}

/** A new question: a text answer, nothing written yet. */
export const emptyQuestion = (index: number): TemplateDraft => ({
  answerFormat: 'None',
  question: '',
  slug: '',
  index,
  type: 'Text',
  values: { large: false, minLength: null, maxLength: null, placeholder: null },
});

/** A slug made from the question text: what the slug is until the admin writes one. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
}

const samePath = (a: readonly PropertyKey[], b: readonly PropertyKey[]) => a.length === b.length && a.every((p, i) => p === b[i]);

/**
 * The SPEC §5 rules (questionProblems of the contracts), plus the one the switch adds: with
 * length validation on, both bounds are required even before either is written.
 */
export function draftProblems(draft: TemplateDraft, lengthValidation: boolean): Problem[] {
  const problems = questionProblems(draft);
  if (draft.type === 'Text' && lengthValidation && draft.values.minLength === null && draft.values.maxLength === null) {
    problems.push({ path: ['values', 'minLength'], message: 'Minimum length is required' });
    problems.push({ path: ['values', 'maxLength'], message: 'Maximum length is required' });
  }
  return problems;
}

interface QuestionEditorProps {
  initial: TemplateDraft;
  isNew: boolean;
  onSave: (draft: TemplateDraft) => Promise<unknown>;
  onCancel: () => void;
}

/** Edits one form question (SPEC §3, §5): nothing is sent while the rules find a problem. */
export function QuestionEditor({ initial, isNew, onSave, onCancel }: QuestionEditorProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const [draft, setDraft] = useState<TemplateDraft>(initial);
  const [slugEdited, setSlugEdited] = useState(!isNew || initial.slug !== '');
  const [lengthValidation, setLengthValidation] = useState(
    initial.type === 'Text' && (initial.values.minLength !== null || initial.values.maxLength !== null),
  );
  const [saving, setSaving] = useState(false);
  const [serverError, setServerError] = useState<{ message: string; field?: string } | null>(null);
  const problems = draftProblems(draft, lengthValidation);
  const at = (...path: PropertyKey[]) => {
    const found = problems.filter((p) => samePath(p.path, path)).map((p) => problemText(t, p.message));
    return found.length > 0 ? found.join(' · ') : undefined;
  };
  const slugServerError = serverError?.field?.endsWith('slug') ? serverError.message : undefined;

  const update = (next: TemplateDraft) => {
    setDraft(next);
    setServerError(null);
  };

  const save = async () => {
    if (problems.length > 0) return;
    setSaving(true);
    try {
      await onSave(draft);
    } catch (error) {
      setServerError({ message: errorMessage(error), field: isResponseError(error) ? error.body?.field : undefined });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Paper
      component="form"
      withBorder
      p="sm"
      radius="md"
      aria-labelledby={headingId}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <Stack gap="sm">
        <Text fw={600} id={headingId}>
          {isNew ? t('settings.questions.newTitle') : t('settings.questions.editTitle')}
        </Text>
        <Stack gap={4}>
          <Text size="sm" fw={500} id={`${headingId}-type`}>
            {t('settings.questions.type')}
          </Text>
          <SegmentedControl
            aria-labelledby={`${headingId}-type`}
            value={draft.type}
            data={QUESTION_TYPES.map((type) => ({ value: type, label: t(`settings.questions.types.${type}`) }))}
            onChange={(type) => {
              setLengthValidation(false);
              update(withType(draft, type as QuestionType));
            }}
            fullWidth
          />
        </Stack>
        <TextInput
          label={t('settings.questions.question')}
          value={draft.question}
          maxLength={256}
          error={at('question')}
          onChange={(event) => {
            const question = event.currentTarget.value;
            update({ ...draft, question, slug: slugEdited ? draft.slug : slugify(question) });
          }}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput
            label={t('settings.questions.slug')}
            description={t('settings.questions.slugHint')}
            value={draft.slug}
            maxLength={64}
            error={at('slug') ?? slugServerError}
            onChange={(event) => {
              setSlugEdited(true);
              update({ ...draft, slug: event.currentTarget.value });
            }}
          />
          <Select
            label={t('settings.questions.answerFormat')}
            description={t('settings.questions.answerFormatHint')}
            data={ANSWER_FORMATS.map((format) => ({ value: format, label: t(`settings.questions.answerFormats.${format}`) }))}
            value={draft.answerFormat}
            allowDeselect={false}
            onChange={(format) => format && update({ ...draft, answerFormat: format as AnswerFormat })}
          />
        </SimpleGrid>

        {draft.type === 'Button' && (
          <FieldGroup legend={t('settings.questions.buttons')}>
            {draft.values.map((button, i) => {
              const setButton = (patch: Partial<QuestionButton>) =>
                update({ ...draft, values: draft.values.map((b, j) => (j === i ? { ...b, ...patch } : b)) });
              return (
                <FieldGroup key={button.buttonId} legend={t('settings.questions.buttonN', { n: i + 1 })}>
                  <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
                    <TextInput
                      label={t('settings.buttons.text')}
                      value={button.text}
                      maxLength={DISCORD_LIMITS.buttonLabel}
                      error={at('values', i, 'text')}
                      onChange={(event) => setButton({ text: event.currentTarget.value })}
                    />
                    <ButtonStyleSelect
                      value={button.style}
                      onChange={(style) => setButton({ style, url: style === 'Link' ? button.url : null })}
                    />
                  </SimpleGrid>
                  {button.style === 'Link' && (
                    <TextInput
                      label={t('settings.buttons.url')}
                      value={button.url ?? ''}
                      maxLength={2048}
                      error={at('values', i, 'url') ?? (button.url && !isLinkTarget(button.url) ? t('settings.buttons.urlInvalid') : undefined)}
                      onChange={(event) => setButton({ url: event.currentTarget.value })}
                    />
                  )}
                  <Group justify="space-between" align="flex-end">
                    <EmojiPicker label={t('settings.buttons.emoji')} value={button.emote} onChange={(emote) => setButton({ emote })} />
                    <Button
                      variant="subtle"
                      color="red"
                      size="compact-sm"
                      onClick={() => update({ ...draft, values: draft.values.filter((_, j) => j !== i) })}
                    >
                      {t('settings.questions.removeButton', { n: i + 1 })}
                    </Button>
                  </Group>
                  {at('values', i) && (
                    <Text size="xs" c="red">
                      {at('values', i)}
                    </Text>
                  )}
                </FieldGroup>
              );
            })}
            <ListEnd
              error={at('values')}
              addLabel={t('settings.questions.addButton')}
              full={draft.values.length >= DISCORD_LIMITS.buttonsPerMessage}
              onAdd={() => update({ ...draft, values: [...draft.values, newButton()] })}
            />
          </FieldGroup>
        )}

        {draft.type === 'Selection' && (
          <FieldGroup legend={t('settings.questions.options')}>
            {draft.values.map((option, i) => {
              const setOption = (patch: Partial<QuestionOption>) =>
                update({ ...draft, values: draft.values.map((o, j) => (j === i ? { ...o, ...patch } : o)) });
              return (
                <Group key={option.optionId} align="flex-start" gap="xs" wrap="wrap">
                  <TextInput
                    label={t('settings.questions.optionLabel', { n: i + 1 })}
                    value={option.label}
                    maxLength={DISCORD_LIMITS.selectOptionLabel}
                    error={at('values', i, 'label') ?? at('values', i)}
                    onChange={(event) => setOption({ label: event.currentTarget.value })}
                    style={{ flex: '1 1 160px' }}
                  />
                  <TextInput
                    label={t('settings.questions.optionDescription', { n: i + 1 })}
                    value={option.description ?? ''}
                    maxLength={DISCORD_LIMITS.selectOptionDescription}
                    onChange={(event) => setOption({ description: event.currentTarget.value === '' ? null : event.currentTarget.value })}
                    style={{ flex: '2 1 200px' }}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    mt={26}
                    aria-label={t('settings.questions.removeOption', { n: i + 1 })}
                    onClick={() => update({ ...draft, values: draft.values.filter((_, j) => j !== i) })}
                  >
                    ✕
                  </ActionIcon>
                </Group>
              );
            })}
            <ListEnd
              error={at('values')}
              addLabel={t('settings.questions.addOption')}
              full={draft.values.length >= DISCORD_LIMITS.selectOptions}
              onAdd={() => update({ ...draft, values: [...draft.values, newOption()] })}
            />
          </FieldGroup>
        )}

        {draft.type === 'Text' && (
          <FieldGroup legend={t('settings.questions.answer')}>
            <Switch
              label={t('settings.questions.large')}
              checked={draft.values.large}
              onChange={(event) => update({ ...draft, values: { ...draft.values, large: event.currentTarget.checked } })}
            />
            <TextInput
              label={t('settings.questions.placeholder')}
              value={draft.values.placeholder ?? ''}
              maxLength={DISCORD_LIMITS.textInputPlaceholder}
              onChange={(event) =>
                update({ ...draft, values: { ...draft.values, placeholder: event.currentTarget.value === '' ? null : event.currentTarget.value } })
              }
            />
            <Switch
              label={t('settings.questions.lengthValidation')}
              checked={lengthValidation}
              onChange={(event) => {
                const on = event.currentTarget.checked;
                setLengthValidation(on);
                if (!on) update({ ...draft, values: { ...draft.values, minLength: null, maxLength: null } });
              }}
            />
            {lengthValidation && (
              <SimpleGrid cols={2} spacing="sm">
                <NumberInput
                  label={t('settings.questions.minLength')}
                  value={draft.values.minLength ?? ''}
                  max={DISCORD_LIMITS.textInputLength}
                  allowDecimal={false}
                  error={at('values', 'minLength')}
                  onChange={(value) =>
                    update({ ...draft, values: { ...draft.values, minLength: typeof value === 'number' ? value : null } })
                  }
                />
                <NumberInput
                  label={t('settings.questions.maxLength')}
                  value={draft.values.maxLength ?? ''}
                  max={DISCORD_LIMITS.textInputLength}
                  allowDecimal={false}
                  error={at('values', 'maxLength')}
                  onChange={(value) =>
                    update({ ...draft, values: { ...draft.values, maxLength: typeof value === 'number' ? value : null } })
                  }
                />
              </SimpleGrid>
            )}
          </FieldGroup>
        )}

        {serverError && !slugServerError && (
          <Alert color="red" role="alert" title={t('settings.questions.saveFailed')}>
            {serverError.message}
          </Alert>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel}>
            {t('settings.questions.cancel')}
          </Button>
          <Button type="submit" loading={saving} disabled={problems.length > 0}>
            {isNew ? t('settings.questions.add') : t('settings.questions.save')}
          </Button>
        </Group>
        {problems.length > 0 && (
          <Text size="xs" c="dimmed">
            {t('settings.questions.fixProblems', { count: problems.length })}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/** Under a question's buttons or options: what is wrong with the list as a whole, and adding one more. */
function ListEnd({ error, addLabel, full, onAdd }: { error: string | undefined; addLabel: string; full: boolean; onAdd: () => void }) {
  return (
    <>
      {error && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
      <Button variant="light" size="compact-sm" style={{ alignSelf: 'flex-start' }} disabled={full} onClick={onAdd}>
        {addLabel}
      </Button>
    </>
  );
}
