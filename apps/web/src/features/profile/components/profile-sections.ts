import type { ComponentType } from 'react';
import { IdentitySection } from './identity-section';
import { LanguageSection } from './language-section';
import { ServersSection } from './servers-section';
import { SessionsSection } from './sessions-section';

export interface ProfileSectionEntry {
  id: string;
  Component: ComponentType;
}

/**
 * The profile page is these sections, in this order. Other features add theirs here: the
 * payment work puts `{ id: 'receipts', Component: ReceiptsSection }` after the sessions.
 */
export const profileSections: ProfileSectionEntry[] = [
  { id: 'identity', Component: IdentitySection },
  { id: 'servers', Component: ServersSection },
  { id: 'language', Component: LanguageSection },
  { id: 'sessions', Component: SessionsSection },
];
