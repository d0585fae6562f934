import { TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchIcon } from '@/components/icons';

/** How long typing pauses before the list searches. */
export const SEARCH_DEBOUNCE_MS = 400;

interface TicketSearchProps {
  /** The search text of the address. */
  value: string;
  onSearch: (text: string) => void;
}

/** The full-text search of a list: it searches as the user types (after a pause) and at once on Enter. */
export function TicketSearch({ value, onSearch }: TicketSearchProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  // The address changes elsewhere too (Back, "Clear"): the box follows it.
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setText(value);
  }
  const [debounced] = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  const latest = useRef({ value, onSearch });
  useEffect(() => {
    latest.current = { value, onSearch };
  });
  useEffect(() => {
    if (debounced !== latest.current.value) latest.current.onSearch(debounced);
  }, [debounced]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text !== value) onSearch(text);
  };

  return (
    <form role="search" onSubmit={submit}>
      <TextInput
        type="search"
        label={t('tickets.search.label')}
        placeholder={t('tickets.search.placeholder')}
        leftSection={<SearchIcon size={16} />}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        maxLength={200}
        maw={480}
      />
    </form>
  );
}
