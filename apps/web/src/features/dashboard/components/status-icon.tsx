import { Loader, ThemeIcon } from '@mantine/core';
import type { ChecklistStatus } from '../checklist';

const paths: Record<Exclude<ChecklistStatus, 'loading'>, string> = {
  done: 'M5 12.5l4.5 4.5L19 7.5',
  todo: '',
  unknown: 'M12 7v6M12 16.5v.5',
};
const colors = { done: 'teal', todo: 'gray', unknown: 'orange' } as const;

/** The mark beside a checklist step; decorative, since the step's status is also written out. */
export function StatusIcon({ status }: { status: ChecklistStatus }) {
  if (status === 'loading') return <Loader size={22} aria-hidden />;
  return (
    <ThemeIcon radius="xl" size={24} color={colors[status]} variant={status === 'done' ? 'filled' : 'light'} aria-hidden>
      <svg width={14} height={14} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={3} strokeLinecap="round">
        {paths[status] && <path d={paths[status]} />}
      </svg>
    </ThemeIcon>
  );
}
