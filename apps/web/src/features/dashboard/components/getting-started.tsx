import { NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import type { AuthServer } from '@ticket/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isAdminRole, useAuthStore } from '@/lib/auth-store';
import { useRecentServers } from '@/lib/recent-servers';
import { Checklist } from './checklist';
import { QuickActions } from './quick-actions';

/** The server the panel starts on: the one visited last, else the first the user administers. */
export function defaultServerId(servers: AuthServer[], recent: readonly string[]): string | undefined {
  const known = new Set(servers.map((server) => server.serverId));
  return (
    recent.find((id) => known.has(id)) ??
    servers.find((server) => isAdminRole(server.role))?.serverId ??
    servers[0]?.serverId
  );
}

/**
 * Setup steps and shortcuts for one server the user manages (staff or admin, bot present).
 * Members manage nothing, so they never see it.
 */
export function GettingStarted({ servers }: { servers: AuthServer[] }) {
  const { t } = useTranslation();
  const headingId = useId();
  const quickActionsId = useId();
  const userId = useAuthStore((state) => state.user?.userId);
  const { recent } = useRecentServers(userId);
  const [chosen, setChosen] = useState<string>();
  const selected =
    servers.find((server) => server.serverId === chosen) ??
    servers.find((server) => server.serverId === defaultServerId(servers, recent));
  if (!selected) return null;
  const admin = isAdminRole(selected.role);

  return (
    <Paper component="section" aria-labelledby={headingId} withBorder radius="md" p="md">
      <Stack gap="md">
        <Title order={2} size="h3" id={headingId}>
          {admin ? t('checklist.title') : t('quickActions.title')}
        </Title>
        {servers.length === 1 ? (
          <Text size="sm">{t('checklist.forServer', { name: selected.name })}</Text>
        ) : (
          <NativeSelect
            label={t('checklist.serverLabel')}
            value={selected.serverId}
            onChange={(event) => setChosen(event.currentTarget.value)}
            data={servers.map((server) => ({ value: server.serverId, label: server.name }))}
            maw={360}
          />
        )}
        {admin ? (
          // Keyed by server, so switching servers never shows the previous server's answers.
          <Checklist key={selected.serverId} serverId={selected.serverId} serverName={selected.name} />
        ) : (
          <Text size="sm" c="dimmed">
            {t('checklist.staffNote', { name: selected.name })}
          </Text>
        )}
        <Stack gap="xs">
          {admin && (
            <Title order={3} size="h5" id={quickActionsId}>
              {t('quickActions.title')}
            </Title>
          )}
          <QuickActions
            serverId={selected.serverId}
            role={selected.role}
            labelledBy={admin ? quickActionsId : headingId}
          />
        </Stack>
      </Stack>
    </Paper>
  );
}
