import type { ConfigurationChanges, ConfigurationDocument, configurationCalls } from '../configuration';
import { billingSubject, EX } from './fixtures';
import type { ExamplesOf } from './types';

const { serverId: _serverId, deleted: _deleted, index: _index, questions: _questions, ...billingSettings } = billingSubject;

const document: ConfigurationDocument = {
  format: 'ticket-dashboard-configuration',
  version: 1,
  exportedAt: EX.updatedAt,
  serverSettings: { language: 'en', publicStats: false },
  subjects: [
    {
      ...billingSettings,
      questions: [
        {
          type: 'Text',
          answerFormat: 'CodeLine',
          question: 'Order number',
          slug: 'order',
          index: 0,
          values: { large: false, minLength: 6, maxLength: 20, placeholder: 'e.g. PF-104233' },
        },
      ],
    },
  ],
  panels: [
    {
      type: 'BUTTON',
      name: 'Help desk',
      draft: false,
      channelId: EX.channelId,
      message: { content: 'Need a hand? Pick a topic below and our team will open a private ticket for you.', embeds: [] },
      subjects: [{ subjectId: EX.billingSubjectId, text: 'Billing', style: 'Primary', emoji: null }],
    },
  ],
};

const changes: ConfigurationChanges = {
  applied: false,
  subjects: { created: [], updated: ['Billing'], deleted: ['Bug reports'], unchanged: [] },
  panels: { created: ['Help desk'], updated: [], deleted: [], unchanged: [] },
  serverSettings: [],
  unsetIds: [{ field: 'subjects.0.logging.channelId', id: EX.logChannelId, setting: 'logChannel', subject: 'Billing', panel: null }],
};

export const configurationExamples: ExamplesOf<typeof configurationCalls> = {
  getConfiguration: { params: { serverId: EX.serverId }, response: document },
  getConfigurationChanges: { params: { serverId: EX.otherServerId }, body: document, response: changes },
  updateConfiguration: { params: { serverId: EX.otherServerId }, body: document, response: { ...changes, applied: true } },
};
