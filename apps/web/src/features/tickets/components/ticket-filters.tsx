import { Button, Group, NativeSelect, SimpleGrid, Stack, Switch } from '@mantine/core';
import type { PublicUser } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { usePersonalTicketServers } from '../api/get-personal-ticket-servers';
import { usePersonalTicketSubjects } from '../api/get-personal-ticket-subjects';
import { useSupportSubjects } from '../api/get-support-subjects';
import { hasFilters, type TicketListParams } from '../lib/list-params';
import type { TicketScope } from '../lib/ticket-scope';
import { UserFilter } from './user-filter';

interface TicketFiltersProps {
  scope: TicketScope;
  params: TicketListParams;
  onChange: (changes: Partial<TicketListParams>) => void;
  /** People to offer in the user filters before any search. */
  knownUsers: readonly PublicUser[];
}

interface Option {
  value: string;
  label: string;
}

/** A chosen id the options do not (yet) hold stays shown, by its id, rather than reading "all". */
const withValue = (options: Option[], value: string | null): Option[] =>
  value && !options.some((option) => option.value === value) ? [...options, { value, label: value }] : options;

/** The filters of SPEC §2: server (personal list only), subject, author, claimed by, closed by, only active, hide closed and resolved. */
export function TicketFilters({ scope, params, onChange, knownUsers }: TicketFiltersProps) {
  const { t } = useTranslation();
  const personal = scope.kind === 'personal';
  const serverId = scope.kind === 'server' ? scope.serverId : null;
  const servers = usePersonalTicketServers(personal);
  const personalSubjects = usePersonalTicketSubjects(personal ? params.server : null);
  const serverSubjects = useSupportSubjects(serverId);

  const subjects: Option[] = personal
    ? (personalSubjects.data ?? []).map((subject) => ({ value: subject.subjectId, label: subject.name }))
    : (serverSubjects.data ?? []).map((subject) => ({
        value: subject.subjectId,
        label: subject.deleted ? t('tickets.filters.deletedSubject', { name: subject.name }) : subject.name,
      }));
  const subjectDisabled = personal && !params.server;

  return (
    <Stack gap="sm" role="group" aria-label={t('tickets.filters.label')}>
      <SimpleGrid cols={{ base: 1, xs: 2, md: personal ? 3 : 4 }} spacing="sm">
        {personal && (
          <NativeSelect
            label={t('tickets.serverFilter')}
            value={params.server ?? ''}
            onChange={(event) => onChange({ server: event.currentTarget.value || null })}
            data={[
              { value: '', label: t('tickets.allServers') },
              ...withValue(
                (servers.data ?? []).map((server) => ({ value: server.serverId, label: server.name })),
                params.server,
              ),
            ]}
          />
        )}
        <NativeSelect
          label={t('tickets.columns.subject')}
          value={params.subject ?? ''}
          onChange={(event) => onChange({ subject: event.currentTarget.value || null })}
          disabled={subjectDisabled}
          // Subjects belong to a server: on the personal list, the choice says to pick one first.
          data={[
            { value: '', label: subjectDisabled ? t('tickets.filters.subjectNeedsServer') : t('tickets.filters.allSubjects') },
            ...withValue(subjects, params.subject),
          ]}
        />
        <UserFilter
          label={t('tickets.columns.author')}
          value={params.author}
          onChange={(author) => onChange({ author })}
          known={knownUsers}
          serverId={serverId}
        />
        <UserFilter
          label={t('tickets.columns.claimedBy')}
          value={params.claimedBy}
          onChange={(claimedBy) => onChange({ claimedBy })}
          known={knownUsers}
          serverId={serverId}
        />
        <UserFilter
          label={t('tickets.columns.closedBy')}
          value={params.closedBy}
          onChange={(closedBy) => onChange({ closedBy })}
          known={knownUsers}
          serverId={serverId}
        />
      </SimpleGrid>
      <Group gap="lg" align="center">
        <Switch
          label={t('tickets.filters.onlyActive')}
          // Hiding closed tickets shows only active ones: the switch says so and waits.
          checked={params.onlyActive || params.hideResolved}
          disabled={params.hideResolved}
          onChange={(event) => onChange({ onlyActive: event.currentTarget.checked })}
        />
        <Switch
          label={t('tickets.filters.hideResolved')}
          checked={params.hideResolved}
          onChange={(event) => onChange({ hideResolved: event.currentTarget.checked })}
        />
        {hasFilters(params) && (
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() =>
              onChange({ server: null, subject: null, author: null, claimedBy: null, closedBy: null, onlyActive: false, hideResolved: false })
            }
          >
            {t('tickets.filters.clear')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
