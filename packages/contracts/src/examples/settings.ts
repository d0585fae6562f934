import type { Panel, ServerSettings, settingsCalls, SubjectShort, Template } from '../settings';
import { billingSubject, EX } from './fixtures';
import type { ExamplesOf } from './types';

const serverParams = { serverId: EX.serverId };

const planQuestion: Template = {
  questionId: EX.templateId,
  serverId: EX.serverId,
  type: 'Selection',
  answerFormat: 'None',
  question: 'Which plan are you on?',
  slug: 'plan',
  index: 0,
  values: [
    { optionId: 'plan-free', label: 'Free', description: null },
    { optionId: 'plan-premium', label: 'Premium', description: 'Billed monthly or yearly' },
  ],
};

const orderQuestion: Template = {
  questionId: 'a7d3e9f1-2b4c-4d6e-8f0a-1b2c3d4e5f60',
  serverId: EX.serverId,
  type: 'Text',
  answerFormat: 'CodeLine',
  question: 'Order number',
  slug: 'order',
  index: 1,
  values: { large: false, minLength: 6, maxLength: 20, placeholder: 'e.g. PF-104233' },
};

const panelMessage = {
  content: 'Need a hand? Pick a topic below and our team will open a private ticket for you.',
  embeds: [],
};

const panel: Panel = {
  id: EX.panelId,
  serverId: EX.serverId,
  type: 'BUTTON',
  name: '',
  draft: false,
  message: panelMessage,
  subjects: [
    { subjectId: EX.billingSubjectId, text: 'Billing', style: 'Primary', emoji: null },
    { subjectId: EX.bugSubjectId, text: 'Report a bug', style: 'Primary', emoji: null },
  ],
  integrationDetails: { channelId: EX.channelId, serverId: EX.serverId, messageId: EX.panelMessageId },
  lastSent: EX.createdAt,
};

const shortSubjects: SubjectShort[] = [
  { subjectId: EX.billingSubjectId, serverId: EX.serverId, name: 'Billing', deleted: false },
  { subjectId: EX.bugSubjectId, serverId: EX.serverId, name: 'Bug reports', deleted: false },
];

const serverSettings: ServerSettings = {
  serverId: EX.serverId,
  language: 'en',
  publicStats: false,
  subjects: shortSubjects,
  subscription: 'premium',
};

