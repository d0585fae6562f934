/** The welcome tour (SPEC §1): finding one's way, viewing tickets, customising subjects, sending a panel. */
export const TOUR_STEPS = [{ id: 'welcome' }, { id: 'navigate' }, { id: 'tickets' }, { id: 'subjects' }, { id: 'panel' }] as const;

export type TourStepId = (typeof TOUR_STEPS)[number]['id'];

export const LAST_STEP = TOUR_STEPS.length - 1;
