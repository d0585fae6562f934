import { Alert, Anchor, Box, Button, Grid, Group, Loader, Stack, Stepper, Text, TextInput, Title } from '@mantine/core';
import type { Panel, PlanType, Problem } from '@ticket/contracts';
import { panelProblems } from '@ticket/contracts/rules';
import {
  lazy,
  type ReactNode,
  Suspense,
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SendIcon } from '@/components/screen-icons';
import { confirm, notifySuccess } from '@/lib/notify';
import { liveSubjects, useSubjects } from '@/lib/queries/get-subjects';
import { useWhitelabel } from '@/lib/queries/get-whitelabel';
import { paths } from '@/lib/routes';
import { useServerCache } from '@/lib/server-cache';
import { useCreatePanel } from '../../api/create-panel';
import { useUpdatePanel } from '../../api/update-panel';
import { channelName } from '../../lib/channels';
import { contentOf, draftOfPanel, embedOf, isSent, newPanelDraft, type PanelDraft, toPanelInput } from '../../lib/draft';
import { saveErrorOf } from '../../lib/error-message';
import { problemsAt, STEPS, type StepId, stepOfPath } from '../../lib/problems';
import { ActionsStep } from './actions-step';
import { ButtonsStep } from './buttons-step';
import { ChannelStep } from './channel-step';
import { MessageStep } from './message-step';
import { OptionsStep } from './options-step';
import { SendStep } from './send-step';
import classes from './wizard.module.css';

// The visualizer (with its markdown parser) is a chunk of its own, fetched beside the form.
const PanelPreview = lazy(async () => ({ default: (await import('../preview/panel-preview')).PanelPreview }));

export interface PanelWizardProps {
  serverId: string;
  plan: PlanType;
  /** The panel to edit; null for a new one. */
  panel: Panel | null;
  /** Saved (as a draft or sent): the panel as the server now has it. */
  onSaved: (panel: Panel) => void;
  /** Back to the list. */
  onClose: () => void;
}

interface ServerError {
  title: string;
  message: string;
  step: StepId;
}

type FocusTarget = 'heading' | 'invalid';

/**
 * The panel wizard of SPEC §2: message, actions, buttons or dropdown, channel, send; with the
 * message shown beside it as the platform will show it. "Save as draft" works at every step and
 * skips the rules; "Send" checks them first and takes the admin to the first step with a problem.
 */
