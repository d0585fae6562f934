import { Alert, Group, Loader, ScrollArea, Stack, Tabs, Text, Title } from '@mantine/core';
import type { PlanFeature, ServerSettings, Subject } from '@ticket/contracts';
import { type ComponentType, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { PLANS } from 'virtual:plans';
import { BotMissing } from '@/components/bot-missing';
import { EmptyState } from '@/components/empty-state';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';
import { StaffPageHeader } from '@/components/staff-page-header';
import { isResponseError } from '@/lib/api';
import { liveSubjects, useSubjects } from '@/lib/queries/get-subjects';
import { paths } from '@/lib/routes';
import { useServerCache } from '@/lib/server-cache';
import { useCurrentServer } from '@/lib/use-current-server';
import { useSubject } from '../api/get-subject';
import { useServerCacheFor } from '../hooks/use-server-cache-for';
import { useEnqueue, usePendingChanges, useSettingsQueue, useSubjectView } from '../hooks/use-settings-queue';
import { applyOperation, getAt, sameJson } from '../lib/setting-paths';
import type { PendingChange, UpdateQueue } from '../lib/update-queue';
import { AutoCloseCard, CloseBehaviorCard, CloseButtonsCard, CloseDelaysCard } from './cards/closing-cards';
import { TicketButtonsCard, TicketFormattingCard } from './cards/creation-cards';
import { StaffManagementCard, SubjectInformationCard, TicketCategoriesCard } from './cards/general-cards';
import { LanguageCard } from './cards/language-card';
import { ServerLimitsCard, UserLimitsCard } from './cards/limitation-cards';
import { CloseMessagesCard, ResponseMessagesCard, WelcomeMessagesCard } from './cards/message-cards';
import { AccessControlCard } from './cards/permission-cards';
import { EventLoggingCard, LogAppearanceCard, LogChannelCard, NotificationsCard } from './cards/settings-cards';
import { DataRetentionCard, StoragePoliciesCard } from './cards/storage-cards';
import { LeaveGuard } from './leave-guard';
import { FormsAndQuestionsCard } from './questions/forms-card';
import { type SubjectEditor, SubjectEditorContext } from './subject-editor-context';
import { UnexpectedBoundary } from './unexpected-boundary';

/** The sections of SPEC §2 and the cards each holds. */
export const SECTIONS = [
  { id: 'general', cards: [SubjectInformationCard, StaffManagementCard, TicketCategoriesCard] },
  { id: 'permissions', cards: [AccessControlCard] },
  { id: 'ticketCreation', cards: [TicketFormattingCard, TicketButtonsCard] },
  { id: 'settings', cards: [NotificationsCard, LogChannelCard, EventLoggingCard, LogAppearanceCard] },
  { id: 'closing', cards: [CloseButtonsCard, CloseDelaysCard, AutoCloseCard, CloseBehaviorCard] },
  { id: 'limitations', cards: [UserLimitsCard, ServerLimitsCard] },
  { id: 'storage', cards: [StoragePoliciesCard, DataRetentionCard] },
  { id: 'language', cards: [LanguageCard] },
  { id: 'embeds', cards: [WelcomeMessagesCard, ResponseMessagesCard, CloseMessagesCard] },
  { id: 'formQuestions', cards: [FormsAndQuestionsCard] },
] as const satisfies readonly { id: string; cards: readonly ComponentType[] }[];

export type SectionId = (typeof SECTIONS)[number]['id'];
const isSection = (value: string | null): value is SectionId => SECTIONS.some((s) => s.id === value);

/** `/staff/:serverId/settings/:subjectId`: every setting of one subject, saved as it changes. */
export function SubjectSettingsPage() {
  const { t } = useTranslation();
  const { serverId, subjectId } = useParams();
  if (!serverId || !subjectId) {
    return (
      <Alert color="red" role="alert" title={t('settings.errors.title')}>
        {t('settings.errors.missingRoute')}
      </Alert>
    );
  }
  return (
    <UnexpectedBoundary>
      <SubjectSettingsScreen key={`${serverId}/${subjectId}`} serverId={serverId} subjectId={subjectId} />
    </UnexpectedBoundary>
  );
}

function SaveStatus({ pending }: { pending: readonly PendingChange[] }) {
  const { t } = useTranslation();
  const saving = pending.length > 0;
  return (
    <Group gap={6} role="status" aria-live="polite" wrap="nowrap">
      {saving && <Loader size="xs" aria-hidden />}
      <Text size="sm" c={saving ? undefined : 'dimmed'}>
        {saving ? t('settings.save.saving') : t('settings.save.saved')}
      </Text>
    </Group>
  );
}

function SubjectSettingsScreen({ serverId, subjectId }: { serverId: string; subjectId: string }) {
  const { t } = useTranslation();
  const current = useCurrentServer();
  const cacheReady = useServerCacheFor(serverId);
  const query = useSubject(serverId, subjectId);
  const queue = useSettingsQueue(serverId);
  const pending = usePendingChanges(queue);
  const pendingName = pending.findLast((p) => p.subjectId === subjectId && p.path === 'name' && p.operation === 'set');
  const title = (pendingName?.value as string | undefined) ?? query.data?.name ?? t('staff.sections.subject');

  let body;
  if (current.notFound) body = <BotMissing serverId={serverId} canInvite={current.isAdmin} />;
  else if (query.isPending || !cacheReady) body = <LoadingBlock height={240} label={t('settings.loading')} />;
  else if (isResponseError(query.error, 404)) {
    body = <EmptyState title={t('settings.subject.notFound')}>{t('settings.subject.notFoundHint')}</EmptyState>;
  } else if (query.isError) {
    body = <LoadError message={t('settings.errors.loadFailed')} onRetry={() => void query.refetch()} />;
  } else if (query.data.subjectId !== subjectId || query.data.serverId !== serverId || query.data.deleted) {
    // The server answers only this server's live subject at this address.
    body = (
      <Alert color="red" role="alert" title={t('settings.errors.title')}>
        {t('errors.unexpected')}
      </Alert>
    );
  } else {
    body = <SubjectEditorView serverId={serverId} subject={query.data} queue={queue} pending={pending} plan={current} />;
  }

  return (
    <Stack gap="lg" maw={1200} mx="auto">
      <StaffPageHeader
        current={current}
        title={title}
        trail={[{ label: t('staff.sections.settings'), to: paths.settings(serverId) }]}
        actions={query.data && <SaveStatus pending={pending} />}
      />
      {current.error && !current.notFound ? <LoadError message={t('staff.serverLoadFailed')} onRetry={current.refetch} /> : null}
      {body}
      <LeaveGuard queue={queue} />
    </Stack>
  );
}

interface EditorViewProps {
  serverId: string;
  subject: Subject;
  queue: UpdateQueue;
  pending: readonly PendingChange[];
  plan: ReturnType<typeof useCurrentServer>;
}

function SubjectEditorView({ serverId, subject, queue, pending, plan }: EditorViewProps) {
  const { t } = useTranslation();
  const enqueue = useEnqueue(queue);
  const subjectsQuery = useSubjects(serverId);
  const subjects = useMemo(() => liveSubjects(subjectsQuery.data ?? []), [subjectsQuery.data]);
  const view = useSubjectView(subject, pending, subjects);
  const serverSettings = useServerCache('settings');
  const settingsView = useMemo(() => {
    let settings: ServerSettings | undefined = serverSettings.data;
    for (const change of pending) {
      if (settings && change.subjectId === '') settings = applyOperation(settings, change.path, change.operation, change.value);
    }
    return settings;
  }, [serverSettings.data, pending]);
  const [search, setSearch] = useSearchParams();
  const requested = search.get('section');
  const section: SectionId = isSection(requested) ? requested : 'general';

  const editor: SubjectEditor = useMemo(
    () => ({
      serverId,
      subject: view,
      subjects,
      plan: plan.plan,
      planKnown: plan.server !== undefined,
      hasFeature: (feature: PlanFeature) => plan.server !== undefined && PLANS[plan.plan].features[feature],
      server: {
        settings: settingsView,
        loading: serverSettings.status === 'loading',
        error: serverSettings.error,
        reload: serverSettings.reload,
      },
      change: ({ subjectId = subject.subjectId, ...change }) => {
        // Setting what the server already holds, with nothing else queued for it, would change nothing.
        const unchanged =
          change.operation === 'set' &&
          subjectId === subject.subjectId &&
          sameJson(getAt(subject, change.path), change.value) &&
          !pending.some((p) => p.subjectId === subjectId && p.path === change.path);
        if (!unchanged) enqueue({ subjectId, ...change });
      },
    }),
    [serverId, view, subjects, plan.plan, plan.server, settingsView, serverSettings, enqueue, subject, pending],
  );

  return (
    <SubjectEditorContext.Provider value={editor}>
      <Tabs
        value={section}
        onChange={(next) =>
          setSearch(
            (params) => {
              const nextParams = new URLSearchParams(params);
              if (!next || next === 'general') nextParams.delete('section');
              else nextParams.set('section', next);
              return nextParams;
            },
            { replace: true, preventScrollReset: true },
          )
        }
        keepMounted={false}
        variant="outline"
      >
        <ScrollArea type="auto" scrollbars="x" offsetScrollbars>
          <Tabs.List style={{ flexWrap: 'nowrap' }} aria-label={t('settings.sections.label')}>
            {SECTIONS.map(({ id }) => (
              <Tabs.Tab key={id} value={id} style={{ whiteSpace: 'nowrap' }}>
                {t(`settings.sections.${id}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </ScrollArea>
        {SECTIONS.map(({ id, cards }) => (
          <Tabs.Panel key={id} value={id} pt="md">
            <Stack gap="md">
              <Title order={2} size="h3">
                {t(`settings.sections.${id}`)}
              </Title>
              {cards.map((Card, i) => (
                <Card key={i} />
              ))}
            </Stack>
          </Tabs.Panel>
        ))}
      </Tabs>
    </SubjectEditorContext.Provider>
  );
}
