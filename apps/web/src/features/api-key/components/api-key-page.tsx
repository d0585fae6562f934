import { Alert, Button, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ApiKeyInfo } from '@ticket/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ServerLoadNotice } from '@/components/bot-missing';
import { EmptyState } from '@/components/empty-state';
import { Fact, Facts } from '@/components/facts';
import { useFormatters } from '@/components/formatters';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';
import { StaffPageHeader } from '@/components/staff-page-header';
import { confirm, notifyError, notifySuccess } from '@/lib/notify';
import { paths } from '@/lib/routes';
import { type CurrentServer, useCurrentServer } from '@/lib/use-current-server';
import { useCreateApiKey } from '../api/create-api-key';
import { useDeleteApiKey } from '../api/delete-api-key';
import { useApiKey } from '../api/get-api-key';
import { ApiKeyCalls } from './api-key-calls';
import { ApiKeyUsage } from './api-key-usage';
import { NewKeyPanel } from './new-key-panel';

/** What the examples show in place of a key the page does not know. */
const KEY_PLACEHOLDER = 'tdk_…';

/**
 * `/staff/:serverId/api-key`: the server's API key (SPEC §2, Enterprise only by §6). It can be
 * generated, reset (a new one replaces it) and deleted; a new key is shown in full once, to copy.
 */
export function ApiKeyPage() {
  const current = useCurrentServer();
  const { t } = useTranslation();
  return (
    <Stack gap="lg" maw={1200} mx="auto">
      <StaffPageHeader current={current} title={t('apiKey.title')} />
      <ServerLoadNotice current={current} />
      {!current.notFound && <ApiKeyBody current={current} />}
    </Stack>
  );
}

function ApiKeyBody({ current }: { current: CurrentServer }) {
  const { serverId, plan, server } = current;
  if (!server) return current.isLoading ? <LoadingBlock /> : null;
  if (plan !== 'enterprise') return <EnterpriseOnly serverId={serverId} plan={plan} />;
  return <ServerApiKey serverId={serverId} />;
}

/** Other plans learn what it takes, and nothing is asked of the service: it would only refuse. */
function EnterpriseOnly({ serverId, plan }: { serverId: string; plan: CurrentServer['plan'] }) {
  const { t } = useTranslation();
  return (
    <Alert color="violet" title={t('apiKey.enterpriseOnly')}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{t('apiKey.explanation')}</Text>
        <Text size="sm">{t('apiKey.currentPlan', { plan: t(`staff.plans.${plan}`) })}</Text>
        <Button component={Link} to={paths.premium(serverId)} variant="light" color="violet">
          {t('apiKey.seePlans')}
        </Button>
      </Stack>
    </Alert>
  );
}

function ServerApiKey({ serverId }: { serverId: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const query = useApiKey(serverId);
  const create = useCreateApiKey(serverId);
  const remove = useDeleteApiKey(serverId);
  // The whole key lives here only, for as long as the page is open.
  const [newKey, setNewKey] = useState<string | null>(null);
  const busy = create.isPending || remove.isPending;

  const generate = async (replacing: boolean) => {
    if (replacing && !(await confirm({ title: t('apiKey.reset.confirmTitle'), text: t('apiKey.reset.confirmText') }))) return;
    create.mutate(undefined, {
      onSuccess: ({ key }) => setNewKey(key),
      onError: () => notifyError(t(replacing ? 'apiKey.reset.failed' : 'apiKey.generate.failed')),
    });
  };

  const deleteKey = async () => {
    if (!(await confirm({ title: t('apiKey.delete.confirmTitle'), text: t('apiKey.delete.confirmText') }))) return;
    remove.mutate(undefined, {
      onSuccess: () => {
        setNewKey(null);
        notifySuccess(t('apiKey.delete.done'));
      },
      onError: () => notifyError(t('apiKey.delete.failed')),
    });
  };

  let content;
  if (query.isPending) content = <LoadingBlock height={96} />;
  else if (query.isError) content = <LoadError message={t('apiKey.loadFailed')} onRetry={() => void query.refetch()} />;
  else if (!query.data) {
    content = (
      <EmptyState
        title={t('apiKey.none.title')}
        action={
          <Button onClick={() => void generate(false)} loading={create.isPending} disabled={busy}>
            {t('apiKey.generate.action')}
          </Button>
        }
      >
        {t('apiKey.none.text')}
      </EmptyState>
    );
  } else {
    content = (
      <KeyDetails
        info={query.data}
        busy={busy}
        resetting={create.isPending}
        deleting={remove.isPending}
        onReset={() => void generate(true)}
        onDelete={() => void deleteKey()}
      />
    );
  }

  return (
    <>
      <Paper withBorder radius="md" p="md" component="section" aria-labelledby={headingId}>
        <Stack gap="md">
          <Stack gap={4}>
            <Title order={2} size="h4" id={headingId}>
              {t('apiKey.keyTitle')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('apiKey.explanation')}
            </Text>
          </Stack>
          {newKey && <NewKeyPanel apiKey={newKey} onDismiss={() => setNewKey(null)} />}
          {content}
        </Stack>
      </Paper>
      {query.data && <ApiKeyCalls serverId={serverId} />}
      <ApiKeyUsage serverId={serverId} shownKey={query.data?.key ?? KEY_PLACEHOLDER} />
    </>
  );
}

interface KeyDetailsProps {
  info: ApiKeyInfo;
  busy: boolean;
  resetting: boolean;
  deleting: boolean;
  onReset: () => void;
  onDelete: () => void;
}

/** The key the server has, as the service shows it again: its first characters, when it was made and last used. */
function KeyDetails({ info, busy, resetting, deleting, onReset, onDelete }: KeyDetailsProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <Stack gap="md" data-api-key>
      <Facts>
        <Fact label={t('apiKey.details.key')}>
          <Code dir="ltr">{info.key}</Code>
        </Fact>
        <Fact label={t('apiKey.details.created')}>{format.dateTime(info.createdAt)}</Fact>
        <Fact label={t('apiKey.details.lastUsed')}>
          {info.lastUsedAt ? format.dateTime(info.lastUsedAt) : t('apiKey.details.neverUsed')}
        </Fact>
      </Facts>
      <Group gap="sm">
        <Button variant="default" onClick={onReset} loading={resetting} disabled={busy}>
          {t('apiKey.reset.action')}
        </Button>
        <Button variant="light" color="red" onClick={onDelete} loading={deleting} disabled={busy}>
          {t('apiKey.delete.action')}
        </Button>
      </Group>
    </Stack>
  );
}