export function PanelWizard({ serverId, plan, panel, onSaved, onClose }: PanelWizardProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<PanelDraft>(() => (panel ? draftOfPanel(panel) : newPanelDraft()));
  const [saved, setSaved] = useState<Panel | null>(panel);
  const [dirty, setDirty] = useState(false);
  const [step, setStep] = useState(0);
  const [attempted, setAttempted] = useState(false);
  const [serverError, setServerError] = useState<ServerError | null>(null);
  const [focus, setFocus] = useState<{ target: FocusTarget; at: number } | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const sectionRef = useRef<HTMLDivElement>(null);
  const wizardHeadingRef = useRef<HTMLHeadingElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const headingId = useId();

  const create = useCreatePanel(serverId);
  const update = useUpdatePanel(serverId);
  const saving = create.isPending || update.isPending;
  const [savingAs, setSavingAs] = useState<'draft' | 'send' | null>(null);

  const subjectsQuery = useSubjects(serverId);
  const subjects = useMemo(
    () => liveSubjects(subjectsQuery.data ?? []).map((s) => ({ value: s.subjectId, label: s.name })),
    [subjectsQuery.data],
  );
  const channels = useServerCache('channels');
  const roles = useServerCache('roles');
  const whitelabel = useWhitelabel(serverId, plan === 'enterprise');

  const problems = useMemo(() => panelProblems(contentOf(draft)), [draft]);
  const shown: readonly Problem[] = attempted ? problems : [];
  const stepsWithProblems = new Set(shown.map((p) => stepOfPath(p.path)));

  const change = (patch: Partial<PanelDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setDirty(true);
  };

  const stepLabel = (id: StepId): string =>
    id === 'components'
      ? draft.type === 'BUTTON'
        ? t('panels.steps.buttons')
        : t('panels.steps.dropdown')
      : t(`panels.steps.${id}`);

  const goTo = (index: number, target: FocusTarget = 'heading') => {
    setStep(Math.max(0, Math.min(STEPS.length - 1, index)));
    setFocus({ target, at: Date.now() });
  };

  // Each step change moves focus to the step's heading (or its first field with a problem), so
  // keyboard and screen-reader users land where the new content starts.
  useEffect(() => {
    if (!focus) return;
    const invalid =
      focus.target === 'invalid' ? sectionRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], [role="alert"]') : null;
    if (invalid) {
      if (invalid.getAttribute('role') === 'alert') invalid.setAttribute('tabindex', '-1');
      invalid.focus();
    } else headingRef.current?.focus();
  }, [focus]);

  useEffect(() => {
    wizardHeadingRef.current?.focus();
  }, []);

  useEffect(() => {
    if (serverError) errorRef.current?.focus();
  }, [serverError]);

  const wasSent = saved !== null && isSent(saved);
  const postedIn = wasSent ? (channelName(channels.data, saved.integrationDetails.channelId) ?? t('panels.channel.unknown')) : undefined;
  const editsInPlace = wasSent && saved.integrationDetails.channelId === draft.channelId;
  const currentChannel = channelName(channels.data, draft.channelId);

  async function save(asDraft: boolean) {
    setServerError(null);
    if (!asDraft) {
      setAttempted(true);
      if (problems.length > 0) {
        // The rules list problems by kind; the admin is taken to the earliest step that has one.
        goTo(Math.min(...problems.map((p) => STEPS.indexOf(stepOfPath(p.path)))), 'invalid');
        return;
      }
    }
    const body = toPanelInput(draft, asDraft);
    setSavingAs(asDraft ? 'draft' : 'send');
    try {
      const result = saved ? await update.mutateAsync({ id: saved.id, body }) : await create.mutateAsync(body);
      setSaved(result);
      setDirty(false);
      onSaved(result);
      if (asDraft) {
        notifySuccess(t('panels.saved.draft'));
      } else {
        const channel = channelName(channels.data, result.integrationDetails.channelId) ?? t('panels.channel.unknown');
        notifySuccess(editsInPlace ? t('panels.saved.edited', { channel }) : t('panels.saved.sent', { channel }));
        onClose();
      }
    } catch (error) {
      const { message, path } = saveErrorOf(error);
      setServerError({
        title: saved ? t('panels.errors.updateFailed') : t('panels.errors.createFailed'),
        message,
        step: stepOfPath(path),
      });
    } finally {
      setSavingAs(null);
    }
  }

  async function close() {
    if (dirty && !(await confirm({ title: t('panels.wizard.discardTitle'), text: t('panels.wizard.discardText') }))) return;
    onClose();
  }

  const current = STEPS[step] ?? 'message';
  const typeLabel = draft.type === 'BUTTON' ? t('panels.actions.buttons') : t('panels.actions.dropdown');
  const actionCount =
    draft.type === 'BUTTON'
      ? t('panels.list.buttonCount', { count: draft.buttons.length })
      : t('panels.list.optionCount', { count: draft.options.length });
  const messageSummary = [
    draft.content.trim() ? t('panels.send.hasText') : t('panels.send.noText'),
    t('panels.send.embedCount', { count: draft.embeds.length }),
  ].join(' · ');

  let body: ReactNode;
  switch (current) {
    case 'message':
      body = (
        <MessageStep
          content={draft.content}
          embeds={draft.embeds}
          onContentChange={(content) => change({ content })}
          onEmbedsChange={(embeds) => change({ embeds })}
          problems={shown}
        />
      );
      break;
    case 'actions':
      body = <ActionsStep type={draft.type} onChange={(type) => change({ type })} />;
      break;
    case 'components':
      body =
        draft.type === 'BUTTON' ? (
          <ButtonsStep
            buttons={draft.buttons}
            onChange={(buttons) => change({ buttons })}
            subjects={subjects}
            subjectsLoading={subjectsQuery.isPending}
            problems={shown}
          />
        ) : (
          <OptionsStep
            options={draft.options}
            onChange={(options) => change({ options })}
            subjects={subjects}
            subjectsLoading={subjectsQuery.isPending}
            problems={shown}
          />
        );
      break;
    case 'channel':
      body = (
        <ChannelStep
          channels={channels.data}
          loading={channels.status !== 'loaded'}
          failed={channels.error}
          onRetry={channels.reload}
          value={draft.channelId}
          onChange={(channelId) => change({ channelId })}
          error={problemsAt(shown, ['channelId'], t)}
        />
      );
      break;
    case 'send':
      body = (
        <SendStep
          typeLabel={typeLabel}
          actionCount={actionCount}
          channel={currentChannel}
          messageSummary={messageSummary}
          problems={shown}
          stepLabel={stepLabel}
          onGoTo={(id) => goTo(STEPS.indexOf(id), 'invalid')}
          postedIn={postedIn}
          editsInPlace={editsInPlace}
        />
      );
      break;
  }

  const preview = useDeferredValue(draft);
  const previewEmbeds = useMemo(() => preview.embeds.map(embedOf), [preview.embeds]);
  const noSubjects = subjectsQuery.isSuccess && subjects.length === 0;

  return (
    <Stack gap="md" component="section" aria-labelledby={`${headingId}-wizard`}>
      <Group justify="space-between" gap="sm">
        <Title order={2} id={`${headingId}-wizard`} ref={wizardHeadingRef} tabIndex={-1}>
          {saved ? t('panels.wizard.editTitle', { name: saved.name.trim() || t('panels.list.untitled') }) : t('panels.wizard.newTitle')}
        </Title>
        <Button variant="default" onClick={() => void close()}>
          {t('panels.wizard.back')}
        </Button>
      </Group>

      {wasSent && (
        <Alert color="blue" title={t('panels.wizard.sentTitle')}>
          {t('panels.wizard.sentNotice', { channel: postedIn })}
        </Alert>
      )}
      {noSubjects && (
        <Alert color="yellow" title={t('panels.subjects.noneTitle')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('panels.subjects.none')}</Text>
            <Anchor component={Link} to={paths.settings(serverId)} size="sm">
              {t('panels.subjects.toSettings')}
            </Anchor>
          </Stack>
        </Alert>
      )}
      {serverError && (
        <Alert color="red" title={serverError.title} role="alert" ref={errorRef} tabIndex={-1}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{serverError.message}</Text>
            {serverError.step !== 'send' && serverError.step !== current && (
              <Button size="xs" variant="light" color="red" onClick={() => goTo(STEPS.indexOf(serverError.step))}>
                {t('panels.send.goTo', { step: stepLabel(serverError.step) })}
              </Button>
            )}
          </Stack>
        </Alert>
      )}

      <TextInput
        label={t('panels.wizard.name')}
        description={t('panels.wizard.nameHint')}
        placeholder={t('panels.list.untitled')}
        value={draft.name}
        maxLength={100}
        onChange={(event) => change({ name: event.currentTarget.value })}
        maw={480}
      />

      <nav aria-label={t('panels.wizard.steps')}>
        <Stepper
          active={step}
          onStepClick={(index) => goTo(index)}
          allowNextStepsSelect
          size="sm"
          classNames={{ stepBody: classes.stepBody, step: classes.step }}
        >
          {STEPS.map((id, index) => {
            const bad = stepsWithProblems.has(id);
            return (
              <Stepper.Step
                key={id}
                label={stepLabel(id)}
                description={bad ? t('panels.wizard.needsAttention') : undefined}
                color={bad ? 'red' : undefined}
                completedIcon={bad ? '!' : undefined}
                icon={bad ? '!' : undefined}
                aria-current={index === step ? 'step' : undefined}
              />
            );
          })}
        </Stepper>
      </nav>

      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Stack gap="md" component="section" ref={sectionRef} aria-labelledby={headingId}>
            <Title order={3} id={headingId} ref={headingRef} tabIndex={-1}>
              {t('panels.wizard.stepHeading', { n: step + 1, total: STEPS.length, step: stepLabel(current) })}
            </Title>
            {body}
            <Group justify="space-between" gap="sm" mt="sm">
              <Group gap="sm">
                {step > 0 && (
                  <Button variant="default" onClick={() => goTo(step - 1)}>
                    {t('panels.wizard.previous')}
                  </Button>
                )}
                {step < STEPS.length - 1 ? (
                  <Button onClick={() => goTo(step + 1)}>
                    {t('panels.wizard.next', { step: stepLabel(STEPS[step + 1] ?? 'send') })}
                  </Button>
                ) : (
                  <Button
                    leftSection={<SendIcon />}
                    onClick={() => void save(false)}
                    loading={savingAs === 'send'}
                    disabled={saving && savingAs !== 'send'}
                  >
                    {wasSent ? t('panels.wizard.sendChanges') : t('panels.wizard.send')}
                  </Button>
                )}
              </Group>
              <Button
                variant="light"
                onClick={() => void save(true)}
                loading={savingAs === 'draft'}
                disabled={saving && savingAs !== 'draft'}
              >
                {t('panels.wizard.saveDraft')}
              </Button>
            </Group>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Box className={classes.previewColumn}>
            <Title order={3} size="h4" mb="xs">
              {t('panels.preview.heading')}
            </Title>
            <Suspense fallback={<Loader size="sm" aria-label={t('app.loading')} />}>
              <PanelPreview
                content={preview.content}
                embeds={previewEmbeds}
                type={preview.type}
                buttons={preview.buttons}
                options={preview.options}
                bot={{
                  name: whitelabel.data?.name ?? t('panels.preview.botName'),
                  avatarUrl: whitelabel.data?.avatarUrl ?? null,
                }}
                mentions={{ channels: channels.data ?? [], roles: roles.data ?? [] }}
              />
            </Suspense>
          </Box>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
