import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ServerLoadNotice } from '@/components/bot-missing';
import { StaffPageHeader } from '@/components/staff-page-header';
import type { StaffSection } from '@/lib/routes';
import { type CurrentServer, useCurrentServer } from '@/lib/use-current-server';
import { WhitelabelSection } from './sections/whitelabel-section';

/**
 * One per route of the staff frame (see app/router.tsx). Settings, a subject's settings, the
 * panels, the tickets, the API key and Premium have screens of their own (features/settings,
 * features/panels, features/tickets, features/api-key, features/premium).
 */
export type StaffFrameSection = Exclude<
  StaffSection,
  | 'settings'
  | 'subject'
  | 'panels'
  | 'tickets'
  | 'ticket'
  | 'apiKey'
  | 'premium'
  | 'premiumCancel'
  | 'premiumSuccess'
  | 'premiumUpdateSuccess'
>;

/**
 * The frame of every staff-mode screen below the server's home: title, server, breadcrumb, and
 * what the server already holds for that screen.
 */
export function StaffFramePage({ section }: { section: StaffFrameSection }) {
  const current = useCurrentServer();
  const { t } = useTranslation();

  return (
    <Stack gap="lg" maw={1200} mx="auto">
      <StaffPageHeader current={current} title={t(`staff.sections.${section}`)} />
      {/* Without the bot there is nothing to show; a server that failed to load still has its data. */}
      <ServerLoadNotice current={current} />
      {!current.notFound && <SectionBody section={section} current={current} />}
    </Stack>
  );
}

function SectionBody({ section, current }: { section: StaffFrameSection; current: CurrentServer }) {
  switch (section) {
    case 'whitelabel':
      return <WhitelabelSection current={current} />;
  }
}
