import { questionProblems, TICKET_NAME_PLACEHOLDERS } from '@ticket/contracts';
import { describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n';
import { problemText } from './problem-text';
import { applyOperation, groupOf } from './setting-paths';
import { subjectNameProblem } from './subject-name';
import { previewTicketName } from './ticket-name';

const t = i18n.t.bind(i18n);

describe('setting paths (the optimistic copy of the server rules)', () => {
  const doc = {
    staffRoles: { value: ['1'], inherits: false },
    categories: { waitingForStaff: [{ id: '5', selfCreated: false }] },
    permissions: { userPermissions: { value: { allow: ['ViewChannel'], deny: ['AttachFiles'] }, inherits: false } },
  };

  it('set, add and remove, idempotent, without touching the original', () => {
    expect(applyOperation(doc, 'staffRoles.value', 'add', '2').staffRoles.value).toEqual(['1', '2']);
    expect(applyOperation(doc, 'staffRoles.value', 'add', '1').staffRoles.value).toEqual(['1']);
    expect(applyOperation(doc, 'staffRoles.value', 'remove', '1').staffRoles.value).toEqual([]);
    expect(applyOperation(doc, 'staffRoles.inherits', 'set', true).staffRoles).toEqual({ value: ['1'], inherits: true });
    expect(doc.staffRoles.value).toEqual(['1']);
  });

  it('add with a filterKey replaces the element with the same key; remove needs only the key', () => {
    const path = 'categories.waitingForStaff';
    expect(applyOperation(doc, path, 'add', { id: '5', selfCreated: true }, 'id').categories.waitingForStaff).toEqual([
      { id: '5', selfCreated: true },
    ]);
    expect(applyOperation(doc, path, 'remove', { id: '5' }, 'id').categories.waitingForStaff).toEqual([]);
  });

  it('a permission put in one list leaves the other', () => {
    const next = applyOperation(doc, 'permissions.userPermissions.value.allow', 'add', 'AttachFiles');
    expect(next.permissions.userPermissions.value).toEqual({ allow: ['ViewChannel', 'AttachFiles'], deny: [] });
  });

  it('knows the inheritable groups', () => {
    expect(groupOf('messages.closeMessage.value.message')).toBe('messages.closeMessage');
    expect(groupOf('automation.autoCloseTime.inherits')).toBe('automation.autoCloseTime');
    expect(groupOf('automation.closeDelay')).toBeUndefined();
  });
});

describe('ticket name preview', () => {
  const sample = { number: 42, username: 'Ada L', userId: '1001', subject: 'Billing Help!' };
  it('fills every placeholder of the contracts and names the channel as the platform would', () => {
    expect(previewTicketName(TICKET_NAME_PLACEHOLDERS.join('-'), sample)).toBe('42-ada-l-1001-billing-help');
    expect(previewTicketName('  Ticket  #{number} ', sample)).toBe('ticket-42');
    expect(previewTicketName('x'.repeat(150), sample)).toHaveLength(100);
  });
});

describe('subject name rules (SPEC §5)', () => {
  it('at least 3 and under 120 characters, unique ignoring case', () => {
    expect(subjectNameProblem(t, ' ab ', [])).toBe('Subject name must be at least 3 characters');
    expect(subjectNameProblem(t, 'x'.repeat(120), [])).toBe('Subject name must be under 120 characters');
    expect(subjectNameProblem(t, 'x'.repeat(119), [])).toBeUndefined();
    expect(subjectNameProblem(t, 'BILLING', ['Billing'])).toBe('A subject named "BILLING" already exists in this server');
    expect(subjectNameProblem(t, 'Refunds', ['Billing'])).toBeUndefined();
  });
});

describe('problem texts', () => {
  it("are the contracts' messages in English, with their numbers", () => {
    const problems = questionProblems({
      answerFormat: 'None',
      question: '',
      slug: 'a b',
      index: 0,
      type: 'Button',
      values: [{ buttonId: 'b', text: '', style: 'Link', url: null, emote: null }],
    });
    expect(problems.map((p) => problemText(t, p.message))).toEqual(problems.map((p) => p.message));
    expect(problemText(t, 'Something new')).toBe('Something new');
  });
});
