import { Anchor, Box, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '@/components/formatters';
import { DownloadIcon } from '@/components/screen-icons';
import type { AttachmentItem } from '../../lib/attachments';
import { BlurhashPlaceholder } from './blurhash-placeholder';

const MAX_WIDTH = 320;
const MAX_HEIGHT = 240;

/** The image's size scaled down to fit the preview box; a wide box when the size is unknown. */
function previewSize(width: number | null, height: number | null): { width: number; height: number } {
  if (!width || !height) return { width: MAX_WIDTH, height: 180 };
  const scale = Math.min(1, MAX_WIDTH / width, MAX_HEIGHT / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** An image attachment: its BlurHash until the image has loaded, then the image, linking to the full size. */
function ImagePreview({ item }: { item: AttachmentItem }) {
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);
  const size = previewSize(item.width, item.height);
  const box = (
    <Box pos="relative" w={size.width} maw="100%" h={size.height} style={{ borderRadius: 'var(--mantine-radius-sm)', overflow: 'hidden' }}>
      {!loaded && <BlurhashPlaceholder hash={item.blurHash} />}
      {item.url && !failed && (
        <img
          src={item.url}
          alt={item.name}
          loading="lazy"
          width={size.width}
          height={size.height}
          onLoad={() => setLoaded(true)}
          onError={() => setFailed(true)}
          style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'contain', opacity: loaded ? 1 : 0 }}
        />
      )}
    </Box>
  );
  return item.url ? (
    <Anchor href={item.url} target="_blank" rel="noopener noreferrer" display="inline-block" aria-label={item.name}>
      {box}
    </Anchor>
  ) : (
    box
  );
}

/** A message's attachments: images previewed, other files as download links with their size. */
export function AttachmentList({ items }: { items: AttachmentItem[] }) {
  const { t } = useTranslation();
  const format = useFormatters();
  if (items.length === 0) return null;
  return (
    <Group component="ul" aria-label={t('tickets.message.attachments')} gap="sm" align="flex-start" p={0} m={0} mt="xs" style={{ listStyle: 'none' }}>
      {items.map((item) => (
        <li key={item.key} data-attachment={item.isImage ? 'image' : 'file'}>
          {item.isImage ? (
            <ImagePreview item={item} />
          ) : (
            <Group gap={6} wrap="nowrap">
              <DownloadIcon size={16} />
              {item.url ? (
                <Anchor href={item.url} download={item.name} size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {t('tickets.message.download', { name: item.name })}
                </Anchor>
              ) : (
                <Text size="sm">{item.name}</Text>
              )}
              <Text size="xs" c="dimmed">
                {format.bytes(item.size)}
              </Text>
            </Group>
          )}
        </li>
      ))}
    </Group>
  );
}
