import { Stack, Text, TextInput } from '@mantine/core';
import type { Problem } from '@ticket/contracts';
import { DISCORD_LIMITS } from '@ticket/contracts/rules';
import { useTranslation } from 'react-i18next';
import { newOption, type OptionDraft } from '../../lib/draft';
import { problemsAt } from '../../lib/problems';
import { EmojiField } from '../emoji/emoji-field';
import { AddRow, ListRow } from './row-controls';
import { type SubjectItem, SubjectSelect } from './subject-select';

interface OptionsStepProps {
  options: OptionDraft[];
  onChange: (options: OptionDraft[]) => void;
  subjects: readonly SubjectItem[];
  subjectsLoading: boolean;
  problems: readonly Problem[];
}

/** The dropdown's options: label, description, emoji and subject each. */
export function OptionsStep({ options, onChange, subjects, subjectsLoading, problems }: OptionsStepProps) {
  const { t } = useTranslation();
  const max = DISCORD_LIMITS.selectOptions;
  const set = (index: number, patch: Partial<OptionDraft>) =>
    onChange(options.map((o, i) => (i === index ? { ...o, ...patch } : o)));
  const listProblem = problemsAt(problems, ['subjects'], t);
  return (
    <Stack gap="md">
      <Text fw={600} aria-live="polite">
        {t('panels.options.count', { count: options.length, max })}
      </Text>
      {listProblem && (
        <Text c="red" size="sm" role="alert">
          {listProblem}
        </Text>
      )}
      {options.map((option, index) => {
        const name = t('panels.options.name', { n: index + 1 });
        return (
          <ListRow key={option.key} legend={name} name={name} index={index} items={options} onChange={onChange}>
            <TextInput
              label={t('panels.options.label')}
              value={option.label}
              maxLength={DISCORD_LIMITS.selectOptionLabel}
              onChange={(event) => set(index, { label: event.currentTarget.value })}
              error={problemsAt(problems, ['subjects', index, 'label'], t)}
              withAsterisk
            />
            <SubjectSelect
              label={t('panels.options.subject')}
              subjects={subjects}
              loading={subjectsLoading}
              value={option.subjectId}
              onChange={(subjectId) => set(index, { subjectId })}
              error={problemsAt(problems, ['subjects', index, 'subjectId'], t)}
            />
            <TextInput
              label={t('panels.options.description')}
              value={option.description}
              maxLength={DISCORD_LIMITS.selectOptionDescription}
              onChange={(event) => set(index, { description: event.currentTarget.value })}
            />
            <EmojiField
              label={t('panels.emoji.label')}
              name={name}
              value={option.emoji}
              onChange={(emoji) => set(index, { emoji })}
            />
          </ListRow>
        );
      })}
      <AddRow label={t('panels.options.add')} full={options.length >= max} fullText={t('panels.options.full', { max })} onAdd={() => onChange([...options, newOption()])} />
    </Stack>
  );
}
