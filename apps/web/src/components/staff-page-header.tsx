import { Anchor, Avatar, Breadcrumbs, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DocumentTitle } from '@/components/document-title';
import { paths } from '@/lib/routes';
import type { CurrentServer } from '@/lib/use-current-server';
import { PlanBadge } from './plan-badge';

export interface Crumb {
  label: string;
  to?: string;
}

interface StaffPageHeaderProps {
  current: CurrentServer;
  title: string;
  /** Between the server and this page, e.g. Settings on a subject's page. */
  trail?: Crumb[];
  /** The server's own home: titled with the server, so the crumb and subtitle say what the page is. */
  isHome?: boolean;
  actions?: ReactNode;
}

/** Title, server and the way back up (Dashboard › server › …) of every staff-mode screen. */
export function StaffPageHeader({ current, title, trail = [], isHome = false, actions }: StaffPageHeaderProps) {
  const { t } = useTranslation();
  const { server, serverId, serverName, iconUrl, plan, isAdmin } = current;
  // Staff have no server dashboard (ADMIN only): the server crumb leads to its profile instead.
  const serverHome = isAdmin ? paths.staffHome(serverId) : paths.serverProfile(serverId);
  const crumbs: Crumb[] = isHome
    ? [{ label: t('menu.dashboard'), to: '/' }]
    : [{ label: t('menu.dashboard'), to: '/' }, { label: serverName ?? serverId, to: serverHome }, ...trail];
  const subtitle = isHome ? t('staff.home.subtitle') : serverName;

  return (
    <Stack gap="sm">
      <DocumentTitle title={serverName && !isHome ? `${title} · ${serverName}` : title} />
      <nav aria-label={t('staff.breadcrumb')}>
        <Breadcrumbs separator="›" separatorMargin={6} style={{ flexWrap: 'wrap' }}>
          {crumbs.map((crumb) => (
            <Anchor key={`${crumb.label}-${crumb.to}`} component={Link} to={crumb.to ?? '.'} size="sm">
              {crumb.label}
            </Anchor>
          ))}
          <Text size="sm" aria-current="page">
            {title}
          </Text>
        </Breadcrumbs>
      </nav>
      <Group justify="space-between" align="center" gap="sm">
        <Group gap="sm" wrap="nowrap" miw={0}>
          {serverName ? (
            // The server's name is written beside it.
            <Avatar src={iconUrl} alt="" name={serverName} color="initials" radius="md" size="lg" />
          ) : (
            <Skeleton circle height={56} aria-hidden />
          )}
          <Stack gap={2} miw={0}>
            <Title order={1} lh={1.2}>
              {title}
            </Title>
            <Group gap="xs">
              <Text c="dimmed" size="sm" truncate="end">
                {subtitle}
              </Text>
              {server && <PlanBadge plan={plan} />}
            </Group>
          </Stack>
        </Group>
        {actions}
      </Group>
    </Stack>
  );
}
