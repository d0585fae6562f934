import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import type { Problem } from '@ticket/contracts';
import { DISCORD_LIMITS, embedTextLength } from '@ticket/contracts/rules';
import { useTranslation } from 'react-i18next';
import { embedOf, type EmbedDraft, move, newEmbed } from '../../lib/draft';
import { problemsAt } from '../../lib/problems';
import { PlusIcon } from '@/components/screen-icons';
import { EmbedEditor } from './embed-editor';

interface MessageStepProps {
  content: string;
  embeds: EmbedDraft[];
  onContentChange: (content: string) => void;
  onEmbedsChange: (embeds: EmbedDraft[]) => void;
  problems: readonly Problem[];
}

/** What the panel says: its text (markdown) and up to ten embeds. */
export function MessageStep({ content, embeds, onContentChange, onEmbedsChange, problems }: MessageStepProps) {
  const { t } = useTranslation();
  const total = embeds.reduce((n, e) => n + embedTextLength(embedOf(e)), 0);
  const over = total > DISCORD_LIMITS.embedTotal;
  return (
    <Stack gap="md">
      <Textarea
        label={t('panels.message.content')}
        description={t('panels.message.contentHint', { count: content.length, max: DISCORD_LIMITS.messageContent })}
        autosize
        minRows={3}
        maxRows={14}
        maxLength={DISCORD_LIMITS.messageContent}
        value={content}
        onChange={(event) => onContentChange(event.currentTarget.value)}
        error={problemsAt(problems, ['message'], t)}
      />
      <Group justify="space-between" gap="xs">
        <Text fw={600}>{t('panels.message.embeds')}</Text>
        <Text size="sm" c="dimmed">
          {t('panels.message.embedCount', { count: embeds.length, max: DISCORD_LIMITS.embedsPerMessage })}
        </Text>
      </Group>
      {embeds.length > 0 && (
        <Text size="sm" c={over ? 'red' : 'dimmed'} role={over ? 'alert' : undefined}>
          {t('panels.message.embedTotal', { count: total, max: DISCORD_LIMITS.embedTotal })}
        </Text>
      )}
      {embeds.map((embed, index) => (
        <EmbedEditor
          key={embed.key}
          embed={embed}
          index={index}
          count={embeds.length}
          problems={problems}
          onChange={(next) => onEmbedsChange(embeds.map((e, i) => (i === index ? next : e)))}
          onMove={(from, to) => onEmbedsChange(move(embeds, from, to))}
          onRemove={(at) => onEmbedsChange(embeds.filter((_, i) => i !== at))}
        />
      ))}
      <Group>
        <Button
          variant="light"
          leftSection={<PlusIcon />}
          disabled={embeds.length >= DISCORD_LIMITS.embedsPerMessage}
          onClick={() => onEmbedsChange([...embeds, newEmbed()])}
        >
          {t('panels.message.addEmbed')}
        </Button>
      </Group>
    </Stack>
  );
}
