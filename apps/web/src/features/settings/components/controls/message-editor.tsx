import {
  ActionIcon,
  Box,
  Button,
  ColorInput,
  Group,
  Image,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { Embed, EmbedField, MessageBody } from '@ticket/contracts';
import { DISCORD_LIMITS, imageUrlWarning } from '@ticket/contracts/rules';
import { useTranslation } from 'react-i18next';
import { problemText } from '../../lib/problem-text';
import { FieldGroup } from './settings-card';

const toHex = (color: number | undefined) => (color === undefined ? '' : `#${color.toString(16).padStart(6, '0')}`);
const fromHex = (hex: string): number | undefined => (/^#[0-9a-f]{6}$/i.test(hex) ? Number.parseInt(hex.slice(1), 16) : undefined);

/** Leaves out what is empty, so an embed holds only what was filled in. */
function tidy(embed: Embed): Embed {
  const next: Embed = { ...embed };
  for (const key of ['title', 'description', 'url'] as const) if (next[key] === '') delete next[key];
  if (next.image && next.image.url === '') delete next.image;
  if (next.thumbnail && next.thumbnail.url === '') delete next.thumbnail;
  if (next.footer) {
    const footer = { ...next.footer };
    if (footer.iconUrl === '') delete footer.iconUrl;
    if (footer.text === '' && !footer.iconUrl) delete next.footer;
    else next.footer = footer;
  }
  if (next.author) {
    const author = { ...next.author };
    if (author.url === '') delete author.url;
    if (author.iconUrl === '') delete author.iconUrl;
    if (author.name === '' && !author.url && !author.iconUrl) delete next.author;
    else next.author = author;
  }
  if (next.fields && next.fields.length === 0) delete next.fields;
  return next;
}

/** An image URL field with the warning of SPEC §5 under it: a warning only, saving stays allowed. */
export function ImageUrlInput({
  label,
  value,
  onChange,
  disabled,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const warning = imageUrlWarning(value);
  return (
    <TextInput
      label={label}
      value={value}
      maxLength={2048}
      disabled={disabled}
      onChange={(event) => onChange(event.currentTarget.value)}
      description={
        warning ? (
          <Text component="span" size="xs" c="orange.8" data-warning>
            ⚠ {problemText(t, warning)}
          </Text>
        ) : (
          t('settings.embed.imageHint')
        )
      }
    />
  );
}

interface EmbedEditorProps {
  index: number;
  embed: Embed;
  onChange: (embed: Embed) => void;
  onRemove: () => void;
  disabled?: boolean;
}

function EmbedEditor({ index, embed, onChange, onRemove, disabled }: EmbedEditorProps) {
  const { t } = useTranslation();
  const change = (patch: Partial<Embed>) => onChange(tidy({ ...embed, ...patch }));
  const fields = embed.fields ?? [];
  const setField = (i: number, patch: Partial<EmbedField>) =>
    change({ fields: fields.map((f, j) => (j === i ? { ...f, ...patch } : f)) });
  return (
    <Paper withBorder p="sm" radius="md" style={{ borderLeft: `4px solid ${toHex(embed.color) || 'var(--mantine-color-gray-5)'}` }}>
      <FieldGroup legend={t('settings.embed.legend', { n: index + 1 })}>
        <TextInput
          label={t('settings.embed.title')}
          value={embed.title ?? ''}
          maxLength={DISCORD_LIMITS.embedTitle}
          disabled={disabled}
          onChange={(e) => change({ title: e.currentTarget.value })}
        />
        <Textarea
          label={t('settings.embed.description')}
          value={embed.description ?? ''}
          maxLength={DISCORD_LIMITS.embedDescription}
          autosize
          minRows={2}
          maxRows={10}
          disabled={disabled}
          onChange={(e) => change({ description: e.currentTarget.value })}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput
            label={t('settings.embed.url')}
            value={embed.url ?? ''}
            maxLength={2048}
            disabled={disabled}
            onChange={(e) => change({ url: e.currentTarget.value })}
          />
          <ColorInput
            label={t('settings.embed.color')}
            value={toHex(embed.color)}
            format="hex"
            withEyeDropper={false}
            disabled={disabled}
            onChange={(hex) => {
              if (hex === '') change({ color: undefined });
              else {
                const color = fromHex(hex);
                if (color !== undefined) change({ color });
              }
            }}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <ImageUrlInput
            label={t('settings.embed.image')}
            value={embed.image?.url ?? ''}
            disabled={disabled}
            onChange={(url) => change({ image: { url } })}
          />
          <ImageUrlInput
            label={t('settings.embed.thumbnail')}
            value={embed.thumbnail?.url ?? ''}
            disabled={disabled}
            onChange={(url) => change({ thumbnail: { url } })}
          />
        </SimpleGrid>
        <FieldGroup legend={t('settings.embed.author')}>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <TextInput
              label={t('settings.embed.authorName')}
              value={embed.author?.name ?? ''}
              maxLength={DISCORD_LIMITS.embedAuthorName}
              disabled={disabled}
              onChange={(e) => change({ author: { ...embed.author, name: e.currentTarget.value } })}
            />
            <TextInput
              label={t('settings.embed.authorUrl')}
              value={embed.author?.url ?? ''}
              maxLength={2048}
              disabled={disabled}
              onChange={(e) => change({ author: { name: '', ...embed.author, url: e.currentTarget.value } })}
            />
            <ImageUrlInput
              label={t('settings.embed.authorIcon')}
              value={embed.author?.iconUrl ?? ''}
              disabled={disabled}
              onChange={(iconUrl) => change({ author: { name: '', ...embed.author, iconUrl } })}
            />
          </SimpleGrid>
        </FieldGroup>
        <FieldGroup legend={t('settings.embed.footer')}>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput
              label={t('settings.embed.footerText')}
              value={embed.footer?.text ?? ''}
              maxLength={DISCORD_LIMITS.embedFooterText}
              disabled={disabled}
              onChange={(e) => change({ footer: { ...embed.footer, text: e.currentTarget.value } })}
            />
            <ImageUrlInput
              label={t('settings.embed.footerIcon')}
              value={embed.footer?.iconUrl ?? ''}
              disabled={disabled}
              onChange={(iconUrl) => change({ footer: { text: '', ...embed.footer, iconUrl } })}
            />
          </SimpleGrid>
        </FieldGroup>
        <FieldGroup legend={t('settings.embed.fields')}>
          {fields.map((field, i) => (
            <Group key={i} align="flex-end" gap="xs" wrap="wrap">
              <TextInput
                label={t('settings.embed.fieldName', { n: i + 1 })}
                value={field.name}
                maxLength={DISCORD_LIMITS.embedFieldName}
                disabled={disabled}
                onChange={(e) => setField(i, { name: e.currentTarget.value })}
                style={{ flex: '1 1 140px' }}
              />
              <TextInput
                label={t('settings.embed.fieldValue', { n: i + 1 })}
                value={field.value}
                maxLength={DISCORD_LIMITS.embedFieldValue}
                disabled={disabled}
                onChange={(e) => setField(i, { value: e.currentTarget.value })}
                style={{ flex: '2 1 180px' }}
              />
              <Switch
                label={t('settings.embed.inline')}
                checked={field.inline ?? false}
                disabled={disabled}
                onChange={(e) => setField(i, { inline: e.currentTarget.checked })}
                mb={8}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('settings.embed.removeField', { n: i + 1 })}
                disabled={disabled}
                onClick={() => change({ fields: fields.filter((_, j) => j !== i) })}
                mb={4}
              >
                ✕
              </ActionIcon>
            </Group>
          ))}
          <Button
            size="compact-sm"
            variant="light"
            style={{ alignSelf: 'flex-start' }}
            disabled={disabled || fields.length >= DISCORD_LIMITS.embedFields}
            onClick={() => change({ fields: [...fields, { name: '', value: '', inline: false }] })}
          >
            {t('settings.embed.addField')}
          </Button>
        </FieldGroup>
        <Button size="compact-sm" variant="subtle" color="red" onClick={onRemove} disabled={disabled} style={{ alignSelf: 'flex-end' }}>
          {t('settings.embed.remove', { n: index + 1 })}
        </Button>
      </FieldGroup>
    </Paper>
  );
}

const isLoadableImage = (url: string | undefined): url is string =>
  !!url && /^https?:\/\//i.test(url) && imageUrlWarning(url) === null;

/** A simple rendering of an embed, close to how the chat shows it. */
export function EmbedPreview({ embed }: { embed: Embed }) {
  return (
    <Paper
      p="sm"
      radius="sm"
      bg="var(--mantine-color-default-hover)"
      style={{ borderLeft: `4px solid ${toHex(embed.color) || 'var(--mantine-color-gray-5)'}`, overflowWrap: 'anywhere' }}
    >
      <Group align="flex-start" justify="space-between" wrap="nowrap" gap="sm">
        <Stack gap={4} miw={0}>
          {embed.author?.name && (
            <Text size="xs" fw={600}>
              {embed.author.name}
            </Text>
          )}
          {embed.title && (
            <Text fw={700} size="sm" c={embed.url ? 'blue' : undefined}>
              {embed.title}
            </Text>
          )}
          {embed.description && (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {embed.description}
            </Text>
          )}
          {(embed.fields ?? []).length > 0 && (
            <Box style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
              {(embed.fields ?? []).map((field, i) => (
                <Box key={i} style={{ flex: field.inline ? '1 1 30%' : '1 1 100%', minWidth: 0 }}>
                  <Text size="xs" fw={700}>
                    {field.name}
                  </Text>
                  <Text size="xs" style={{ whiteSpace: 'pre-wrap' }}>
                    {field.value}
                  </Text>
                </Box>
              ))}
            </Box>
          )}
          {isLoadableImage(embed.image?.url) && <Image src={embed.image?.url} alt="" maw={300} radius="sm" />}
          {embed.footer?.text && (
            <Text size="xs" c="dimmed">
              {embed.footer.text}
            </Text>
          )}
        </Stack>
        {isLoadableImage(embed.thumbnail?.url) && <Image src={embed.thumbnail?.url} alt="" w={64} h={64} radius="sm" />}
      </Group>
    </Paper>
  );
}

interface MessageEditorProps {
  legend: string;
  description?: string;
  value: MessageBody;
  onChange: (value: MessageBody) => void;
  disabled?: boolean;
}

/** A message the bot sends: its text and embeds, with a preview. */
export function MessageEditor({ legend, description, value, onChange, disabled }: MessageEditorProps) {
  const { t } = useTranslation();
  const setEmbed = (i: number, embed: Embed) => onChange({ ...value, embeds: value.embeds.map((e, j) => (j === i ? embed : e)) });
  return (
    <FieldGroup legend={legend} description={description}>
      <Textarea
        label={t('settings.message.content')}
        description={t('settings.message.contentHint')}
        value={value.content}
        maxLength={DISCORD_LIMITS.messageContent}
        autosize
        minRows={2}
        maxRows={12}
        disabled={disabled}
        onChange={(e) => onChange({ ...value, content: e.currentTarget.value })}
      />
      {value.embeds.map((embed, i) => (
        <EmbedEditor
          key={i}
          index={i}
          embed={embed}
          disabled={disabled}
          onChange={(next) => setEmbed(i, next)}
          onRemove={() => onChange({ ...value, embeds: value.embeds.filter((_, j) => j !== i) })}
        />
      ))}
      <Button
        size="compact-sm"
        variant="light"
        style={{ alignSelf: 'flex-start' }}
        disabled={disabled || value.embeds.length >= DISCORD_LIMITS.embedsPerMessage}
        onClick={() => onChange({ ...value, embeds: [...value.embeds, {}] })}
      >
        {t('settings.message.addEmbed')}
      </Button>
      <Box>
        <Text size="xs" c="dimmed" mb={4}>
          {t('settings.message.preview')}
        </Text>
        <Stack gap="xs" aria-label={t('settings.message.preview')} role="group">
          {value.content && (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {value.content}
            </Text>
          )}
          {value.embeds.map((embed, i) => (
            <EmbedPreview key={i} embed={embed} />
          ))}
          {!value.content && value.embeds.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('settings.message.empty')}
            </Text>
          )}
        </Stack>
      </Box>
    </FieldGroup>
  );
}
