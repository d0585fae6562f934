import { Alert, Button, Stack, Text } from '@mantine/core';
import type { UpdateWhitelabelRequest } from '@ticket/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ServerLoadNotice } from '@/components/bot-missing';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';
import { StaffPageHeader } from '@/components/staff-page-header';
import { confirm, notifyError, notifySuccess } from '@/lib/notify';
import { PLANS } from '@/lib/plans';
import { useLoginConfig } from '@/lib/queries/get-login-config';
import { paths } from '@/lib/routes';
import { type CurrentServer, useCurrentServer } from '@/lib/use-current-server';
import { useCreateWhitelabel } from '../api/create-whitelabel';
import { useDeleteWhitelabel } from '../api/delete-whitelabel';
import { useLiveWhitelabel } from '../api/get-whitelabel';
import { useStartWhitelabel } from '../api/start-whitelabel';
import { useUpdateWhitelabel } from '../api/update-whitelabel';
import { botInviteUrl, isAwaitingDeployment, isOnTheWayUp, SLOW_DEPLOYMENT_MS, tokenProblemOf, uiStateOf } from '../whitelabel-state';
import { BotForm, type BotFormValues, type SaveOutcome } from './bot-form';
import { BotStatus } from './bot-status';
import { SetupGuide } from './setup-guide';

/**
 * `/staff/:serverId/whitelabel`: the server's own bot (SPEC §2, Enterprise only by §6). It is set
 * up with its token and an activity, started, followed while it starts (SPEC §4's states), changed
 * and removed.
 */
export function WhitelabelPage() {
  const current = useCurrentServer();
  const { t } = useTranslation();
  return (
    <Stack gap="lg" maw={1200} mx="auto">
      <StaffPageHeader current={current} title={t('menu.whitelabel')} />
      <ServerLoadNotice current={current} />
      {!current.notFound && <WhitelabelBody current={current} />}
    </Stack>
  );
}

function WhitelabelBody({ current }: { current: CurrentServer }) {
  const { serverId, plan, server } = current;
  if (!server) return current.isLoading ? <LoadingBlock /> : null;
  if (!PLANS[plan].features.whitelabel) return <EnterpriseOnly serverId={serverId} plan={plan} />;
  return <ServerWhitelabel serverId={serverId} />;
}

/** Other plans learn what it takes, and nothing is asked of the service: it would only refuse. */
function EnterpriseOnly({ serverId, plan }: { serverId: string; plan: CurrentServer['plan'] }) {
  const { t } = useTranslation();
  return (
    <Alert color="violet" title={t('whitelabel.enterpriseOnly')}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{t('whitelabel.explanation')}</Text>
        <Text size="sm">{t('whitelabel.currentPlan', { plan: t(`staff.plans.${plan}`) })}</Text>
        <Button component={Link} to={paths.premium(serverId)} variant="light" color="violet">
          {t('whitelabel.seePlans')}
        </Button>
      </Stack>
    </Alert>
  );
}

/** True once `waiting` has held for SLOW_DEPLOYMENT_MS without a break. */
function useTakingLong(waiting: boolean): boolean {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    if (!waiting) return undefined;
    const timer = setTimeout(() => setSlow(true), SLOW_DEPLOYMENT_MS);
    return () => {
      clearTimeout(timer);
      setSlow(false);
    };
  }, [waiting]);
  return waiting && slow;
}