export const settingsExamples: ExamplesOf<typeof settingsCalls> = {
  createTemplate: {
    params: serverParams,
    body: {
      subjectId: EX.billingSubjectId,
      template: { type: 'Text', question: 'Order number', slug: 'order', index: 1, answerFormat: 'CodeLine', values: { minLength: 6, maxLength: 20, placeholder: 'e.g. PF-104233' } },
    },
    response: orderQuestion,
  },
  getTemplates: { params: serverParams, query: { subjectId: EX.billingSubjectId }, response: [planQuestion, orderQuestion] },
  updateTemplatesBulk: {
    params: serverParams,
    body: [
      { ...planQuestion, index: 1 },
      { ...orderQuestion, index: 0 },
    ].map(({ serverId: _serverId, ...q }) => q),
    response: [
      { ...orderQuestion, index: 0 },
      { ...planQuestion, index: 1 },
    ],
  },
  getTemplate: { params: { serverId: EX.serverId, templateId: EX.templateId }, response: planQuestion },
  updateTemplate: {
    params: { serverId: EX.serverId, templateId: EX.templateId },
    body: {
      type: 'Selection',
      question: 'Which plan are you on?',
      slug: 'plan',
      index: 0,
      values: [
        { optionId: 'plan-free', label: 'Free' },
        { optionId: 'plan-premium', label: 'Premium', description: 'Billed monthly or yearly' },
      ],
    },
    response: planQuestion,
  },
  deleteTemplate: { params: { serverId: EX.serverId, templateId: EX.templateId } },
  createPanel: {
    params: serverParams,
    // Only what has no default: name, draft, button style and emoji are left out on purpose.
    body: {
      type: 'BUTTON',
      subjects: [
        { subjectId: EX.billingSubjectId, text: 'Billing' },
        { subjectId: EX.bugSubjectId, text: 'Report a bug' },
      ],
      channelId: EX.channelId,
      message: panelMessage,
    },
    response: panel,
  },
  getPanels: { params: serverParams, response: [panel] },
  getPanel: { params: { serverId: EX.serverId, id: EX.panelId }, response: panel },
  updatePanel: {
    params: { serverId: EX.serverId, id: EX.panelId },
    body: {
      type: 'LIST',
      name: 'Help desk',
      subjects: [
        { subjectId: EX.billingSubjectId, label: 'Billing', description: 'Payments, refunds and invoices', emoji: { name: '💳' } },
        { subjectId: EX.bugSubjectId, label: 'Report a bug' },
      ],
      channelId: EX.channelId,
      message: panelMessage,
    },
    response: {
      ...panel,
      type: 'LIST',
      name: 'Help desk',
      subjects: [
        { subjectId: EX.billingSubjectId, label: 'Billing', description: 'Payments, refunds and invoices', emoji: { id: null, name: '💳' } },
        { subjectId: EX.bugSubjectId, label: 'Report a bug', description: null, emoji: null },
      ],
      lastSent: EX.updatedAt,
    },
  },
  deletePanel: { params: { serverId: EX.serverId, id: EX.panelId } },
  resendPanel: {
    params: { serverId: EX.serverId, id: EX.panelId },
    response: {
      ...panel,
      integrationDetails: { ...panel.integrationDetails, messageId: '1176411122233344455' },
      lastSent: EX.updatedAt,
    },
  },
  createServerSettings: { params: serverParams, body: { language: 'en' }, response: { ...serverSettings, subjects: [], subscription: 'free' } },
  getServerSettings: { params: serverParams, response: serverSettings },
  updateServerSettings: {
    params: serverParams,
    body: { serverId: EX.serverId, path: 'language', operation: 'set', value: 'de' },
    response: { path: 'language', value: 'de', inherits: false },
  },
  createSubject: {
    params: serverParams,
    body: { name: 'Billing' },
    response: billingSubject,
  },
  getSubjects: { params: serverParams, response: [billingSubject] },
  getMySubjects: { params: serverParams, response: shortSubjects },
  updateSubjectsBulk: {
    params: serverParams,
    body: {
      updates: [
        { serverId: EX.serverId, subjectId: EX.billingSubjectId, path: 'logging.channelId', operation: 'set', value: EX.logChannelId },
        { serverId: EX.serverId, subjectId: EX.billingSubjectId, path: 'staffRoles.value', operation: 'add', value: EX.staffRoleId },
      ],
    },
    response: [
      { path: 'logging.channelId', value: EX.logChannelId, inherits: false },
      { path: 'staffRoles.value', value: [EX.staffRoleId], inherits: false },
    ],
  },
  getSubject: { params: { serverId: EX.serverId, subjectId: EX.billingSubjectId }, response: billingSubject },
  updateSubject: {
    params: { serverId: EX.serverId, subjectId: EX.billingSubjectId },
    body: { serverId: EX.serverId, subjectId: EX.billingSubjectId, path: 'automation.requireCloseReason', operation: 'set', value: true },
    response: { path: 'automation.requireCloseReason', value: true, inherits: false },
  },
  deleteSubject: { params: { serverId: EX.serverId, subjectId: EX.bugSubjectId } },
  getAuditLog: {
    params: serverParams,
    query: { Page: 1, Amount: 100, subjectId: EX.billingSubjectId },
    response: {
      page: 1,
      maxPage: 1,
      elements: [
        {
          id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
          serverId: EX.serverId,
          subjectId: EX.billingSubjectId,
          subjectName: 'Billing',
          actor: { kind: 'user', id: EX.ownerId, name: 'Mira' },
          action: 'subject.update',
          path: 'automation.requireCloseReason',
          oldValue: false,
          newValue: true,
          createdAt: EX.updatedAt,
        },
      ],
    },
  },
  getSettingsBulk: { body: { ids: [EX.serverId] }, response: [serverSettings] },
  getSubjectsBulk: { body: { ids: [EX.billingSubjectId] }, response: [billingSubject] },
  getAllSettings: { query: { Page: 1, Amount: 100 }, response: { page: 1, maxPage: 1, elements: [serverSettings] } },
};
