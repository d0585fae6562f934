import { Mark, Stack, Text } from '@mantine/core';
import type { Highlight } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import type { MentionNames } from '@/components/markdown/markdown';
import { highlightSegments, plainText } from '../lib/highlight';

/**
 * Where a search matched in a ticket: each stretch of text with its matches marked, the text around
 * them read as plain text (`names` tells the people's names).
 */
export function Highlights({ highlights, names }: { highlights: Highlight[]; names: MentionNames }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      {highlights.map((highlight, index) => (
        <Text key={index} size="sm" lineClamp={3} data-highlight={highlight.field}>
          <Text span size="xs" c="dimmed" fw={500}>
            {t(`tickets.highlightFields.${highlight.field}`)}:{' '}
          </Text>
          {highlightSegments(highlight).map((segment, i) =>
            segment.match ? (
              <Mark key={i} color="yellow">
                {segment.text}
              </Mark>
            ) : (
              <span key={i}>{plainText(segment.text, names)}</span>
            ),
          )}
        </Text>
      ))}
    </Stack>
  );
}
