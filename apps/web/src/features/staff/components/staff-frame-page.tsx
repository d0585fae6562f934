import { Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { LoadError } from '@/components/load-error';
import { useServerTicket } from '@/features/tickets/api/get-server-ticket';
import { paths, type StaffSection } from '@/lib/routes';
import { type CurrentServer, useCurrentServer } from '../hooks/use-current-server';
import { BotMissing } from './bot-missing';
import { PremiumResultSection } from './sections/premium-result-section';
import { PremiumSection } from './sections/premium-section';
import { TicketsSection } from './sections/tickets-section';
import { WhitelabelSection } from './sections/whitelabel-section';
import { type Crumb, StaffPageHeader } from './staff-page-header';

/**
 * One per route of the staff frame (see app/router.tsx). Settings, a subject's settings and the
 * panels have screens of their own (features/settings, features/panels).
 */
export type StaffFrameSection = Exclude<StaffSection, 'settings' | 'subject' | 'panels'>;

/**
 * The frame of every staff-mode screen below the server's home: title, server, breadcrumb, and
 * what the server already holds for that screen. The editors of each screen grow inside it.
 */
export function StaffFramePage({ section }: { section: StaffFrameSection }) {
  const current = useCurrentServer();
  const { t } = useTranslation();
  // Without the bot there is nothing to show; a server that failed to load still has its data.
  const notice = current.notFound ? (
    <BotMissing serverId={current.serverId} canInvite={current.isAdmin} />
  ) : current.error ? (
    <LoadError message={t('staff.serverLoadFailed')} onRetry={current.refetch} />
  ) : null;
  const blocked = current.notFound;

  switch (section) {
    case 'tickets':
    case 'ticket':
      // One frame for the list and its tickets, so the list stays as it was while a ticket is open.
      return <TicketsFrame current={current} notice={notice} blocked={blocked} />;
    default:
      return (
        <Frame current={current} title={t(`staff.sections.${section}`)} trail={trailOf(section, current.serverId, t('staff.sections.premium'))}>
          {notice}
          {!blocked && <SectionBody section={section} current={current} />}
        </Frame>
      );
  }
}

interface RecordFrameProps {
  current: CurrentServer;
  notice: ReactNode;
  blocked: boolean;
}

/** The premium result pages sit below Premium. */
function trailOf(section: StaffFrameSection, serverId: string, premiumLabel: string): Crumb[] {
  return section.startsWith('premium') && section !== 'premium'
    ? [{ label: premiumLabel, to: paths.premium(serverId) }]
    : [];
}

function Frame({ current, title, trail, children }: { current: CurrentServer; title: string; trail?: Crumb[]; children: ReactNode }) {
  return (
    <Stack gap="lg" maw={1200} mx="auto">
      <StaffPageHeader current={current} title={title} trail={trail} />
      {children}
    </Stack>
  );
}

function SectionBody({ section, current }: { section: StaffFrameSection; current: CurrentServer }) {
  const { serverId, plan, server } = current;
  switch (section) {
    case 'whitelabel':
      return <WhitelabelSection current={current} />;
    case 'premium':
      // Until the server is loaded its plan is unknown: no plan is marked rather than a wrong one.
      return <PremiumSection plan={server ? plan : undefined} />;
    case 'premiumCancel':
      return <PremiumResultSection serverId={serverId} result="cancel" />;
    case 'premiumSuccess':
      return <PremiumResultSection serverId={serverId} result="success" />;
    case 'premiumUpdateSuccess':
      return <PremiumResultSection serverId={serverId} result="updateSuccess" />;
    case 'tickets':
    case 'ticket':
      // Rendered by their own frame, which loads the ticket the title names.
      return null;
  }
}

/**
 * `/staff/:serverId/tickets` and `/staff/:serverId/tickets/:ticketId`: the list, and a ticket titled
 * with its number once it is known. The way back to the list keeps the list's query.
 */
function TicketsFrame({ current, notice, blocked }: RecordFrameProps) {
  const { t } = useTranslation();
  const { ticketId } = useParams();
  const location = useLocation();
  const query = useServerTicket(blocked ? '' : current.serverId, ticketId);
  const title = !ticketId
    ? t('staff.sections.tickets')
    : query.data
      ? t('tickets.numbered', { number: query.data.number })
      : t('staff.sections.ticket');
  return (
    <Frame
      current={current}
      title={title}
      trail={ticketId ? [{ label: t('staff.sections.tickets'), to: paths.tickets(current.serverId) + location.search }] : []}
    >
      {notice}
      {!blocked && <TicketsSection serverId={current.serverId} ticketId={ticketId} ticket={query} />}
    </Frame>
  );
}
