import { TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchIcon } from '@/components/screen-icons';

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
  // The address changes elsewhere too (Back, "Clear"): the box follows it. A change this box asked
  // for leaves the box alone, so what was typed meanwhile is kept.
  const [shown, setShown] = useState(value);
  const [asked, setAsked] = useState<string | null>(null);
  if (value !== shown) {
    setShown(value);
    if (value !== asked) setText(value);
    setAsked(null);
  }
  const [debounced] = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  const search = (next: string) => {
    setAsked(next);
    onSearch(next);
  };
  const latest = useRef({ value, search });
  useEffect(() => {
    latest.current = { value, search };
  });
  useEffect(() => {
    if (debounced !== latest.current.value) latest.current.search(debounced);
  }, [debounced]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text !== value) search(text);
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
