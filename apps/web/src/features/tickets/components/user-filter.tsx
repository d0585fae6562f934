import { type ComboboxItem, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { PublicUser } from '@ticket/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUserProfiles } from '../api/get-users';
import { useMemberSearch } from '../api/search-members';

interface UserFilterProps {
  label: string;
  value: string | null;
  onChange: (userId: string | null) => void;
  /** People the screen already knows (the user, those of the tickets shown): offered before any search. */
  known: readonly PublicUser[];
  /** On a server's list, staff search its members by name; the personal list offers the known people only. */
  serverId: string | null;
}

/** Picks one user for a filter (author, claimed by, closed by). */
export function UserFilter({ label, value, onChange, known, serverId }: UserFilterProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [term] = useDebouncedValue(search.trim(), 300);
  const selectedKnown = value ? known.find((user) => user.id === value) : undefined;
  // The label of the chosen one is the search text while the list is closed: that is no search.
  const searching = term !== '' && term !== selectedKnown?.name;
  const members = useMemberSearch(serverId, searching ? term : '');
  const selected = useUserProfiles(value && !selectedKnown ? [value] : [], serverId);

  const options = new Map<string, ComboboxItem>();
  const add = (id: string, name: string) => {
    if (!options.has(id)) options.set(id, { value: id, label: name });
  };
  for (const user of known) add(user.id, user.name);
  for (const member of members.data ?? []) add(member.userId, member.nickname ?? member.displayName);
  if (value) add(value, selected.data?.find((user) => user.id === value)?.name ?? value);

  return (
    <Select
      label={label}
      placeholder={t('tickets.filters.anyone')}
      data={[...options.values()]}
      value={value}
      onChange={onChange}
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage={members.isFetching ? t('app.loading') : t('tickets.filters.nobodyFound')}
      comboboxProps={{ withinPortal: true }}
      clearButtonProps={{ 'aria-label': t('tickets.filters.clearOne', { label }) }}
    />
  );
}
