import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import type { ServerSettings, Subject, UpdateResult } from '@ticket/contracts';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { i18n } from '@/lib/i18n';
import { notifyError } from '@/lib/notify';
import { settingsKeys } from '../api/keys';
import { patchServerSettings, refreshServerSettings } from '../api/server-settings-cache';
import { updateSubjectsBulk } from '../api/update-subjects-bulk';
import { applyOperation, getAt, groupOf, INHERITABLE_GROUPS, normalizePermissions, setAt } from '../lib/setting-paths';
import { createUpdateQueue, type PendingChange, type SettingChange, type UpdateQueue } from '../lib/update-queue';

/** Changes whose answer does not tell everything that changed: the subject is loaded again after them. */
const changesInheritance = (path: string) => path === 'inheritsFrom' || path.endsWith('.inherits');

/** Writes what the server confirmed into the cached subject, the subject list and the server's settings. */
function applyResults(queryClient: QueryClient, serverId: string, results: { change: SettingChange; result: UpdateResult }[]) {
  const reload = new Set<string>();
  let listChanged = false;
  for (const { change, result } of results) {
    if (change.subjectId === '') {
      patchServerSettings(serverId, (settings) => setAt<ServerSettings>(settings, result.path, result.value));
      continue;
    }
    const write = (subject: Subject): Subject => normalizePermissions(setAt(subject, result.path, result.value), result.path);
    queryClient.setQueryData<Subject>(settingsKeys.subject(serverId, change.subjectId), (subject) =>
      subject ? write(subject) : subject,
    );
    queryClient.setQueryData<Subject[]>(settingsKeys.subjects(serverId), (list) =>
      list?.map((subject) => (subject.subjectId === change.subjectId ? write(subject) : subject)),
    );
    if (changesInheritance(result.path)) reload.add(change.subjectId);
    if (result.path === 'name') {
      patchServerSettings(serverId, (settings) => ({
        ...settings,
        subjects: settings.subjects.map((s) => (s.subjectId === change.subjectId ? { ...s, name: String(result.value) } : s)),
      }));
    }
    if (result.path === 'index' || result.path === 'active') listChanged = true;
    // Subjects that inherit from this one show its values: they are loaded again when next shown.
    const list = queryClient.getQueryData<Subject[]>(settingsKeys.subjects(serverId));
    if (groupOf(result.path) && list?.some((subject) => subject.inheritsFrom === change.subjectId)) {
      void queryClient.invalidateQueries({
        queryKey: settingsKeys.subjects(serverId),
        predicate: (query) => query.queryKey.length === 4 && query.queryKey[3] !== change.subjectId,
      });
      listChanged = true;
    }
  }
  for (const subjectId of reload) {
    void queryClient.invalidateQueries({ queryKey: settingsKeys.subject(serverId, subjectId), exact: true });
    listChanged = true;
  }
  if (listChanged) {
    void queryClient.invalidateQueries({ queryKey: settingsKeys.subjects(serverId), exact: true });
    refreshServerSettings(serverId);
  }
}

/** The queue of one settings screen: created with it, flushed when it goes. */
export function useSettingsQueue(serverId: string): UpdateQueue {
  const queryClient = useQueryClient();
  const [queue] = useState(() =>
    createUpdateQueue({
      serverId,
      send: (updates) => updateSubjectsBulk(serverId, updates),
      onResults: (results) => applyResults(queryClient, serverId, results),
      onError: (message, changes) => {
        const language = changes.some((change) => change.path === 'language');
        notifyError(message, i18n.t(language ? 'settings.save.languageFailed' : 'settings.save.failed'));
      },
    }),
  );
  // Leaving the screen by a way the blocker let through sends what is still queued.
  useEffect(() => () => void queue.flush(), [queue]);
  return queue;
}

export function usePendingChanges(queue: UpdateQueue): readonly PendingChange[] {
  return useSyncExternalStore(queue.subscribe, queue.pending, queue.pending);
}

/**
 * The subject as the screen shows it: the server's answer with the changes not confirmed yet
 * applied on top (optimistic). When a change fails it leaves the queue, and with it the screen
 * goes back to the server's value. A group set to inherit shows its parent's value at once.
 */
export function useSubjectView(subject: Subject, pending: readonly PendingChange[], subjects: readonly Subject[]): Subject {
  return useMemo(() => {
    let view = subject;
    for (const change of pending) {
      if (change.subjectId !== subject.subjectId) continue;
      view = applyOperation(view, change.path, change.operation, change.value, change.filterKey);
    }
    const parent = subjects.find((s) => s.subjectId === view.inheritsFrom && !s.deleted);
    if (parent && parent.subjectId !== subject.subjectId) {
      // The list holds the parent as resolved, so its value is the one the server will answer.
      for (const group of INHERITABLE_GROUPS) {
        if (getAt(view, `${group}.inherits`) === true) view = setAt(view, `${group}.value`, getAt(parent, `${group}.value`));
      }
    }
    return view;
  }, [subject, pending, subjects]);
}

/** A function that queues one change, for controls: a failure is told by the queue's toast. */
export function useEnqueue(queue: UpdateQueue) {
  return useMemo(
    () => (change: SettingChange) => {
      queue.enqueue(change).catch(() => undefined);
    },
    [queue],
  );
}
