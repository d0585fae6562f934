import { Badge, Group, VisuallyHidden } from '@mantine/core';
import type { Reaction } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { EmojiView } from '@/components/emoji-view';
import { emojiText } from '@/lib/emoji';

/** A message's reactions: each emoji with how many reacted with it. */
export function Reactions({ reactions }: { reactions: Reaction[] }) {
  const { t } = useTranslation();
  if (reactions.length === 0) return null;
  return (
    <Group component="ul" aria-label={t('tickets.message.reactions')} gap={6} p={0} m={0} mt="xs" style={{ listStyle: 'none' }}>
      {reactions.map((reaction) => {
        const text = emojiText(reaction.emoji);
        return (
          <li key={`${reaction.emoji.id ?? ''}:${reaction.emoji.name ?? ''}`}>
            <Badge variant="default" size="lg" tt="none" radius="xl" leftSection={<EmojiView emoji={reaction.emoji} size={16} decorative />}>
              <span aria-hidden>{reaction.count}</span>
              <VisuallyHidden>{t('tickets.message.reaction', { count: reaction.count, emoji: text })}</VisuallyHidden>
            </Badge>
          </li>
        );
      })}
    </Group>
  );
}
