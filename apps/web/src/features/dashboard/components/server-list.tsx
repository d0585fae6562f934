import { Box, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { BearerUser } from '@ticket/contracts';
import { lazy, type ReactNode, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveInstantDashboard } from '@/lib/instant-dashboard';
import { ServerCard } from './server-card';
import { JoinedServerActions, UnjoinedServerActions } from './server-actions';

const ServerSearch = lazy(async () => ({ default: (await import('./server-search')).ServerSearch }));

/** Up to this many servers a search box is more clutter than help. */
export const SEARCH_THRESHOLD = 6;

const matches = (query: string) => {
  const needle = query.trim().toLocaleLowerCase();
  return ({ name }: { name: string }) => needle === '' || name.toLocaleLowerCase().includes(needle);
};

/** Every server of the user as a card, those with the bot first; searchable once there are many. */
export function ServerList({ user, inviteUrl }: { user: BearerUser; inviteUrl?: string }) {
  const { t, i18n } = useTranslation();
  const [query, setQuery] = useState('');
  const total = user.servers.length + user.uServers.length;
  const joined = user.servers.filter(matches(query));
  const unjoined = user.uServers.filter(matches(query));
  const listRef = useRef<HTMLDivElement>(null);
  // The whole list as drawn, for the next visit to show before the app has loaded.
  useEffect(() => {
    if (query === '' && listRef.current) saveInstantDashboard(user.userId, listRef.current);
  }, [user, query, i18n.language]);

  if (total === 0) return <Text c="dimmed">{t('servers.empty')}</Text>;

  return (
    <Stack gap="xl" ref={listRef}>
      {total > SEARCH_THRESHOLD && (
        // The box's height is kept while it loads, so the cards do not jump.
        <Suspense fallback={<Box h={60} />}>
          <ServerSearch value={query} onChange={setQuery} />
        </Suspense>
      )}
      {joined.length === 0 && unjoined.length === 0 && (
        <Text c="dimmed" role="status">
          {t('dashboard.noMatch', { query: query.trim() })}
        </Text>
      )}
      {joined.length > 0 && (
        <ServerSection title={t('servers.withBot')}>
          {joined.map((server) => (
            <ServerCard
              key={server.serverId}
              serverId={server.serverId}
              name={server.name}
              iconUrl={server.serverIcon}
              role={server.role}
            >
              <JoinedServerActions server={server} />
            </ServerCard>
          ))}
        </ServerSection>
      )}
      {unjoined.length > 0 && (
        <ServerSection title={t('servers.withoutBot')}>
          {unjoined.map((server) => (
            <ServerCard
              key={server.serverId}
              serverId={server.serverId}
              name={server.name}
              iconUrl={server.serverIcon}
              role={server.role}
            >
              <UnjoinedServerActions server={server} inviteUrl={inviteUrl} />
            </ServerCard>
          ))}
        </ServerSection>
      )}
    </Stack>
  );
}

function ServerSection({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Stack component="section" aria-labelledby={headingId} gap="md">
      <Title order={2} size="h3" id={headingId}>
        {title}
      </Title>
      <SimpleGrid component="ul" cols={{ base: 1, sm: 2, lg: 3 }} p={0} m={0} style={{ listStyle: 'none' }}>
        {children}
      </SimpleGrid>
    </Stack>
  );
}
