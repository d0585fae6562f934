import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { SessionInfo } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '@/components/formatters';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';
import { confirm, notifyError, notifySuccess } from '@/lib/notify';
import { useDeleteSession } from '../api/delete-session';
import { useSessions } from '../api/get-sessions';
import { describeUserAgent } from '../user-agent';
import { ProfileSection } from './profile-section';

/** Where the user is signed in; any other browser can be signed out from here. */
export function SessionsSection() {
  const { t } = useTranslation();
  const sessions = useSessions();
  return (
    <ProfileSection title={t('profile.sessions.title')} description={t('profile.sessions.description')}>
      {sessions.isPending ? (
        <LoadingBlock height={80} />
      ) : sessions.isError ? (
        <LoadError message={t('profile.sessions.loadFailed')} onRetry={() => void sessions.refetch()} />
      ) : (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
          {sessions.data.map((session) => (
            <SessionRow key={session.id} session={session} />
          ))}
        </Stack>
      )}
    </ProfileSection>
  );
}

function SessionRow({ session }: { session: SessionInfo }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const remove = useDeleteSession();
  const { browser, os } = describeUserAgent(session.userAgent);
  const device =
    browser && os
      ? t('profile.sessions.browserOn', { browser, os })
      : (browser ?? os ?? t('profile.sessions.unknownBrowser'));

  const signOut = async () => {
    if (!(await confirm())) return;
    remove.mutate(session.id, {
      onSuccess: () => notifySuccess(t('profile.sessions.signedOut', { device })),
      onError: () => notifyError(t('profile.sessions.signOutFailed')),
    });
  };

  return (
    <Paper component="li" withBorder p="sm" radius="md" data-session-id={session.id}>
      <Group justify="space-between" gap="sm">
        <Stack gap={2} miw={0}>
          <Group gap="xs">
            <Text fw={600}>{device}</Text>
            {session.current && (
              <Badge color="teal" variant="light" tt="none">
                {t('profile.sessions.thisDevice')}
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {t('profile.sessions.created', { date: format.dateTime(session.createdAt) })}
            {' · '}
            {t('profile.sessions.lastUsed', { date: format.dateTime(session.lastUsedAt) })}
          </Text>
        </Stack>
        {!session.current && (
          <Button
            variant="default"
            color="red"
            size="xs"
            loading={remove.isPending}
            onClick={() => void signOut()}
            aria-label={t('profile.sessions.signOutDevice', { device })}
          >
            {t('profile.sessions.signOut')}
          </Button>
        )}
      </Group>
    </Paper>
  );
}
