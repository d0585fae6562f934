import { Anchor, Box, Loader, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import type { Emoji, EmojiRef } from '@ticket/contracts';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServerCache } from '@/lib/server-cache';
import { EmojiView } from '@/components/emoji-view';
import classes from './emoji-picker.module.css';
import { UNICODE_EMOJIS } from './unicode-emojis';

const COLUMNS = 8;

interface Choice {
  key: string;
  emoji: EmojiRef;
  label: string;
  animated: boolean;
}

export interface EmojiPickerProps {
  /** The server's custom emojis; undefined while they load. */
  customEmojis: readonly Emoji[] | undefined;
  customFailed?: boolean;
  onRetryCustom?: () => void;
  onPick: (emoji: EmojiRef) => void;
}

/**
 * The server's custom emojis (animated ones marked) and a curated set of common unicode ones,
 * found by name. Keyboard: type to search, ↓ or Tab into the grid, arrow keys, Home and End to
 * move, Enter to pick; Enter in the search field picks the first match.
 */
export function EmojiPicker({ customEmojis, customFailed = false, onRetryCustom, onPick }: EmojiPickerProps) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const search = useRef<HTMLInputElement>(null);
  // The picker arrives after its popover opened (it is loaded then): focus goes to the search.
  useEffect(() => {
    search.current?.focus();
  }, []);
  const customId = useId();
  const unicodeId = useId();

  const words = query.trim().toLowerCase().replace(/^:|:$/g, '');
  const custom = useMemo<Choice[]>(
    () =>
      (customEmojis ?? [])
        .filter((e) => e.id && e.name && e.available !== false)
        .filter((e) => !words || (e.name as string).toLowerCase().includes(words))
        .map((e) => ({
          key: `c-${e.id}`,
          emoji: { id: e.id, name: e.name, ...(e.animated ? { animated: true } : {}) },
          label: e.animated ? t('panels.emoji.animatedName', { name: e.name }) : `:${e.name}:`,
          animated: Boolean(e.animated),
        })),
    [customEmojis, words, t],
  );
  const unicode = useMemo<Choice[]>(
    () =>
      UNICODE_EMOJIS.filter(([, keywords]) => !words || keywords.split(' ').some((k) => k.startsWith(words)) || keywords.includes(words)).map(
        ([emoji, keywords]) => ({ key: `u-${emoji}`, emoji: { id: null, name: emoji }, label: keywords.split(' ')[0] ?? emoji, animated: false }),
      ),
    [words],
  );
  const all = [...custom, ...unicode];
  const current = Math.min(active, Math.max(all.length - 1, 0));

  const focusAt = (index: number) => {
    const next = Math.max(0, Math.min(all.length - 1, index));
    setActive(next);
    buttons.current[next]?.focus();
  };

  const onGridKey = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      ArrowDown: index + COLUMNS,
      ArrowUp: index - COLUMNS,
      Home: 0,
      End: all.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    focusAt(target);
  };

  const onSearchKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' && all.length > 0) {
      event.preventDefault();
      focusAt(current);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const first = all[0];
      if (first) onPick(first.emoji);
    }
  };

  let index = -1;
  const grid = (choices: Choice[], labelId: string) => (
    <div className={classes.grid} role="group" aria-labelledby={labelId}>
      {choices.map((choice) => {
        index += 1;
        const at = index;
        return (
          <UnstyledButton
            key={choice.key}
            ref={(element: HTMLButtonElement | null) => {
              buttons.current[at] = element;
            }}
            className={classes.cell}
            tabIndex={at === current ? 0 : -1}
            aria-label={choice.emoji.id ? choice.label : undefined}
            title={choice.label}
            onKeyDown={(event) => onGridKey(event, at)}
            onFocus={() => setActive(at)}
            onClick={() => onPick(choice.emoji)}
          >
            <EmojiView emoji={choice.emoji} size={24} decorative={Boolean(choice.emoji.id)} />
            {/* The file format's name, the same in every language; the button's name says "animated". */}
            {choice.animated && (
              <span className={classes.gif} aria-hidden>
                GIF
              </span>
            )}
          </UnstyledButton>
        );
      })}
    </div>
  );

  return (
    <Stack gap="xs" w={COLUMNS * 36 + 16} maw="calc(100vw - 32px)">
      <TextInput
        ref={search}
        data-autofocus
        label={t('panels.emoji.search')}
        placeholder={t('panels.emoji.searchPlaceholder')}
        value={query}
        onChange={(event) => {
          setQuery(event.currentTarget.value);
          setActive(0);
        }}
        onKeyDown={onSearchKey}
        size="xs"
      />
      <Box className={classes.scroll}>
        <Text id={customId} size="xs" fw={700} tt="uppercase" c="dimmed" mb={4}>
          {t('panels.emoji.server')}
        </Text>
        {customEmojis === undefined && !customFailed ? (
          <Loader size="xs" aria-label={t('app.loading')} />
        ) : customFailed ? (
          <Text size="xs" c="red" role="alert">
            {t('panels.emoji.loadFailed')}{' '}
            {onRetryCustom && (
              <Anchor component="button" type="button" size="xs" onClick={onRetryCustom}>
                {t('common.tryAgain')}
              </Anchor>
            )}
          </Text>
        ) : custom.length > 0 ? (
          grid(custom, customId)
        ) : (
          <Text size="xs" c="dimmed">
            {words ? t('panels.emoji.noMatch') : t('panels.emoji.noServerEmojis')}
          </Text>
        )}
        <Text id={unicodeId} size="xs" fw={700} tt="uppercase" c="dimmed" mt="sm" mb={4}>
          {t('panels.emoji.common')}
        </Text>
        {unicode.length > 0 ? (
          grid(unicode, unicodeId)
        ) : (
          <Text size="xs" c="dimmed">
            {t('panels.emoji.noMatch')}
          </Text>
        )}
      </Box>
    </Stack>
  );
}

/** The picker with the current server's custom emojis, loaded (once per server) when it first opens. */
export function ServerEmojiPicker({ onPick }: { onPick: (emoji: EmojiRef) => void }) {
  const emojis = useServerCache('emojis');
  return (
    <EmojiPicker
      customEmojis={emojis.status === 'loaded' ? (emojis.data ?? []) : undefined}
      customFailed={emojis.error}
      onRetryCustom={emojis.reload}
      onPick={onPick}
    />
  );
}