function ServerWhitelabel({ serverId }: { serverId: string }) {
  const { t } = useTranslation();
  const create = useCreateWhitelabel(serverId);
  const update = useUpdateWhitelabel(serverId);
  const start = useStartWhitelabel(serverId);
  const remove = useDeleteWhitelabel(serverId);
  // A save that starts the bot, or a start, was asked for: the page says so until the service says Starting.
  const [deployAsked, setDeployAsked] = useState(false);
  const [deployPending, setDeployPending] = useState(false);
  const query = useLiveWhitelabel(serverId, { deploying: deployAsked });
  const bot = query.data ?? null;
  const deploying = deployAsked && isAwaitingDeployment(bot, deployPending);
  const state = uiStateOf(bot, deploying);
  const slow = useTakingLong(isOnTheWayUp(state));
  const inviteConfig = useLoginConfig().data?.inviteUrl;
  const busy = create.isPending || update.isPending || start.isPending || remove.isPending;

  useEffect(() => {
    // The service has spoken (Starting, Running or Failed): from here the page follows it.
    if (deployAsked && !deploying) setDeployAsked(false);
  }, [deployAsked, deploying]);

  /** Runs `request` as a deployment: the page shows it in progress until the service takes over. */
  const deploy = async <T,>(request: () => Promise<T>): Promise<T> => {
    setDeployAsked(true);
    setDeployPending(true);
    try {
      return await request();
    } catch (error) {
      setDeployAsked(false);
      throw error;
    } finally {
      setDeployPending(false);
    }
  };

  const startBot = async () => {
    try {
      await deploy(() => start.mutateAsync());
    } catch {
      notifyError(t('whitelabel.start.failed'));
    }
  };

  const refusedToken = (error: unknown): SaveOutcome | null => {
    const problem = tokenProblemOf(error);
    if (problem === 'invalid') return { tokenError: t('whitelabel.form.invalidToken') };
    if (problem === 'taken') return { tokenError: t('whitelabel.form.tokenTaken') };
    return null;
  };

  const save = async ({ token, activity }: BotFormValues): Promise<SaveOutcome> => {
    if (!bot) {
      // Set up, then started: a new bot is saved to run.
      try {
        await deploy(async () => {
          await create.mutateAsync({ token, activity });
          try {
            await start.mutateAsync();
          } catch {
            notifyError(t('whitelabel.start.failed'));
          }
        });
        return 'saved';
      } catch (error) {
        const refused = refusedToken(error);
        if (refused) return refused;
        notifyError(t('whitelabel.form.createFailed'));
        return 'failed';
      }
    }
    const body: UpdateWhitelabelRequest = {};
    if (token !== '') body.token = token;
    if (activity !== bot.activity) body.activity = activity;
    // A new token restarts a bot that runs or is starting (the service does it).
    const restarts = body.token !== undefined && (bot.status === 'Running' || bot.status === 'Starting');
    try {
      await (restarts ? deploy(() => update.mutateAsync(body)) : update.mutateAsync(body));
      notifySuccess(t('whitelabel.form.saved'));
      return 'saved';
    } catch (error) {
      const refused = refusedToken(error);
      if (refused) return refused;
      notifyError(t('whitelabel.form.updateFailed'));
      return 'failed';
    }
  };

  const removeBot = async () => {
    if (!(await confirm({ title: t('whitelabel.remove.confirmTitle'), text: t('whitelabel.remove.confirmText') }))) return;
    try {
      await remove.mutateAsync();
      setDeployAsked(false);
      notifySuccess(t('whitelabel.remove.done'));
    } catch {
      notifyError(t('whitelabel.remove.failed'));
    }
  };

  if (query.isPending) return <LoadingBlock height={160} />;
  if (query.isError) return <LoadError message={t('whitelabel.loadFailed')} onRetry={() => void query.refetch()} />;

  return (
    <Stack gap="lg">
      <Text>{t('whitelabel.explanation')}</Text>
      <BotStatus
        bot={bot}
        state={state}
        slow={slow}
        inviteUrl={bot && inviteConfig ? botInviteUrl(inviteConfig, bot.clientId, serverId) : null}
        busy={busy}
        starting={start.isPending && bot !== null && !create.isPending}
        removing={remove.isPending}
        onStart={() => void startBot()}
        onRemove={() => void removeBot()}
      />
      {(!bot || state === 'Failed') && <SetupGuide />}
      <BotForm key={bot ? 'change' : 'set-up'} bot={bot} busy={busy} saving={create.isPending || update.isPending} onSave={save} />
    </Stack>
  );
}
