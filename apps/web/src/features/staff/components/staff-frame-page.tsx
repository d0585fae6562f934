import { Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BotMissing } from '@/components/bot-missing';
import { LoadError } from '@/components/load-error';
import { type Crumb, StaffPageHeader } from '@/components/staff-page-header';
import { paths, type StaffSection } from '@/lib/routes';
import { type CurrentServer, useCurrentServer } from '@/lib/use-current-server';
import { PremiumResultSection } from './sections/premium-result-section';
import { PremiumSection } from './sections/premium-section';
import { WhitelabelSection } from './sections/whitelabel-section';

/**
 * One per route of the staff frame (see app/router.tsx). Settings, a subject's settings, the
 * panels and the tickets have screens of their own (features/settings, features/panels, features/tickets).
 */
export type StaffFrameSection = Exclude<StaffSection, 'settings' | 'subject' | 'panels' | 'tickets' | 'ticket'>;

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

  return (
    <Frame current={current} title={t(`staff.sections.${section}`)} trail={trailOf(section, current.serverId, t('staff.sections.premium'))}>
      {notice}
      {!blocked && <SectionBody section={section} current={current} />}
    </Frame>
  );
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
  }
}
