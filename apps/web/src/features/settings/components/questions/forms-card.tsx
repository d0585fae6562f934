import { ActionIcon, Badge, Button, Code, Group, Paper, Stack, Switch, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { Template, TemplateDraft, TemplateUpdate } from '@ticket/contracts';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/empty-state';
import { LoadError } from '@/components/load-error';
import { LoadingBlock } from '@/components/loading-block';
import { confirm, notifyError, notifySuccess } from '@/lib/notify';
import { createTemplate } from '../../api/create-template';
import { deleteTemplate } from '../../api/delete-template';
import { useTemplates } from '../../api/get-templates';
import { settingsKeys } from '../../api/keys';
import { updateTemplate } from '../../api/update-template';
import { updateTemplatesBulk } from '../../api/update-templates-bulk';
import { errorMessage } from '../../lib/error-message';
import { PlanBadge, PlanNote, usePlanGate } from '../controls/plan-note';
import { SettingsCard } from '../controls/settings-card';
import { useSettingWriter, useSubjectEditor } from '../subject-editor-context';

// The editor (with the contracts' rules) loads when a question is first opened.
const QuestionEditor = lazy(async () => ({ default: (await import('./question-editor')).QuestionEditor }));
const loadEmptyQuestion = async (index: number) => (await import('./question-editor')).emptyQuestion(index);

/** A stored question as the editor and the bulk update take it. */
const toUpdate = ({ serverId: _serverId, ...template }: Template): TemplateUpdate => template;
const toDraft = ({ serverId: _serverId, questionId: _questionId, ...template }: Template): TemplateDraft => template;

type Editing = { kind: 'new'; draft: TemplateDraft } | { kind: 'edit'; questionId: string } | null;

export function FormsAndQuestionsCard() {
  const { t } = useTranslation();
  const { subject, serverId } = useSubjectEditor();
  const { set } = useSettingWriter();
  const forms = usePlanGate('forms');
  const queryClient = useQueryClient();
  const query = useTemplates(serverId, subject.subjectId);
  const [editing, setEditing] = useState<Editing>(null);
  const [busy, setBusy] = useState(false);
  const key = settingsKeys.templates(serverId, subject.subjectId);
  const questions = query.data ?? [];

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: key });
    // The subject lists its question ids.
    void queryClient.invalidateQueries({ queryKey: settingsKeys.subject(serverId, subject.subjectId), exact: true });
  };

  const save = async (draft: TemplateDraft) => {
    if (editing?.kind === 'edit') await updateTemplate(serverId, editing.questionId, draft);
    else await createTemplate(serverId, subject.subjectId, { ...draft, index: questions.length });
    setEditing(null);
    notifySuccess(t('settings.questions.saved'));
    refresh();
  };

  const remove = async (question: Template) => {
    if (!(await confirm({ text: t('settings.questions.deleteConfirm', { question: question.question }) }))) return;
    try {
      await deleteTemplate(serverId, question.questionId);
      notifySuccess(t('settings.questions.deleted'));
    } catch (error) {
      notifyError(errorMessage(error), t('settings.questions.deleteFailed'));
    }
    refresh();
  };

  const move = async (from: number, to: number) => {
    const a = questions[from];
    const b = questions[to];
    if (!a || !b) return;
    setBusy(true);
    const swapped = [{ ...a, index: b.index }, { ...b, index: a.index }];
    queryClient.setQueryData<Template[]>(key, (list) => list?.map((q) => swapped.find((s) => s.questionId === q.questionId) ?? q));
    try {
      await updateTemplatesBulk(serverId, swapped.map(toUpdate));
    } catch (error) {
      notifyError(errorMessage(error), t('settings.questions.reorderFailed'));
    } finally {
      setBusy(false);
      refresh();
    }
  };

  const startNew = async () => setEditing({ kind: 'new', draft: await loadEmptyQuestion(questions.length) });
  const gatedRequireForm = !subject.requireForm && !forms.available;

  return (
    <SettingsCard
      title={t('settings.cards.formsAndQuestions.title')}
      description={t('settings.cards.formsAndQuestions.description')}
      aside={!forms.available && <PlanBadge feature="forms" />}
    >
      <Switch
        label={t('settings.questions.requireForm')}
        description={t('settings.questions.requireFormHint')}
        checked={subject.requireForm}
        disabled={gatedRequireForm}
        onChange={(event) => set('requireForm', event.currentTarget.checked)}
      />
      <PlanNote feature="forms" />
      {query.isPending ? (
        <LoadingBlock height={80} />
      ) : query.isError ? (
        <LoadError message={t('settings.questions.loadFailed')} onRetry={() => void query.refetch()} />
      ) : (
        <>
        {questions.length === 0 && editing?.kind !== 'new' && (
          <EmptyState title={t('settings.questions.empty')}>{t('settings.questions.emptyHint')}</EmptyState>
        )}
        <Stack gap="xs" component="ol" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('settings.questions.list')}>
          {questions.map((question, i) =>
            editing?.kind === 'edit' && editing.questionId === question.questionId ? (
              <li key={question.questionId}>
                <Suspense fallback={<LoadingBlock height={200} />}>
                  <QuestionEditor initial={toDraft(question)} isNew={false} onSave={save} onCancel={() => setEditing(null)} />
                </Suspense>
              </li>
            ) : (
              <Paper component="li" key={question.questionId} withBorder p="sm" radius="md">
                <Group justify="space-between" gap="xs" wrap="wrap">
                  <Stack gap={2} miw={0} style={{ flex: '1 1 200px' }}>
                    <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {i + 1}. {question.question}
                    </Text>
                    <Group gap={6}>
                      <Badge variant="light" tt="none" size="sm">
                        {t(`settings.questions.types.${question.type}`)}
                      </Badge>
                      <Code>{question.slug}</Code>
                    </Group>
                  </Stack>
                  <Group gap={4}>
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('settings.questions.moveUp', { question: question.question })}
                      disabled={!forms.available || busy || i === 0}
                      onClick={() => void move(i, i - 1)}
                    >
                      ↑
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('settings.questions.moveDown', { question: question.question })}
                      disabled={!forms.available || busy || i === questions.length - 1}
                      onClick={() => void move(i, i + 1)}
                    >
                      ↓
                    </ActionIcon>
                    <Button
                      size="compact-sm"
                      variant="light"
                      disabled={!forms.available || editing !== null}
                      onClick={() => setEditing({ kind: 'edit', questionId: question.questionId })}
                      aria-label={t('settings.questions.editNamed', { question: question.question })}
                    >
                      {t('settings.questions.edit')}
                    </Button>
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      onClick={() => void remove(question)}
                      aria-label={t('settings.questions.deleteNamed', { question: question.question })}
                    >
                      {t('settings.questions.delete')}
                    </Button>
                  </Group>
                </Group>
              </Paper>
            ),
          )}
          {editing?.kind === 'new' && (
            <li>
              <Suspense fallback={<LoadingBlock height={200} />}>
                <QuestionEditor initial={editing.draft} isNew onSave={save} onCancel={() => setEditing(null)} />
              </Suspense>
            </li>
          )}
        </Stack>
        </>
      )}
      {editing === null && (
        <Button
          variant="light"
          style={{ alignSelf: 'flex-start' }}
          disabled={!forms.available || query.isPending || query.isError}
          onClick={() => void startNew()}
        >
          {t('settings.questions.addQuestion')}
        </Button>
      )}
    </SettingsCard>
  );
}
