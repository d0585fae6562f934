import { Avatar, Button, Card, Group, Stack, Title } from '@mantine/core';
import type { ServerRole } from '@ticket/contracts';
import type { ReactNode } from 'react';
import { RoleBadge } from '@/components/role-badge';

interface ServerCardProps {
  serverId: string;
  name: string;
  iconUrl?: string | null;
  role: ServerRole;
  children?: ReactNode;
}

export function ServerCard({ serverId, name, iconUrl, role, children }: ServerCardProps) {
  return (
    <Card component="li" withBorder radius="md" padding="md" data-server-id={serverId}>
      <Group wrap="nowrap" align="flex-start">
        {/* The name beside it says whose icon this is. */}
        <Avatar src={iconUrl ?? null} alt="" name={name} color="initials" radius="md" size="lg" />
        <Stack gap={6} miw={0}>
          <Title order={3} size="h4" lineClamp={2}>
            {name}
          </Title>
          <Group gap="xs">
            <RoleBadge role={role} />
          </Group>
        </Stack>
      </Group>
      {children && (
        <Stack gap="sm" mt="md">
          {children}
        </Stack>
      )}
    </Card>
  );
}

/** A card's call to action: a plain link, since it leaves the app. */
export function ServerCardLink({ href, label, children }: { href: string; label: string; children: ReactNode }) {
  return (
    <Button component="a" href={href} aria-label={label} variant="light" fullWidth>
      {children}
    </Button>
  );
}
