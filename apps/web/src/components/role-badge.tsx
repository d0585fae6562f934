import { Badge, type MantineColor } from '@mantine/core';
import type { ServerRole } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';

const colors: Record<ServerRole, MantineColor> = {
  Owner: 'grape',
  Admin: 'indigo',
  Staff: 'teal',
  Member: 'gray',
};

export function RoleBadge({ role }: { role: ServerRole }) {
  const { t } = useTranslation();
  return (
    <Badge color={colors[role]} variant="light" tt="none" data-role={role}>
      {t(`roles.${role}`)}
    </Badge>
  );
}
