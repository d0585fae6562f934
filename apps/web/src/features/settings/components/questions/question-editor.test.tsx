import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Template, TemplateDraft } from '@ticket/contracts';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { json } from '@/test/fetch';
import { testUser } from '@/test/fixtures';
import { serverCache } from '@/lib/server-cache';
import { renderPage, signIn } from '@/test/render-page';
import { backend, errorBody, makeSubject, SERVER } from '../../test/backend';
import { SubjectSettingsPage } from '../subject-settings-page';
import { emptyQuestion, QuestionEditor, slugify } from './question-editor';

beforeAll(() => {
  // jsdom lays nothing out; Mantine's dropdowns scroll the active option into view.
  Element.prototype.scrollIntoView ??= () => undefined;
});

const textQuestion = (overrides: Partial<Extract<TemplateDraft, { type: 'Text' }>> = {}): TemplateDraft => ({
  answerFormat: 'None',
  question: 'What is your order number?',
  slug: 'order',
  index: 0,
  type: 'Text',
  values: { large: false, minLength: null, maxLength: null, placeholder: null },
  ...overrides,
});

function openEditor(initial: TemplateDraft, isNew = false) {
  // The emoji picker of button questions reads the server's emojis.
  backend('premium');
  serverCache.getState().updateServerId(SERVER);
  const onSave = vi.fn(async () => undefined);
  renderPage(<QuestionEditor initial={initial} isNew={isNew} onSave={onSave} onCancel={() => undefined} />);
  return { onSave, save: () => screen.getByRole('button', { name: isNew ? 'Add question' : 'Save question' }) as HTMLButtonElement };
}

