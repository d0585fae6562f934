import { Anchor, type ComboboxItem, type ComboboxItemGroup, MultiSelect, Select, Text } from '@mantine/core';
import type { Channel, Role } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { useServerCache } from '@/lib/server-cache';

// SPEC §9 channel types: what tickets are logged in, and what tickets are grouped under.
const TEXT_TYPES = new Set([0, 5]);
const CATEGORY_TYPE = 4;

const byPosition = (a: { position?: number }, b: { position?: number }) => (a.position ?? 0) - (b.position ?? 0);

/** Says a server list could not be loaded, with the way to load it again. */
function CacheProblem({ error, onRetry }: { error: boolean; onRetry: () => void }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <Text size="xs" c="red" role="alert">
      {t('settings.pickers.loadFailed')}{' '}
      <Anchor component="button" type="button" size="xs" underline="always" onClick={onRetry}>
        {t('common.tryAgain')}
      </Anchor>
    </Text>
  );
}

type Options = (ComboboxItem | ComboboxItemGroup<ComboboxItem>)[];

const hasValue = (options: Options, value: string) =>
  options.some((o) => ('items' in o ? o.items.some((i) => i.value === value) : o.value === value));

/** Text channels, those in a category grouped under it, in the server's order. */
export function textChannelOptions(channels: readonly Channel[]): Options {
  const categories = channels.filter((c) => c.type === CATEGORY_TYPE).sort(byPosition);
  const text = channels.filter((c) => TEXT_TYPES.has(c.type)).sort(byPosition);
  const item = (c: Channel): ComboboxItem => ({ value: c.id, label: `#${c.name ?? c.id}` });
  const loose = text.filter((c) => !c.parent_id || !categories.some((k) => k.id === c.parent_id)).map(item);
  const groups = categories
    .map((category) => ({ group: category.name ?? category.id, items: text.filter((c) => c.parent_id === category.id).map(item) }))
    .filter((g) => g.items.length > 0);
  return [...loose, ...groups];
}

interface ChannelSelectProps {
  label: string;
  description?: string;
  value: string | null;
  onChange: (value: string | null) => void;
  disabled?: boolean;
  clearable?: boolean;
  placeholder?: string;
}

/** Picks one text channel of the server. */
export function ChannelSelect({ label, description, value, onChange, disabled, clearable = true, placeholder }: ChannelSelectProps) {
  const { t } = useTranslation();
  const channels = useServerCache('channels');
  const options = textChannelOptions(channels.data ?? []);
  const data: Options =
    value && !hasValue(options, value) ? [{ value, label: t('settings.pickers.unknownChannel', { id: value }) }, ...options] : options;
  return (
    <div>
      <Select
        label={label}
        description={description}
        placeholder={placeholder ?? t('settings.pickers.noChannel')}
        data={data}
        value={value}
        onChange={onChange}
        searchable
        clearable={clearable}
        disabled={disabled}
        nothingFoundMessage={channels.status === 'loading' ? t('app.loading') : t('settings.pickers.noMatch')}
      />
      <CacheProblem error={channels.error} onRetry={channels.reload} />
    </div>
  );
}

interface MultiPickerProps {
  label: string;
  description?: string;
  value: readonly string[];
  onAdd: (id: string) => void;
  onRemove: (id: string) => void;
  disabled?: boolean;
}

/** Calls add and remove for what a multi-select gained and lost. */
const diff = (before: readonly string[], after: string[], onAdd: (id: string) => void, onRemove: (id: string) => void) => {
  for (const id of after) if (!before.includes(id)) onAdd(id);
  for (const id of before) if (!after.includes(id)) onRemove(id);
};

/** Picks category channels (for ticket categories). */
export function CategoryMultiSelect({ label, description, value, onAdd, onRemove, disabled }: MultiPickerProps) {
  const { t } = useTranslation();
  const channels = useServerCache('channels');
  const categories = (channels.data ?? []).filter((c) => c.type === CATEGORY_TYPE).sort(byPosition);
  const data = [
    ...categories.map((c) => ({ value: c.id, label: c.name ?? c.id })),
    ...value.filter((id) => !categories.some((c) => c.id === id)).map((id) => ({ value: id, label: t('settings.pickers.unknownChannel', { id }) })),
  ];
  return (
    <div>
      <MultiSelect
        label={label}
        description={description}
        placeholder={value.length === 0 ? t('settings.pickers.chooseCategories') : undefined}
        data={data}
        value={[...value]}
        onChange={(next) => diff(value, next, onAdd, onRemove)}
        searchable
        disabled={disabled}
        nothingFoundMessage={t('settings.pickers.noMatch')}
      />
      <CacheProblem error={channels.error} onRetry={channels.reload} />
    </div>
  );
}

/** The roles a subject can name: not @everyone (whose id is the server's), not the bots' own. */
export function pickableRoles(roles: readonly Role[], serverId: string): Role[] {
  return roles.filter((r) => r.id !== serverId && !r.managed).sort((a, b) => b.position - a.position);
}

/** Picks roles of the server; ids that are no role (deleted ones, or user ids) stay listed so they can be removed. */
export function RoleMultiSelect({
  label,
  description,
  value,
  onAdd,
  onRemove,
  disabled,
  serverId,
  otherLabel,
}: MultiPickerProps & { serverId: string; otherLabel?: (id: string) => string }) {
  const { t } = useTranslation();
  const roles = useServerCache('roles');
  const pickable = pickableRoles(roles.data ?? [], serverId);
  const data = [
    ...pickable.map((r) => ({ value: r.id, label: `@${r.name}` })),
    ...value
      .filter((id) => !pickable.some((r) => r.id === id))
      .map((id) => ({ value: id, label: otherLabel?.(id) ?? t('settings.pickers.unknownRole', { id }) })),
  ];
  return (
    <div>
      <MultiSelect
        label={label}
        description={description}
        placeholder={value.length === 0 ? t('settings.pickers.chooseRoles') : undefined}
        data={data}
        value={[...value]}
        onChange={(next) => diff(value, next, onAdd, onRemove)}
        searchable
        disabled={disabled}
        nothingFoundMessage={roles.status === 'loading' ? t('app.loading') : t('settings.pickers.noMatch')}
      />
      <CacheProblem error={roles.error} onRetry={roles.reload} />
    </div>
  );
}
