import type { localizationCalls } from '../localization';
import type { ExamplesOf } from './types';

const sourceTexts = {
  'ticket.created': 'Your ticket is ready: {{channel}}',
  'ticket.closedBy': 'This ticket was closed by {{user}}.',
};

export const localizationExamples: ExamplesOf<typeof localizationCalls> = {
  getLanguages: {
    response: [
      { languageCode: 'en', name: 'English' },
      { languageCode: 'de', name: 'Deutsch' },
      { languageCode: 'pt-BR', name: 'Português (Brasil)' },
    ],
  },
  createLanguage: { body: { languageCode: 'pt-BR', name: 'Português (Brasil)' }, response: { languageCode: 'pt-BR', name: 'Português (Brasil)' } },
  deleteLanguage: { params: { languageCode: 'pt-BR' } },
  getTranslationFile: {
    params: { fileName: 'bot' },
    query: { language: 'de' },
    response: {
      fileName: 'bot',
      sourceLanguage: 'en',
      language: 'de',
      translations: {
        'ticket.created': 'Dein Ticket ist bereit: {{channel}}',
        'ticket.closedBy': 'This ticket was closed by {{user}}.',
      },
      untranslated: ['ticket.closedBy'],
    },
  },
  uploadTranslationFile: {
    body: {
      sourceLanguage: 'en',
      fileName: 'bot',
      document: sourceTexts,
      fileDescription: 'Texts the bot writes in ticket channels',
    },
    response: {
      fileName: 'bot',
      sourceLanguage: 'en',
      language: 'en',
      translations: sourceTexts,
      untranslated: [],
      needsTranslation: ['ticket.closedBy'],
      pushedToLocalazy: false,
    },
  },
  uploadLegacyTranslationFile: {
    body: {
      sourceLanguage: 'en',
      fileName: 'bot',
      document: { ticket: { created: 'Your ticket is ready: {{channel}}', closedBy: 'This ticket was closed by {{user}}.' } },
    },
    response: { fileName: 'bot', sourceLanguage: 'en', translations: sourceTexts, unconverted: [], needsReview: [] },
  },
};
