import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { useAuthStore } from '@/lib/auth-store';
import { LAST_STEP } from './tour-steps';

export interface TourState {
  isOpen: boolean;
  step: number;
  /** User ids that have finished or skipped the tour in this browser (persisted). */
  seen: Record<string, true>;
  /** Opens the tour from its first step, whether seen or not. */
  open(): void;
  /** Closes it and remembers that the signed-in user has seen it. */
  close(): void;
  next(): void;
  back(): void;
  goTo(step: number): void;
  /** Opens the tour for a user who has never seen it; the shell calls this after sign-in. */
  openIfUnseen(userId: string): void;
}

const clamp = (step: number) => Math.min(Math.max(step, 0), LAST_STEP);

export const useTourStore = create<TourState>()(
  persist(
    (set, get) => ({
      isOpen: false,
      step: 0,
      seen: {},

      open: () => set({ isOpen: true, step: 0 }),

      close() {
        const userId = useAuthStore.getState().user?.userId;
        set((state) => ({
          isOpen: false,
          step: 0,
          seen: userId ? { ...state.seen, [userId]: true } : state.seen,
        }));
      },

      next: () => set((state) => ({ step: clamp(state.step + 1) })),
      back: () => set((state) => ({ step: clamp(state.step - 1) })),
      goTo: (step) => set({ step: clamp(step) }),

      openIfUnseen(userId) {
        if (!get().seen[userId] && !get().isOpen) set({ isOpen: true, step: 0 });
      },
    }),
    {
      name: 'tour',
      storage: createJSONStorage(() => localStorage),
      // Only who has seen it survives a reload; an open tour does not reopen by itself mid-way.
      partialize: ({ seen }) => ({ seen }),
      version: 1,
    },
  ),
);
