import { Button, ColorInput, Fieldset, Group, SimpleGrid, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import type { Problem } from '@ticket/contracts';
import { DISCORD_LIMITS } from '@ticket/contracts/rules';
import { useTranslation } from 'react-i18next';
import { type EmbedDraft, type FieldDraft, move, newField } from '../../lib/draft';
import { problemsAt } from '../../lib/problems';
import { PlusIcon } from '@/components/screen-icons';
import { ImageUrlInput } from './image-url-input';
import { RowControls } from './row-controls';

/** The platform's own colours, offered as swatches. */
const SWATCHES = ['#5865f2', '#57f287', '#fee75c', '#eb459e', '#ed4245', '#3498db', '#e67e22', '#9b59b6', '#ffffff', '#23272a'];

/** An ISO date-time as a `datetime-local` input shows it, in the admin's own time zone. */
export function toLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export function fromLocalInput(value: string): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}

interface EmbedEditorProps {
  embed: EmbedDraft;
  index: number;
  count: number;
  onChange: (embed: EmbedDraft) => void;
  onMove: (from: number, to: number) => void;
  onRemove: (index: number) => void;
  problems: readonly Problem[];
}

/** One embed: title and link, description, colour, author, fields, image, thumbnail, footer and timestamp. */
export function EmbedEditor({ embed, index, count, onChange, onMove, onRemove, problems }: EmbedEditorProps) {
  const { t } = useTranslation();
  const name = t('panels.embed.name', { n: index + 1 });
  const set = (patch: Partial<EmbedDraft>) => onChange({ ...embed, ...patch });
  const setField = (at: number, patch: Partial<FieldDraft>) =>
    set({ fields: embed.fields.map((f, i) => (i === at ? { ...f, ...patch } : f)) });
  const embedProblem = problemsAt(problems, ['message', 'embeds', index], t);

  return (
    <Fieldset legend={name} variant="filled">
      <Stack gap="sm">
        <Group justify="space-between" mt={-8} wrap="nowrap">
          {embedProblem ? (
            <Text c="red" size="sm" role="alert">
              {embedProblem}
            </Text>
          ) : (
            <span />
          )}
          <RowControls index={index} count={count} name={name} onMove={onMove} onRemove={onRemove} />
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label={t('panels.embed.title')}
            value={embed.title}
            maxLength={DISCORD_LIMITS.embedTitle}
            onChange={(event) => set({ title: event.currentTarget.value })}
          />
          <TextInput
            label={t('panels.embed.url')}
            description={t('panels.embed.urlHint')}
            inputMode="url"
            value={embed.url}
            onChange={(event) => set({ url: event.currentTarget.value })}
          />
        </SimpleGrid>
        <Textarea
          label={t('panels.embed.description')}
          description={t('panels.embed.length', { count: embed.description.length, max: DISCORD_LIMITS.embedDescription })}
          autosize
          minRows={3}
          maxRows={12}
          maxLength={DISCORD_LIMITS.embedDescription}
          value={embed.description}
          onChange={(event) => set({ description: event.currentTarget.value })}
        />
        <ColorInput
          label={t('panels.embed.color')}
          description={t('panels.embed.colorHint')}
          format="hex"
          swatches={SWATCHES}
          swatchesPerRow={10}
          value={embed.color}
          onChange={(color) => set({ color })}
          closeOnColorSwatchClick
          maw={280}
          eyeDropperButtonProps={{ 'aria-label': t('panels.embed.eyeDropper') }}
        />

        <Fieldset legend={t('panels.embed.author')} variant="unstyled">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <TextInput
              label={t('panels.embed.authorName')}
              value={embed.authorName}
              maxLength={DISCORD_LIMITS.embedAuthorName}
              onChange={(event) => set({ authorName: event.currentTarget.value })}
            />
            <TextInput
              label={t('panels.embed.authorUrl')}
              inputMode="url"
              value={embed.authorUrl}
              onChange={(event) => set({ authorUrl: event.currentTarget.value })}
            />
            <ImageUrlInput
              label={t('panels.embed.authorIcon')}
              value={embed.authorIconUrl}
              onChange={(authorIconUrl) => set({ authorIconUrl })}
            />
          </SimpleGrid>
        </Fieldset>

        <Fieldset legend={t('panels.embed.fields')} variant="unstyled">
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {t('panels.embed.fieldCount', { count: embed.fields.length, max: DISCORD_LIMITS.embedFields })}
            </Text>
            {embed.fields.map((field, at) => {
              const fieldName = t('panels.embed.fieldName', { n: at + 1, embed: index + 1 });
              const fieldProblem = problemsAt(problems, ['message', 'embeds', index, 'fields', at], t);
              return (
                <Fieldset key={field.key} legend={fieldName}>
                  <Stack gap="xs">
                    <Group justify="space-between" mt={-8} wrap="nowrap">
                      <Switch
                        label={t('panels.embed.inline')}
                        checked={field.inline}
                        onChange={(event) => setField(at, { inline: event.currentTarget.checked })}
                      />
                      <RowControls
                        index={at}
                        count={embed.fields.length}
                        name={fieldName}
                        onMove={(from, to) => set({ fields: move(embed.fields, from, to) })}
                        onRemove={(i) => set({ fields: embed.fields.filter((_, j) => j !== i) })}
                      />
                    </Group>
                    <TextInput
                      label={t('panels.embed.fieldTitle')}
                      value={field.name}
                      maxLength={DISCORD_LIMITS.embedFieldName}
                      onChange={(event) => setField(at, { name: event.currentTarget.value })}
                      error={fieldProblem && !field.name.trim() ? fieldProblem : undefined}
                      withAsterisk
                    />
                    <Textarea
                      label={t('panels.embed.fieldValue')}
                      autosize
                      minRows={1}
                      maxRows={6}
                      value={field.value}
                      maxLength={DISCORD_LIMITS.embedFieldValue}
                      onChange={(event) => setField(at, { value: event.currentTarget.value })}
                      error={fieldProblem && !field.value.trim() ? fieldProblem : undefined}
                      withAsterisk
                    />
                  </Stack>
                </Fieldset>
              );
            })}
            <Group>
              <Button
                variant="subtle"
                size="xs"
                leftSection={<PlusIcon />}
                disabled={embed.fields.length >= DISCORD_LIMITS.embedFields}
                onClick={() => set({ fields: [...embed.fields, newField()] })}
              >
                {t('panels.embed.addField')}
              </Button>
            </Group>
          </Stack>
        </Fieldset>

        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <ImageUrlInput label={t('panels.embed.image')} value={embed.imageUrl} onChange={(imageUrl) => set({ imageUrl })} />
          <ImageUrlInput
            label={t('panels.embed.thumbnail')}
            value={embed.thumbnailUrl}
            onChange={(thumbnailUrl) => set({ thumbnailUrl })}
          />
        </SimpleGrid>

        <Fieldset legend={t('panels.embed.footer')} variant="unstyled">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label={t('panels.embed.footerText')}
              value={embed.footerText}
              maxLength={DISCORD_LIMITS.embedFooterText}
              onChange={(event) => set({ footerText: event.currentTarget.value })}
            />
            <ImageUrlInput
              label={t('panels.embed.footerIcon')}
              value={embed.footerIconUrl}
              onChange={(footerIconUrl) => set({ footerIconUrl })}
            />
          </SimpleGrid>
          <Group mt="sm" align="flex-end" gap="sm">
            <Switch
              label={t('panels.embed.timestamp')}
              checked={embed.timestamp !== ''}
              onChange={(event) => set({ timestamp: event.currentTarget.checked ? new Date().toISOString() : '' })}
            />
            {embed.timestamp !== '' && (
              <TextInput
                type="datetime-local"
                label={t('panels.embed.timestampValue')}
                value={toLocalInput(embed.timestamp)}
                onChange={(event) => {
                  const value = fromLocalInput(event.currentTarget.value);
                  if (value) set({ timestamp: value });
                }}
              />
            )}
          </Group>
        </Fieldset>
      </Stack>
    </Fieldset>
  );
}
