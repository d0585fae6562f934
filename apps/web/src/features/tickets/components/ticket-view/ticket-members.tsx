import { ActionIcon, Avatar, type ComboboxItem, Group, Select, Stack, Text, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { PermissionOverwrite, PublicUser, Ticket } from '@ticket/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TrashIcon } from '@/components/screen-icons';
import { isResponseError } from '@/lib/api';
import { confirm, notifyError, notifySuccess } from '@/lib/notify';
import { useAddTicketMember } from '../../api/add-ticket-member';
import { useRemoveTicketMember } from '../../api/remove-ticket-member';
import { useMemberSearch } from '../../api/search-members';
import { ViewSection } from './ticket-sections';

type Access = 'viewAndWrite' | 'viewOnly' | 'viewWriteAsServer';

/**
 * What a permission overwrite of the ticket's channel lets its holder do. Seeing the channel is
 * always allowed to the ticket's people; writing follows the subject's list, and where the list
 * says nothing, the server's own role settings decide.
 */
export function accessOf(permissions: PermissionOverwrite): Access {
  if (permissions.deny.includes('SendMessages')) return 'viewOnly';
  if (permissions.allow.includes('SendMessages')) return 'viewAndWrite';
  return 'viewWriteAsServer';
}

/** The server's own explanation of a refused change (without the "body.userId: " naming the field), else the screen's. */
function refusal(error: unknown, fallback: string): string {
  if (!isResponseError(error) || !error.body?.message) return fallback;
  const { message, field } = error.body;
  return field && message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message;
}

interface Person {
  id: string;
  role: string;
  access: Access | null;
  removable: boolean;
}

interface TicketMembersProps {
  ticket: Ticket;
  profileOf: (id: string) => PublicUser | undefined;
  /** Staff of the ticket's server: what each person may do, and adding and removing members. */
  staff: boolean;
}

/**
 * Who is in the ticket (SPEC §3): its author, who claimed it, the members added to it and, for
 * staff, the holders of the subject's staff roles, each with what the subject lets them do in the
 * ticket's channel. Staff add members of the server by name and remove added ones (SPEC §6); a
 * closed ticket has no channel left, so its members stay as they were.
 */
export function TicketMembers({ ticket, profileOf, staff }: TicketMembersProps) {
  const { t } = useTranslation();
  const closed = ticket.state === 'Closed';
  // A closed ticket's channel is gone: nobody can do anything in it, so no access is described.
  const access = staff && !closed ? ticket.access : undefined;
  const people: Person[] = [
    { id: ticket.author, role: t('tickets.members.author'), access: access ? accessOf(access.userPermissions) : null, removable: false },
    ...(ticket.assignee && ticket.assignee !== ticket.author
      ? [{ id: ticket.assignee, role: t('tickets.columns.claimedBy'), access: access ? accessOf(access.claimPermissions) : null, removable: false }]
      : []),
    ...ticket.members
      .filter((id) => id !== ticket.author && id !== ticket.assignee)
      .map((id) => ({ id, role: t('tickets.members.added'), access: access ? accessOf(access.userPermissions) : null, removable: staff })),
  ];
  const remove = useRemoveTicketMember();
  const nameOf = (id: string) => profileOf(id)?.name ?? id;

  const removeMember = async (userId: string) => {
    const name = nameOf(userId);
    const sure = await confirm({ title: t('tickets.members.removeTitle', { name }), text: t('tickets.members.removeConfirm') });
    if (!sure) return;
    try {
      await remove.mutateAsync({ serverId: ticket.server.serverId, ticketId: ticket.ticketId, userId });
    } catch (error) {
      notifyError(refusal(error, t('tickets.members.removeFailed')), t('tickets.members.removeFailed'));
      return;
    }
    notifySuccess(t('tickets.members.removed', { name }));
  };

  return (
    <ViewSection title={t('tickets.view.members')}>
      <Stack gap="sm">
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
          {people.map(({ id, role, access: can, removable }) => {
            const user = profileOf(id);
            const name = user?.name ?? id;
            return (
              <Group component="li" key={id} gap="sm" wrap="nowrap" justify="space-between">
                <Group gap="sm" wrap="nowrap" miw={0}>
                  <Avatar src={user?.avatarUrl ?? null} alt="" name={name} color="initials" size="sm" aria-hidden />
                  <div style={{ minWidth: 0 }}>
                    <Text size="sm" fw={500} truncate>
                      {name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {can ? t('tickets.members.withAccess', { role, access: t(`tickets.members.access.${can}`) }) : role}
                    </Text>
                  </div>
                </Group>
                {removable && (
                  <Tooltip label={closed ? t('tickets.members.closed') : t('tickets.members.remove', { name })} withArrow>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('tickets.members.remove', { name })}
                      disabled={closed || remove.isPending}
                      onClick={() => void removeMember(id)}
                    >
                      <TrashIcon size={16} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
            );
          })}
          {access && access.staffRoles.length > 0 && (
            <Group component="li" gap="sm" wrap="nowrap">
              <Avatar size="sm" aria-hidden>
                @
              </Avatar>
              <div>
                <Text size="sm" fw={500}>
                  {t('tickets.members.staffViaRole')}
                </Text>
                <Text size="xs" c="dimmed">
                  {t(`tickets.members.access.${accessOf(access.staffPermissions)}`)}
                </Text>
              </div>
            </Group>
          )}
        </Stack>
        {staff && <AddMember ticket={ticket} exclude={people.map((person) => person.id)} nameOf={nameOf} />}
      </Stack>
    </ViewSection>
  );
}

/** Searches the server's members by name; choosing one adds them to the ticket. */
function AddMember({ ticket, exclude, nameOf }: { ticket: Ticket; exclude: string[]; nameOf: (id: string) => string }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [term] = useDebouncedValue(search.trim(), 300);
  const members = useMemberSearch(ticket.server.serverId, term);
  const add = useAddTicketMember();
  const closed = ticket.state === 'Closed';

  const options: ComboboxItem[] = (members.data ?? [])
    .filter((member) => !exclude.includes(member.userId))
    .map((member) => ({ value: member.userId, label: member.nickname ?? member.displayName }));

  const addMember = async (userId: string | null) => {
    if (!userId) return;
    const name = options.find((option) => option.value === userId)?.label ?? nameOf(userId);
    setSearch('');
    try {
      await add.mutateAsync({ serverId: ticket.server.serverId, ticketId: ticket.ticketId, userId });
    } catch (error) {
      notifyError(refusal(error, t('tickets.members.addFailed')), t('tickets.members.addFailed'));
      return;
    }
    notifySuccess(t('tickets.members.addedOne', { name }));
  };

  return (
    <Select
      label={t('tickets.members.add')}
      placeholder={t('tickets.members.searchPlaceholder')}
      description={closed ? t('tickets.members.closed') : undefined}
      disabled={closed || add.isPending}
      data={options}
      value={null}
      onChange={(userId) => void addMember(userId)}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server searches: every option it answers matches.
      filter={({ options: all }) => all}
      nothingFoundMessage={term === '' ? t('tickets.members.typeToSearch') : members.isFetching ? t('app.loading') : t('tickets.filters.nobodyFound')}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
