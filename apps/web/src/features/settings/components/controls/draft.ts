import { useState } from 'react';

/**
 * A control's own copy of a value while it is being typed: it follows the value whenever that
 * changes (a confirmed save, a revert after a failure) and otherwise keeps what was typed, even
 * when that is not valid and so was not sent.
 */
export function useDraft<T>(value: T): [T, (next: T) => void] {
  const [draft, setDraft] = useState(value);
  const [seen, setSeen] = useState(value);
  if (!Object.is(seen, value)) {
    setSeen(value);
    setDraft(value);
  }
  return [draft, setDraft];
}
