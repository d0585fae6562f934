import type { ComponentType } from 'react';
import { DashboardPage } from '@/features/dashboard/components/dashboard-page';
import { loadLocaleArea } from '@/lib/i18n';
import type { LocaleArea } from '@/locales/areas';
import type { PremiumResult } from '@/features/premium/components/premium-result-page';

/** A screen's module, once the messages of its areas (src/locales/areas.ts) are there too. */
export async function withArea<T>(areas: LocaleArea | LocaleArea[], screen: Promise<T>): Promise<T> {
  const [module] = await Promise.all([screen, ...[areas].flat().map(loadLocaleArea)]);
  return module;
}

/**
 * The screens of the features, each its own chunk, loaded by the route that shows it. The
 * Dashboard is the exception: the first screen of a signed-in user, it comes with the entry (see
 * plugins/chunks.ts), so that it does not wait for a chunk of its own.
 */
export const SCREENS = {
  dashboard: async () => DashboardPage,
  profile: async () => (await withArea('account', import('@/features/profile/components/profile-page'))).ProfilePage,
  serverProfile: async () =>
    (await withArea(['account', 'staff'], import('@/features/server-profile/components/server-profile-page'))).ServerProfilePage,
  staffHome: async () => (await withArea('staff', import('@/features/staff/components/staff-home-page'))).StaffHomePage,
  subjects: async () => (await withArea(['settings', 'staff'], import('@/features/settings/components/subjects-page'))).SubjectsPage,
  subjectSettings: async () =>
    (await withArea(['settings', 'staff'], import('@/features/settings/components/subject-settings-page'))).SubjectSettingsPage,
  panels: async () => (await withArea(['panels', 'staff'], import('@/features/panels/components/panels-page'))).PanelsPage,
  whitelabel: async () =>
    (await withArea(['whitelabel', 'staff'], import('@/features/whitelabel/components/whitelabel-page'))).WhitelabelPage,
  apiKey: async () => (await withArea(['apiKey', 'staff'], import('@/features/api-key/components/api-key-page'))).ApiKeyPage,
  webhooks: async () =>
    (await withArea(['webhooks', 'staff'], import('@/features/webhooks/components/webhooks-page'))).WebhooksPage,
  premium: async () => (await withArea(['premium', 'staff'], import('@/features/premium/components/premium-page'))).PremiumPage,
  premiumResult: async () =>
    (await withArea(['premium', 'staff'], import('@/features/premium/components/premium-result-page'))).PremiumResultPage,
  serverTickets: async () =>
    (await withArea(['tickets', 'staff'], import('@/features/tickets/components/server-tickets-page'))).ServerTicketsPage,
  myTickets: async () =>
    (await withArea(['tickets', 'staff'], import('@/features/tickets/components/my-tickets-page'))).MyTicketsPage,
  publicServerStats: async () =>
    (await withArea(['publicStats', 'staff'], import('@/features/public-stats/components/public-server-stats-page'))).PublicServerStatsPage,
  inviteCallback: async () =>
    (await withArea('account', import('@/features/invite/components/invite-callback-page'))).InviteCallbackPage,
};

export type ScreenName = keyof typeof SCREENS;

/**
 * A route's `lazy` for a screen that needs no props. It answers an `element` rather than a
 * `Component`, so routes that show one screen (a list and one of its items) keep one mounted
 * instance between them.
 */
export const lazyScreen = (name: Exclude<ScreenName, 'premiumResult'>) => async () => {
  const Screen = (await SCREENS[name]()) as ComponentType;
  return { element: <Screen /> };
};

/** A result page of Premium: where the payment provider sends the browser back. */
export const premiumResult = (result: PremiumResult) => async () => {
  const PremiumResultPage = await SCREENS.premiumResult();
  return { element: <PremiumResultPage result={result} /> };
};
