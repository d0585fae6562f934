import type { ComponentType } from 'react';
import { IdentitySection } from './identity-section';
import { LanguageSection } from './language-section';
import { ReceiptsSection } from './receipts-section';
import { ServersSection } from './servers-section';
import { SessionsSection } from './sessions-section';

export interface ProfileSectionEntry {
  id: string;
  Component: ComponentType;
}

/**
 * The profile page is these sections, in this order.
 */
export const profileSections: ProfileSectionEntry[] = [
  { id: 'identity', Component: IdentitySection },
  { id: 'servers', Component: ServersSection },
  { id: 'language', Component: LanguageSection },
  { id: 'sessions', Component: SessionsSection },
  { id: 'receipts', Component: ReceiptsSection },
];
