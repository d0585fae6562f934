import { ActionIcon, Alert, Anchor, Badge, Button, Code, Group, Paper, Progress, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { Subject } from '@ticket/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PLANS } from 'virtual:plans';
import { EmptyState } from '@/components/empty-state';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';
import { confirm, notifyError, notifySuccess } from '@/lib/notify';
import { liveSubjects, useSubjects } from '@/lib/queries/get-subjects';
import { paths } from '@/lib/routes';
import type { CurrentServer } from '@/lib/use-current-server';
import { useCreateSubject } from '../../api/create-subject';
import { useDeleteSubject } from '../../api/delete-subject';
import { settingsKeys } from '../../api/keys';
import { refreshServerSettings } from '../../api/server-settings-cache';
import { updateSubject } from '../../api/update-subject';
import { errorMessage } from '../../lib/error-message';
import { SUBJECT_NAME_MAX, subjectNameProblem } from '../../lib/subject-name';

/** The list of the server's subjects with everything that changes one as a whole. */
export function SubjectList({ current }: { current: CurrentServer }) {
  const { t } = useTranslation();
  const { serverId, server, plan } = current;
  const query = useSubjects(serverId);

  if (query.isPending) return <LoadingBlock />;
  if (query.isError) return <LoadError message={t('settings.subjects.loadFailed')} onRetry={() => void query.refetch()} />;

  const subjects = liveSubjects(query.data);
  // The limit depends on the plan, which is known once the server is loaded.
  const max = server ? PLANS[plan].maxSubjects : undefined;
  const atLimit = max !== undefined && subjects.length >= max;

  return (
    <Stack gap="md">
      {max !== undefined && (
        <Stack gap={4}>
          <Text size="sm" c="dimmed">
            {t('settings.subjects.usage', { count: subjects.length, max })}
          </Text>
          <Progress
            value={Math.min(100, (subjects.length / max) * 100)}
            color={atLimit ? 'orange' : 'blue'}
            size="sm"
            aria-label={t('settings.subjects.usage', { count: subjects.length, max })}
          />
        </Stack>
      )}
      <CreateSubjectForm serverId={serverId} subjects={subjects} atLimit={atLimit} limit={max} current={current} />
      {subjects.length === 0 ? (
        <EmptyState title={t('settings.subjects.empty')}>{t('settings.subjects.emptyHint')}</EmptyState>
      ) : (
        <Stack component="ol" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('settings.subjects.listLabel')}>
          {subjects.map((subject, i) => (
            <SubjectRow key={subject.subjectId} serverId={serverId} subject={subject} subjects={subjects} position={i} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

interface CreateSubjectFormProps {
  serverId: string;
  subjects: Subject[];
  atLimit: boolean;
  limit: number | undefined;
  current: CurrentServer;
}

function CreateSubjectForm({ serverId, subjects, atLimit, limit, current }: CreateSubjectFormProps) {
  const { t } = useTranslation();
  const create = useCreateSubject(serverId);
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const problem = subjectNameProblem(
    t,
    name,
    subjects.map((s) => s.name),
  );
  const shownProblem = (touched && name !== '' ? problem : undefined) ?? serverError ?? undefined;
  const planName = t(`staff.plans.${current.plan}`);
  const canUpgrade = current.plan !== 'enterprise';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem || atLimit || create.isPending) return;
    setServerError(null);
    create.mutate(name.trim(), {
      onSuccess: (subject) => {
        setName('');
        setTouched(false);
        notifySuccess(t('settings.subjects.created', { name: subject.name }));
      },
      // 400, 409 and 402 all come with the server's reason, shown where the name is typed.
      onError: (error) => setServerError(errorMessage(error)),
    });
  };

  return (
    <Paper withBorder p="sm" radius="md" component="form" onSubmit={submit} aria-label={t('settings.subjects.createLabel')}>
      <Stack gap="xs">
        <Group align="flex-start" gap="xs" wrap="wrap">
          <TextInput
            label={t('settings.subjects.newName')}
            description={t('settings.subject.nameRules')}
            value={name}
            maxLength={SUBJECT_NAME_MAX + 20}
            error={shownProblem}
            disabled={atLimit}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setTouched(true);
              setServerError(null);
            }}
            style={{ flex: '1 1 240px' }}
          />
          <Button
            type="submit"
            mt={{ base: 0, xs: 42 }}
            loading={create.isPending}
            disabled={atLimit || name.trim() === '' || problem !== undefined}
          >
            {t('settings.subjects.create')}
          </Button>
        </Group>
        {atLimit && limit !== undefined && (
          <Alert color="orange" title={t('settings.subjects.limitTitle')}>
            <Text size="sm">{t('settings.subjects.limitReached', { plan: planName, max: limit })}</Text>
            {canUpgrade && (
              <Anchor component={Link} to={paths.premium(serverId)} size="sm">
                {t('settings.subjects.upgrade')}
              </Anchor>
            )}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

interface SubjectRowProps {
  serverId: string;
  subject: Subject;
  subjects: Subject[];
  position: number;
}

function SubjectRow({ serverId, subject, subjects, position }: SubjectRowProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const remove = useDeleteSubject(serverId);
  const [renaming, setRenaming] = useState(false);
  const [busy, setBusy] = useState(false);
  const key = settingsKeys.subjects(serverId);

  /** Shows a change at once, sends it, and goes back to the server's list either way. */
  const change = async (path: string, value: unknown, optimistic: (list: Subject[]) => Subject[], failed: string) => {
    setBusy(true);
    queryClient.setQueryData<Subject[]>(key, (list) => (list ? optimistic(list) : list));
    try {
      const result = await updateSubject(serverId, subject.subjectId, path, value);
      queryClient.setQueryData<Subject>(settingsKeys.subject(serverId, subject.subjectId), (s) =>
        s ? { ...s, [path]: result.value } : s,
      );
      refreshServerSettings(serverId);
      return true;
    } catch (error) {
      notifyError(errorMessage(error), failed);
      return false;
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: key, exact: true });
    }
  };

  const setActive = (active: boolean) =>
    void change(
      'active',
      active,
      (list) => list.map((s) => (s.subjectId === subject.subjectId ? { ...s, active } : s)),
      t('settings.subjects.updateFailed'),
    );

  const move = (to: number) => {
    const other = subjects[to];
    if (!other) return;
    void change(
      'index',
      other.index,
      (list) =>
        list.map((s) =>
          s.subjectId === subject.subjectId ? { ...s, index: other.index } : s.subjectId === other.subjectId ? { ...s, index: subject.index } : s,
        ),
      t('settings.subjects.reorderFailed'),
    );
  };

  const rename = async (name: string): Promise<string | null> => {
    try {
      await updateSubject(serverId, subject.subjectId, 'name', name);
      queryClient.setQueryData<Subject[]>(key, (list) => list?.map((s) => (s.subjectId === subject.subjectId ? { ...s, name } : s)));
      queryClient.setQueryData<Subject>(settingsKeys.subject(serverId, subject.subjectId), (s) => (s ? { ...s, name } : s));
      refreshServerSettings(serverId);
      setRenaming(false);
      return null;
    } catch (error) {
      return errorMessage(error);
    }
  };

  const destroy = async () => {
    const yes = await confirm({ text: t('settings.subjects.deleteConfirm', { name: subject.name }) });
    if (!yes) return;
    remove.mutate(subject.subjectId, {
      onSuccess: () => notifySuccess(t('settings.subjects.deleted', { name: subject.name })),
      onError: (error) => notifyError(errorMessage(error), t('settings.subjects.deleteFailed')),
    });
  };

  const staffRoles = subject.staffRoles.inherits
    ? t('settings.subjects.staffRolesInherited', { count: subject.staffRoles.value.length })
    : t('settings.subjects.staffRoles', { count: subject.staffRoles.value.length });

  return (
    <Paper component="li" withBorder p="sm" radius="md" data-subject-id={subject.subjectId} aria-label={subject.name}>
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          {renaming ? (
            <RenameForm
              subject={subject}
              others={subjects.filter((s) => s.subjectId !== subject.subjectId).map((s) => s.name)}
              onSave={rename}
              onCancel={() => setRenaming(false)}
            />
          ) : (
            <Group gap="xs" miw={0} wrap="nowrap">
              <Text c="dimmed" size="sm" aria-hidden>
                {position + 1}.
              </Text>
              <Anchor component={Link} to={paths.subject(serverId, subject.subjectId)} fw={600} style={{ overflowWrap: 'anywhere' }}>
                {subject.name}
              </Anchor>
              {subject.disableCreation && (
                <Badge variant="light" tt="none" color="orange" size="sm">
                  {t('settings.subjects.creationDisabled')}
                </Badge>
              )}
            </Group>
          )}
          <Switch
            label={t('settings.subjects.active')}
            checked={subject.active}
            disabled={busy}
            onChange={(event) => setActive(event.currentTarget.checked)}
            aria-label={t('settings.subjects.activeNamed', { name: subject.name })}
          />
        </Group>
        <Text size="sm" c="dimmed">
          {staffRoles} · {t('settings.subjects.ticketName')} <Code>{subject.ticketNameFormat.value}</Code>
        </Text>
        <Group gap={4} justify="flex-end" wrap="wrap">
          <ActionIcon
            variant="subtle"
            aria-label={t('settings.subjects.moveUp', { name: subject.name })}
            disabled={busy || position === 0}
            onClick={() => move(position - 1)}
          >
            ↑
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            aria-label={t('settings.subjects.moveDown', { name: subject.name })}
            disabled={busy || position === subjects.length - 1}
            onClick={() => move(position + 1)}
          >
            ↓
          </ActionIcon>
          {!renaming && (
            <Button size="compact-sm" variant="subtle" onClick={() => setRenaming(true)} aria-label={t('settings.subjects.renameNamed', { name: subject.name })}>
              {t('settings.subjects.rename')}
            </Button>
          )}
          <Button
            size="compact-sm"
            variant="subtle"
            component={Link}
            to={paths.subject(serverId, subject.subjectId)}
            aria-label={t('settings.subjects.configureNamed', { name: subject.name })}
          >
            {t('settings.subjects.configure')}
          </Button>
          <Button
            size="compact-sm"
            variant="subtle"
            color="red"
            loading={remove.isPending}
            onClick={() => void destroy()}
            aria-label={t('settings.subjects.deleteNamed', { name: subject.name })}
          >
            {t('settings.subjects.delete')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function RenameForm({
  subject,
  others,
  onSave,
  onCancel,
}: {
  subject: Subject;
  others: string[];
  onSave: (name: string) => Promise<string | null>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(subject.name);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const problem = subjectNameProblem(t, name, others);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (problem) return;
    if (name.trim() === subject.name) {
      onCancel();
      return;
    }
    setSaving(true);
    setError(await onSave(name.trim()));
    setSaving(false);
  };
  return (
    <Group component="form" onSubmit={(event) => void submit(event)} align="flex-start" gap="xs" wrap="wrap" style={{ flex: '1 1 260px' }}>
      <TextInput
        label={t('settings.subjects.renameLabel', { name: subject.name })}
        value={name}
        data-autofocus
        autoFocus
        error={problem ?? error ?? undefined}
        onChange={(event) => {
          setName(event.currentTarget.value);
          setError(null);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onCancel();
        }}
        style={{ flex: '1 1 200px' }}
      />
      <Group gap={4} mt={{ base: 0, xs: 24 }}>
        <Button type="submit" size="sm" loading={saving} disabled={problem !== undefined}>
          {t('settings.subjects.save')}
        </Button>
        <Button variant="default" size="sm" onClick={onCancel}>
          {t('settings.subjects.cancel')}
        </Button>
      </Group>
    </Group>
  );
}
