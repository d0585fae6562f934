import { Anchor, Badge, Box, Button, Group, Image, Paper, Stack, Title } from '@mantine/core';
import type { ServerDetails } from '@ticket/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BotMissing } from '@/components/bot-missing';
import { Fact, Facts } from '@/components/facts';
import { useFormatters } from '@/components/formatters';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';
import { PlanBadge } from '@/components/plan-badge';
import { RoleBadge } from '@/components/role-badge';
import { StaffPageHeader } from '@/components/staff-page-header';
import { useAuthStore } from '@/lib/auth-store';
import { paths } from '@/lib/routes';
import { type CurrentServer, useCurrentServer } from '@/lib/use-current-server';
import { useServerUser } from '../api/get-server-user';

/** `/staff/:serverId/profile` (STAFF): the server at a glance, and where admins go from here. */
export function ServerProfilePage() {
  const { t } = useTranslation();
  const current = useCurrentServer();
  let body;
  if (current.notFound) body = <BotMissing serverId={current.serverId} canInvite={current.isAdmin} />;
  else if (current.isLoading) body = <LoadingBlock height={240} />;
  else if (!current.server) body = <LoadError message={t('staff.serverLoadFailed')} onRetry={current.refetch} />;
  else body = <ServerProfile current={current} server={current.server} />;

  return (
    <Stack gap="lg" maw={1000} mx="auto">
      <StaffPageHeader current={current} title={t('serverProfile.title')} />
      {body}
    </Stack>
  );
}

function ServerProfile({ current, server }: { current: CurrentServer; server: ServerDetails }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const linksId = useId();
  const userId = useAuthStore((state) => state.user?.userId);
  const owner = useServerUser(server.serverId, server.ownerId);
  const ownerName =
    server.ownerId === userId
      ? t('serverProfile.you')
      : (owner.data?.guildMember?.nickname ?? owner.data?.displayName ?? (owner.isPending ? t('app.loading') : server.ownerId));

  return (
    <Stack gap="lg">
      <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
        {server.bannerUrl ? (
          // Decoration: the server's name is the heading right below.
          <Image src={server.bannerUrl} alt="" h={160} fit="cover" />
        ) : (
          <Box h={64} bg="var(--mantine-primary-color-light)" aria-hidden />
        )}
        <Stack gap="md" p="md">
          <Group gap="sm">
            <Title order={2} size="h3">
              {server.name}
            </Title>
            <PlanBadge plan={server.subscription} />
            {current.role && <RoleBadge role={current.role} />}
          </Group>
          <Facts>
            <Fact label={t('serverProfile.members')}>
              {server.memberCount === null ? t('serverProfile.unknown') : format.number(server.memberCount)}
            </Fact>
            <Fact label={t('serverProfile.owner')}>{ownerName}</Fact>
            <Fact label={t('serverProfile.plan')}>
              {t('staff.planWithLevel', { plan: t(`staff.plans.${server.subscription}`), level: current.premiumLevel })}
            </Fact>
            <Fact label={t('serverProfile.yourRole')}>{current.role ? t(`roles.${current.role}`) : t('serverProfile.unknown')}</Fact>
            <Fact label={t('serverProfile.bot')}>
              <Badge color={server.active ? 'teal' : 'gray'} variant="light" tt="none">
                {server.active ? t('serverProfile.botPresent') : t('serverProfile.botAbsent')}
              </Badge>
            </Fact>
            <Fact label={t('serverProfile.serverId')}>
              <code>{server.serverId}</code>
            </Fact>
          </Facts>
        </Stack>
      </Paper>
      {current.isAdmin && (
        <Stack component="section" aria-labelledby={linksId} gap="xs">
          <Title order={2} size="h4" id={linksId}>
            {t('serverProfile.manage')}
          </Title>
          <Group gap="xs">
            <Button component={Link} to={paths.staffHome(server.serverId)}>
              {t('quickActions.openDashboard')}
            </Button>
            <Button component={Link} to={paths.settings(server.serverId)} variant="default">
              {t('quickActions.settings')}
            </Button>
            <Button component={Link} to={paths.panels(server.serverId)} variant="default">
              {t('quickActions.panels')}
            </Button>
            <Button component={Link} to={paths.premium(server.serverId)} variant="default">
              {t('quickActions.premium')}
            </Button>
          </Group>
        </Stack>
      )}
      <Anchor component={Link} to={paths.tickets(server.serverId)} size="sm">
        {t('serverProfile.viewTickets')}
      </Anchor>
    </Stack>
  );
}