describe('QuestionEditor', { timeout: 20_000 }, () => {
  it("an empty slug says 'Slug is required' beside the slug, and the question cannot be saved", async () => {
    const { save, onSave } = openEditor(textQuestion());
    const slug = screen.getByRole('textbox', { name: /Slug/ });
    await userEvent.clear(slug);
    expect(screen.getByText('Slug is required')).toBeTruthy();
    expect(slug.getAttribute('aria-invalid')).toBe('true');
    expect(save().disabled).toBe(true);
    await userEvent.click(save());
    expect(onSave).not.toHaveBeenCalled();
    await userEvent.type(slug, 'order_no');
    expect(screen.queryByText('Slug is required')).toBeNull();
    expect(save().disabled).toBe(false);
  });

  it('with length validation on, min ≥ max gives the SPEC message', async () => {
    const { save } = openEditor(textQuestion());
    await userEvent.click(screen.getByRole('switch', { name: 'Length validation' }));
    // On with neither bound: both are required.
    expect(screen.getByText('Minimum length is required')).toBeTruthy();
    expect(screen.getByText('Maximum length is required')).toBeTruthy();
    await userEvent.type(screen.getByRole('textbox', { name: 'Minimum length' }), '50');
    await userEvent.type(screen.getByRole('textbox', { name: 'Maximum length' }), '10');
    expect(screen.getByText('Minimum length must be less than maximum length')).toBeTruthy();
    expect(save().disabled).toBe(true);
    await userEvent.clear(screen.getByRole('textbox', { name: 'Maximum length' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Maximum length' }), '500');
    expect(screen.queryByText('Minimum length must be less than maximum length')).toBeNull();
    expect(save().disabled).toBe(false);
  });

  it('button questions need a button with text, and a Link button a URL', async () => {
    const { save } = openEditor(textQuestion());
    await userEvent.click(screen.getByRole('radio', { name: 'Buttons' }));
    expect(screen.getByText('Button 1 needs button text')).toBeTruthy();
    await userEvent.type(screen.getByRole('textbox', { name: 'Text' }), 'Yes');
    expect(screen.queryByText('Button 1 needs button text')).toBeNull();
    await userEvent.click(screen.getByRole('textbox', { name: 'Style' }));
    // jsdom lays nothing out, so floating-ui hides every dropdown: its options count as hidden.
    await userEvent.click(await screen.findByRole('option', { name: 'Link', hidden: true }));
    expect(screen.getByText('Button 1 needs a URL')).toBeTruthy();
    await userEvent.type(screen.getByRole('textbox', { name: 'Link' }), 'https://example.com/faq');
    expect(screen.queryByText('Button 1 needs a URL')).toBeNull();
    expect(save().disabled).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Remove button 1' }));
    expect(screen.getByText('Add at least one button')).toBeTruthy();
    expect(save().disabled).toBe(true);
  });

  it('selection questions need options with labels', async () => {
    openEditor(textQuestion());
    await userEvent.click(screen.getByRole('radio', { name: 'Selection' }));
    expect(screen.getByText('Option 1 needs a label')).toBeTruthy();
    await userEvent.type(screen.getByRole('textbox', { name: 'Label of option 1' }), 'Refund');
    expect(screen.queryByText('Option 1 needs a label')).toBeNull();
  });

  it('a new question makes its slug from the question until the slug is written', async () => {
    const { onSave, save } = openEditor(emptyQuestion(2), true);
    expect(screen.getByText('Question text is required')).toBeTruthy();
    expect(screen.getByText('Slug is required')).toBeTruthy();
    await userEvent.type(screen.getByRole('textbox', { name: 'Question' }), 'Your Order ID?');
    expect((screen.getByRole('textbox', { name: /Slug/ }) as HTMLInputElement).value).toBe('your-order-id');
    await userEvent.click(save());
    expect(onSave).toHaveBeenCalledWith(expect.objectContaining({ question: 'Your Order ID?', slug: 'your-order-id', index: 2, type: 'Text' }));
    expect(slugify('Ça va? Très_bien!')).toBe('ca-va-tres_bien');
  });
});

describe('Forms and questions card', { timeout: 20_000 }, () => {
  const TEMPLATES = `/api/settings/servers/${SERVER}/templates`;
  const stored = (questionId: string, slug: string, index: number): Template => ({
    ...(textQuestion({ slug, index, question: `Question ${slug}` }) as Extract<TemplateDraft, { type: 'Text' }>),
    questionId,
    serverId: SERVER,
  });

  function openCard(plan: 'free' | 'premium', routes: Parameters<typeof backend>[1] = {}) {
    const subject = makeSubject('s1', 'Billing');
    const result = backend(plan, {
      [`GET /api/settings/servers/${SERVER}/subjects`]: () => json([subject]),
      [`GET /api/settings/servers/${SERVER}/subjects/s1`]: () => json(subject),
      [`GET ${TEMPLATES}`]: () => json([stored('q2', 'second', 1), stored('q1', 'first', 0)]),
      ...routes,
    });
    signIn(testUser());
    renderPage(<SubjectSettingsPage />, {
      pattern: '/staff/:serverId/settings/:subjectId',
      path: `/staff/${SERVER}/settings/s1?section=formQuestions`,
    });
    return result;
  }

  it("lists the subject's questions in order, and adds one with PUT templates", async () => {
    const { calls } = openCard('premium', {
      [`PUT ${TEMPLATES}`]: (request) => json({ ...(request.body as { template: object }).template, questionId: 'q3', serverId: SERVER }, { status: 201 }),
    });
    const list = await screen.findByRole('list', { name: 'Form questions' });
    expect(within(list).getAllByRole('listitem').map((item) => within(item).getAllByText(/Question/)[0]?.textContent)).toEqual([
      '1. Question first',
      '2. Question second',
    ]);
    expect(calls.find((c) => c.url.startsWith(TEMPLATES))?.url).toBe(`${TEMPLATES}?subjectId=s1`);
    await userEvent.click(screen.getByRole('button', { name: 'Add question' }));
    await userEvent.type(await screen.findByRole('textbox', { name: 'Question' }), 'Which plan?');
    await userEvent.click(screen.getByRole('button', { name: 'Add question' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      subjectId: 's1',
      template: {
        answerFormat: 'None',
        question: 'Which plan?',
        slug: 'which-plan',
        index: 2,
        type: 'Text',
        values: { large: false, minLength: null, maxLength: null, placeholder: null },
      },
    });
  });

  it("shows the server's refusal of a duplicate slug (409) beside the slug", async () => {
    const message = 'A question with the slug "first" already exists in this subject';
    openCard('premium', { [`PUT ${TEMPLATES}`]: () => errorBody(409, message, 'body.template.slug') });
    await userEvent.click(await screen.findByRole('button', { name: 'Add question' }));
    await userEvent.type(await screen.findByRole('textbox', { name: 'Question' }), 'First');
    await userEvent.click(screen.getByRole('button', { name: 'Add question' }));
    expect(await screen.findByText(message)).toBeTruthy();
  });

  it('reorders with one bulk update of the two questions that swap places', async () => {
    const { calls } = openCard('premium', { [`PATCH ${TEMPLATES}/bulk`]: (request) => json(request.body) });
    await userEvent.click(await screen.findByRole('button', { name: 'Move "Question first" down' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    const body = calls.find((c) => c.method === 'PATCH')?.body as { questionId: string; index: number }[];
    expect(body.map(({ questionId, index }) => ({ questionId, index }))).toEqual([
      { questionId: 'q1', index: 1 },
      { questionId: 'q2', index: 0 },
    ]);
  });

  it('deletes a question only after Yes', async () => {
    const { calls } = openCard('premium', { [`DELETE ${TEMPLATES}/q1`]: () => new Response(null, { status: 204 }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete "Question first"' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([`${TEMPLATES}/q1`]));
  });

  it('on the Free plan questions need Premium: adding is off, with the reason', async () => {
    openCard('free');
    await screen.findByRole('list', { name: 'Form questions' });
    const card = screen.getByRole('region', { name: 'Forms and questions' });
    await waitFor(() => expect(within(card).getByText('Needs the Premium plan.')).toBeTruthy());
    expect((within(card).getByRole('button', { name: 'Add question' }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(card).getByRole('switch', { name: /^Require the form/ }) as HTMLInputElement).disabled).toBe(true);
  });
});
