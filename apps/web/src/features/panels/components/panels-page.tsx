import { Alert, Button, Stack, Text } from '@mantine/core';
import type { Panel } from '@ticket/contracts';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { BotMissing } from '@/components/bot-missing';
import { EmptyState } from '@/components/empty-state';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';
import { PlusIcon } from '@/components/screen-icons';
import { StaffPageHeader } from '@/components/staff-page-header';
import { usePanels } from '@/lib/queries/get-panels';
import { liveSubjects, useSubjects } from '@/lib/queries/get-subjects';
import { useServerCache, useServerCacheFor } from '@/lib/server-cache';
import { type CurrentServer, useCurrentServer } from '@/lib/use-current-server';
import { PanelList } from './panel-list';

// The wizard is only needed once a panel is opened: the list comes without it.
const PanelWizard = lazy(async () => ({ default: (await import('./wizard/panel-wizard')).PanelWizard }));

/** `?panel=new` opens the wizard on a new panel, `?panel=<id>` on that panel. */
const PANEL_PARAM = 'panel';

/**
 * `/staff/:serverId/panels` (ADMIN): the server's panels, the messages members open tickets from,
 * and the wizard that writes, posts and edits them.
 */
export function PanelsPage() {
  const { t } = useTranslation();
  const current = useCurrentServer();
  const { serverId } = current;
  const ready = useServerCacheFor(serverId);
  const [params, setParams] = useSearchParams();
  const editing = params.get(PANEL_PARAM);
  const blocked = current.notFound;
  // Opening a panel starts a new wizard; the wizard saving a new panel (which gives it an id in
  // the address) does not.
  const [session, setSession] = useState(0);
  const newButton = useRef<HTMLButtonElement>(null);
  const [returnFocus, setReturnFocus] = useState(false);

  const open = (id: string) => {
    setSession((s) => s + 1);
    setParams({ [PANEL_PARAM]: id });
  };
  const close = () => {
    setParams({});
    setReturnFocus(true);
  };
  const saved = (panel: Panel) => {
    if (editing !== panel.id) setParams({ [PANEL_PARAM]: panel.id }, { replace: true });
  };

  useEffect(() => {
    if (returnFocus && editing === null) {
      newButton.current?.focus();
      setReturnFocus(false);
    }
  }, [returnFocus, editing]);

  const notice = blocked ? (
    <BotMissing serverId={serverId} canInvite={current.isAdmin} />
  ) : current.error ? (
    <LoadError message={t('staff.serverLoadFailed')} onRetry={current.refetch} />
  ) : null;

  return (
    <Stack gap="lg" maw={1200} mx="auto">
      <StaffPageHeader
        current={current}
        title={t('panels.title')}
        actions={
          !blocked && editing === null ? (
            <Button ref={newButton} leftSection={<PlusIcon />} onClick={() => open('new')}>
              {t('panels.list.new')}
            </Button>
          ) : undefined
        }
      />
      {notice}
      {!blocked &&
        (ready ? (
          <PanelsBody
            current={current}
            editing={editing}
            session={session}
            onOpen={open}
            onClose={close}
            onSaved={saved}
          />
        ) : (
          <LoadingBlock />
        ))}
    </Stack>
  );
}

interface PanelsBodyProps {
  current: CurrentServer;
  /** `new`, a panel's id, or null for the list. */
  editing: string | null;
  session: number;
  onOpen: (id: string) => void;
  onClose: () => void;
  onSaved: (panel: Panel) => void;
}

function PanelsBody({ current, editing, session, onOpen, onClose, onSaved }: PanelsBodyProps) {
  const { t } = useTranslation();
  const { serverId } = current;
  const panels = usePanels(serverId);
  const subjects = useSubjects(serverId);
  const channels = useServerCache('channels');
  const subjectNames = useMemo(
    () => new Map(liveSubjects(subjects.data ?? []).map((s) => [s.subjectId, s.name])),
    [subjects.data],
  );

  if (editing !== null) {
    const panel = editing === 'new' ? null : panels.data?.find((p) => p.id === editing);
    if (editing !== 'new' && panels.isPending) return <LoadingBlock />;
    if (editing !== 'new' && panels.isError) {
      return <LoadError message={t('panels.list.loadFailed')} onRetry={() => void panels.refetch()} />;
    }
    if (panel === undefined) {
      return (
        <Alert color="yellow" title={t('panels.wizard.notFound')} role="alert">
          <Button variant="default" onClick={onClose}>
            {t('panels.wizard.back')}
          </Button>
        </Alert>
      );
    }
    return (
      <Suspense fallback={<LoadingBlock height={320} />}>
        <PanelWizard
          key={session}
          serverId={serverId}
          plan={current.plan}
          panel={panel}
          onSaved={onSaved}
          onClose={onClose}
        />
      </Suspense>
    );
  }

  return (
    <Stack gap="md">
      <Text>{t('panels.list.explanation')}</Text>
      {panels.isPending ? (
        <LoadingBlock />
      ) : panels.isError ? (
        <LoadError message={t('panels.list.loadFailed')} onRetry={() => void panels.refetch()} />
      ) : panels.data.length === 0 ? (
        <EmptyState title={t('panels.list.empty')}>{t('panels.list.emptyHint')}</EmptyState>
      ) : (
        <PanelList
          serverId={serverId}
          panels={panels.data}
          channels={channels.data}
          subjectNames={subjectNames}
          onEdit={onOpen}
        />
      )}
    </Stack>
  );
}
