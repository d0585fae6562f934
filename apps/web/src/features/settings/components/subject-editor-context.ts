import type { PlanFeature, PlanType, ServerSettings, Subject } from '@ticket/contracts';
import { createContext, useContext } from 'react';
import type { SettingChange } from '../lib/update-queue';

/** What every card of the subject settings reads and writes through. */
export interface SubjectEditor {
  serverId: string;
  /** The subject as shown: the server's values with the unconfirmed changes on top. */
  subject: Subject;
  /** The server's live subjects, in order (for inheritance). */
  subjects: Subject[];
  plan: PlanType;
  /** Whether the plan is known (the server is loaded); gated controls wait for it. */
  planKnown: boolean;
  hasFeature: (feature: PlanFeature) => boolean;
  /** The server's own settings (SPEC §3), with unconfirmed server-level changes on top. */
  server: { settings: ServerSettings | undefined; loading: boolean; error: boolean; reload: () => void };
  change: (change: Omit<SettingChange, 'subjectId'> & { subjectId?: string }) => void;
}

export const SubjectEditorContext = createContext<SubjectEditor | null>(null);

export function useSubjectEditor(): SubjectEditor {
  const editor = useContext(SubjectEditorContext);
  // Cards render only inside the subject settings screen, which provides the editor.
  if (!editor) throw new Error('How did you even get here? This is not supposed to happen.');
  return editor;
}

/** set / add / remove of one path of the subject being edited. */
export function useSettingWriter() {
  const { change } = useSubjectEditor();
  return {
    set: (path: string, value: unknown) => change({ path, operation: 'set', value }),
    add: (path: string, value: unknown, filterKey?: string) => change({ path, operation: 'add', value, filterKey }),
    remove: (path: string, value: unknown, filterKey?: string) =>
      change({ path, operation: 'remove', value, filterKey }),
  };
}
