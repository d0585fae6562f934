import { Group, Select, SimpleGrid, TextInput } from '@mantine/core';
import type { ButtonStyle, EmojiRef } from '@ticket/contracts';
import { DISCORD_LIMITS } from '@ticket/contracts/rules';
import { useTranslation } from 'react-i18next';
import { BUTTON_STYLES, ButtonPreview } from './button-preview';
import { useDraft } from './draft';
import { EmojiPicker } from './emoji-picker';
import { FieldGroup } from './settings-card';

export interface EditableButton {
  text: string;
  style: ButtonStyle;
  url: string | null;
  emote: EmojiRef | null;
}

/** A URL or a placeholder such as {ticket.url}: what link buttons may hold. */
export const isLinkTarget = (url: string): boolean => {
  const value = url.trim();
  if (/^\{[A-Za-z][\w.]*\}$/.test(value)) return true;
  try {
    const parsed = new URL(value);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' || parsed.protocol === 'discord:';
  } catch {
    return false;
  }
};

export function ButtonStyleSelect({
  value,
  onChange,
  disabled,
  styles = BUTTON_STYLES,
}: {
  value: ButtonStyle;
  onChange: (style: ButtonStyle) => void;
  disabled?: boolean;
  styles?: readonly ButtonStyle[];
}) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('settings.buttons.style')}
      data={styles.map((style) => ({ value: style, label: t(`settings.buttons.styles.${style}`) }))}
      value={value}
      allowDeselect={false}
      disabled={disabled}
      onChange={(style) => style && onChange(style as ButtonStyle)}
    />
  );
}

interface ButtonEditorProps {
  legend: string;
  description?: string;
  value: EditableButton;
  /** Called with the field that changed and its new value. */
  onChange: <K extends keyof EditableButton>(field: K, value: EditableButton[K]) => void;
  disabled?: boolean;
  /** Buttons whose style the bot decides (e.g. always a link) do not offer it. */
  fixedStyle?: boolean;
  /** What an empty text stands for. */
  textPlaceholder?: string;
}

/** Text, style, link and emoji of one button, with its preview. */
export function ButtonEditor({ legend, description, value, onChange, disabled, fixedStyle, textPlaceholder }: ButtonEditorProps) {
  const { t } = useTranslation();
  const [url, setUrl] = useDraft(value.url ?? '');
  const urlProblem = url.trim() !== '' && !isLinkTarget(url) ? t('settings.buttons.urlInvalid') : undefined;
  return (
    <FieldGroup legend={legend} description={description}>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput
          label={t('settings.buttons.text')}
          value={value.text}
          placeholder={textPlaceholder}
          maxLength={DISCORD_LIMITS.buttonLabel}
          disabled={disabled}
          onChange={(event) => onChange('text', event.currentTarget.value)}
        />
        {!fixedStyle && <ButtonStyleSelect value={value.style} disabled={disabled} onChange={(style) => onChange('style', style)} />}
      </SimpleGrid>
      {value.style === 'Link' && !fixedStyle && (
        <TextInput
          label={t('settings.buttons.url')}
          description={t('settings.buttons.urlHint')}
          value={url}
          maxLength={2048}
          disabled={disabled}
          error={urlProblem}
          onChange={(event) => {
            const next = event.currentTarget.value;
            setUrl(next);
            if (next.trim() === '') onChange('url', null);
            else if (isLinkTarget(next)) onChange('url', next.trim());
          }}
        />
      )}
      <Group align="flex-end" gap="lg" wrap="wrap">
        <EmojiPicker label={t('settings.buttons.emoji')} value={value.emote} disabled={disabled} onChange={(emote) => onChange('emote', emote)} />
        <ButtonPreview text={value.text} style={value.style} emoji={value.emote} />
      </Group>
    </FieldGroup>
  );
}
