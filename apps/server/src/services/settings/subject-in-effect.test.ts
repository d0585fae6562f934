import type { Subject } from '@ticket/contracts';
import { describe, expect, it } from 'vitest';
import { subjectInEffect } from './service';
import { defaultSubjectSettings } from './subject-defaults';

const subject = (): Subject => {
  const settings = defaultSubjectSettings('Billing');
  return {
    ...settings,
    subjectId: 's1',
    serverId: '1300000000000000001',
    name: 'Billing',
    deleted: false,
    active: true,
    index: 0,
    questions: [],
    requireForm: true,
    automation: { ...settings.automation, autoCloseTime: { ...settings.automation.autoCloseTime, enabled: true } },
    notifications: { ...settings.notifications, mentionOwnerOnReply: true, mentionClaimeeOnReply: true },
  };
};

describe('plan-gated subject settings when acting', () => {
  it('act on a plan with their features', () => {
    const inEffect = subjectInEffect(subject(), 'premium');
    expect(inEffect.requireForm).toBe(true);
    expect(inEffect.automation.autoCloseTime.enabled).toBe(true);
    expect(inEffect.notifications).toMatchObject({ mentionOwnerOnReply: true, mentionClaimeeOnReply: true });
  });

  it('stop acting when the plan ends, while the stored values stay as they were', () => {
    const stored = subject();
    const inEffect = subjectInEffect(stored, 'free');
    expect(inEffect.requireForm).toBe(false);
    expect(inEffect.automation.autoCloseTime.enabled).toBe(false);
    expect(inEffect.notifications).toMatchObject({ mentionOwnerOnReply: false, mentionClaimeeOnReply: false });
    expect(inEffect.automation.autoCloseTime.value).toEqual(stored.automation.autoCloseTime.value);
    expect(stored.requireForm).toBe(true);
    expect(stored.automation.autoCloseTime.enabled).toBe(true);
  });
});
