import { Button, Fieldset, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { Problem } from '@ticket/contracts';
import { DISCORD_LIMITS } from '@ticket/contracts/rules';
import { useTranslation } from 'react-i18next';
import { move, newOption, type OptionDraft } from '../../lib/draft';
import { problemsAt } from '../../lib/problems';
import { EmojiField } from '../emoji/emoji-field';
import { PlusIcon } from '@/components/icons';
import { RowControls } from './row-controls';
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
          <Fieldset key={option.key} legend={name} variant="filled">
            <Stack gap="sm">
              <Group justify="flex-end" mt={-8}>
                <RowControls
                  index={index}
                  count={options.length}
                  name={name}
                  onMove={(from, to) => onChange(move(options, from, to))}
                  onRemove={(at) => onChange(options.filter((_, i) => i !== at))}
                />
              </Group>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
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
              </SimpleGrid>
            </Stack>
          </Fieldset>
        );
      })}
      <Group>
        <Button
          variant="light"
          leftSection={<PlusIcon />}
          disabled={options.length >= max}
          onClick={() => onChange([...options, newOption()])}
        >
          {t('panels.options.add')}
        </Button>
        {options.length >= max && (
          <Text size="sm" c="dimmed">
            {t('panels.options.full', { max })}
          </Text>
        )}
      </Group>
    </Stack>
  );
}
