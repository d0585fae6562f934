import { Badge } from '@mantine/core';
import type { TicketState } from '@ticket/contracts';
import { useTranslation } from 'react-i18next';

const colors: Record<TicketState, string> = {
  PendingStaff: 'orange',
  PendingUser: 'blue',
  AutoClose: 'yellow',
  Closed: 'gray',
};

export function TicketStateBadge({ state }: { state: TicketState }) {
  const { t } = useTranslation();
  return (
    <Badge color={colors[state]} variant="light" tt="none" size="sm">
      {t(`tickets.states.${state}`)}
    </Badge>
  );
}
