import { Group, Select, Stack, Text, TextInput } from '@mantine/core';
import type { PanelButtonStyle, Problem } from '@ticket/contracts';
import { DISCORD_LIMITS } from '@ticket/contracts/rules';
import { useTranslation } from 'react-i18next';
import { type ButtonDraft, newButton } from '../../lib/draft';
import { problemsAt } from '../../lib/problems';
import { EmojiField } from '../emoji/emoji-field';
import { AddRow, ListRow } from './row-controls';
import { type SubjectItem, SubjectSelect } from './subject-select';

const STYLES: readonly PanelButtonStyle[] = ['Primary', 'Secondary', 'Success', 'Danger'];

interface ButtonsStepProps {
  buttons: ButtonDraft[];
  onChange: (buttons: ButtonDraft[]) => void;
  subjects: readonly SubjectItem[];
  subjectsLoading: boolean;
  problems: readonly Problem[];
}

/** The panel's buttons: text, style, emoji and subject each, in rows of five on the platform. */
export function ButtonsStep({ buttons, onChange, subjects, subjectsLoading, problems }: ButtonsStepProps) {
  const { t } = useTranslation();
  const max = DISCORD_LIMITS.buttonsPerMessage;
  const perRow = DISCORD_LIMITS.buttonsPerRow;
  const set = (index: number, patch: Partial<ButtonDraft>) =>
    onChange(buttons.map((b, i) => (i === index ? { ...b, ...patch } : b)));
  const listProblem = problemsAt(problems, ['subjects'], t);
  return (
    <Stack gap="md">
      <Group justify="space-between" gap="xs">
        <Text fw={600} aria-live="polite">
          {t('panels.buttons.count', { count: buttons.length, max })}
        </Text>
        <Text size="sm" c="dimmed">
          {t('panels.buttons.perRow', { count: perRow })}
        </Text>
      </Group>
      {listProblem && (
        <Text c="red" size="sm" role="alert">
          {listProblem}
        </Text>
      )}
      {buttons.map((button, index) => {
        const name = t('panels.buttons.name', { n: index + 1 });
        return (
          <ListRow
            key={button.key}
            legend={
              <span>
                {name}{' '}
                <Text span size="xs" c="dimmed">
                  {t('panels.buttons.row', { n: Math.floor(index / perRow) + 1 })}
                </Text>
              </span>
            }
            name={name}
            index={index}
            items={buttons}
            onChange={onChange}
          >
            <TextInput
              label={t('panels.buttons.text')}
              value={button.text}
              maxLength={DISCORD_LIMITS.buttonLabel}
              onChange={(event) => set(index, { text: event.currentTarget.value })}
              error={problemsAt(problems, ['subjects', index, 'text'], t)}
              withAsterisk
            />
            <SubjectSelect
              label={t('panels.buttons.subject')}
              subjects={subjects}
              loading={subjectsLoading}
              value={button.subjectId}
              onChange={(subjectId) => set(index, { subjectId })}
              error={problemsAt(problems, ['subjects', index, 'subjectId'], t)}
            />
            <Select
              label={t('panels.buttons.style')}
              data={STYLES.map((style) => ({ value: style, label: t(`panels.buttons.styles.${style}`) }))}
              value={button.style}
              onChange={(style) => style && set(index, { style: style as PanelButtonStyle })}
              allowDeselect={false}
            />
            <EmojiField
              label={t('panels.emoji.label')}
              name={name}
              value={button.emoji}
              onChange={(emoji) => set(index, { emoji })}
            />
          </ListRow>
        );
      })}
      <AddRow label={t('panels.buttons.add')} full={buttons.length >= max} fullText={t('panels.buttons.full', { max })} onAdd={() => onChange([...buttons, newButton()])} />
    </Stack>
  );
}
