import { Avatar, Badge, Box, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { MessageRevision, PublicUser, TicketMessage } from '@ticket/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '@/components/formatters';
import { EmbedView } from '@/components/markdown/embed-view';
import { Markdown } from '@/components/markdown/markdown';
import { attachmentsOf } from '../../lib/attachments';
import { AttachmentList } from './attachment-list';
import { Reactions } from './reactions';

const hexOf = (color: number | null | undefined) => (color ? `#${color.toString(16).padStart(6, '0')}` : undefined);

/** The earlier versions of an edited message, oldest first, each with when it was replaced. */
function EditHistory({ id, revisions }: { id: string; revisions: MessageRevision[] }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <Stack id={id} component="ol" gap="xs" p={0} m={0} mt="xs" aria-label={t('tickets.message.earlierVersions', { count: revisions.length })} style={{ listStyle: 'none' }}>
      {revisions.map((revision, index) => (
        <Box component="li" key={index} pl="sm" style={{ borderInlineStart: '2px solid var(--mantine-color-default-border)' }}>
          <Text size="xs" c="dimmed" component="time" dateTime={revision.editedAt}>
            {t('tickets.message.replacedAt', { date: format.dateTime(revision.editedAt) })}
          </Text>
          <Text component="div" size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            <Markdown text={revision.content} />
          </Text>
        </Box>
      ))}
    </Stack>
  );
}

interface MessageItemProps {
  message: TicketMessage;
  author: PublicUser | undefined;
}

/**
 * One message of a ticket: who wrote it and when, its markdown, embeds, attachments and
 * reactions. An edited message is marked and opens its earlier versions; a deleted one is marked
 * and stays readable, dimmed, as the transcript keeps it.
 */
export function MessageItem({ message, author }: MessageItemProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const historyId = useId();
  const [historyOpen, setHistoryOpen] = useState(false);
  const name = author?.name ?? message.authorId;
  const items = attachmentsOf(message);
  return (
    <Paper
      component="li"
      withBorder
      p="sm"
      radius="md"
      data-message-id={message.messageId}
      data-deleted={message.deleted || undefined}
      data-edited={message.modified || undefined}
      style={message.deleted ? { borderInlineStart: '3px solid var(--mantine-color-red-6)' } : undefined}
    >
      <Group gap="xs" wrap="wrap" align="center">
        <Avatar src={author?.avatarUrl ?? null} alt="" name={name} color="initials" size="sm" aria-hidden />
        <Text size="sm" fw={600} style={{ color: hexOf(author?.color) }}>
          {name}
        </Text>
        {message.messageType !== 'User' && (
          <Badge size="xs" variant="light" tt="none" color={message.messageType === 'Staff' ? 'indigo' : 'gray'}>
            {t(`tickets.messageTypes.${message.messageType}`)}
          </Badge>
        )}
        <Text size="xs" c="dimmed" component="time" dateTime={message.createdAt}>
          {format.dateTime(message.createdAt)}
        </Text>
        {message.modified &&
          (message.history.length > 0 ? (
            <Button
              variant="subtle"
              size="compact-xs"
              aria-expanded={historyOpen}
              aria-controls={historyOpen ? historyId : undefined}
              onClick={() => setHistoryOpen((open) => !open)}
            >
              {t('tickets.message.edited')}
            </Button>
          ) : (
            <Text size="xs" c="dimmed">
              {t('tickets.message.edited')}
            </Text>
          ))}
        {message.deleted && (
          <Badge size="xs" color="red" variant="light" tt="none">
            {message.deletedAt
              ? t('tickets.message.deletedAt', { date: format.dateTime(message.deletedAt) })
              : t('tickets.message.deleted')}
          </Badge>
        )}
      </Group>
      <Box mt={6} style={message.deleted ? { opacity: 0.6 } : undefined}>
        {message.message.content && (
          <Text component="div" size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            <Markdown text={message.message.content} />
          </Text>
        )}
        {message.message.embeds.length > 0 && (
          <Stack gap={4}>
            {message.message.embeds.map((embed, index) => (
              <EmbedView
                key={index}
                embed={embed}
                labels={{
                  embed: t('tickets.message.embed', { n: index + 1 }),
                  thumbnail: t('tickets.message.thumbnail'),
                  image: t('tickets.message.image'),
                }}
              />
            ))}
          </Stack>
        )}
        <AttachmentList items={items} />
      </Box>
      <Reactions reactions={message.reactions} />
      {historyOpen && <EditHistory id={historyId} revisions={message.history} />}
    </Paper>
  );
}
