import { localizationCalls } from '@ticket/contracts';
import { routesFor } from '../../http/route';
import type { ServiceContext } from '../context';

/** Browsers reuse a file for a minute, then ask again with its tag (304 while unchanged). */
const CACHE_CONTROL = 'public, max-age=60';

export async function localizationRoutes({ app, services, resolver }: ServiceContext): Promise<void> {
  const { localization } = services;
  const call = routesFor(app, 'localization', localizationCalls, resolver);

  // The dashboard loads its texts before anyone signs in; the bot's texts are no secret either.
  call('getLanguages', 'open', () => localization.languages());
  call('getTranslationFile', 'open', async ({ params, query }, request, reply) => {
    const answer = await localization.read(params.fileName, query.language);
    reply.header('etag', answer.etag).header('cache-control', CACHE_CONTROL).header('vary', 'accept-encoding');
    const held = request.headers['if-none-match'];
    if (held && held.split(',').some((tag) => tag.trim().replace(/^W\//, '') === answer.etag)) return reply.status(304).send();
    return reply.status(200).type('application/json; charset=utf-8').send(answer.body);
  });
  // What the product says in every language is the operators' to change.
  call('createLanguage', 'operator', ({ body }) => localization.createLanguage(body));
  call('deleteLanguage', 'operator', ({ params }) => localization.deleteLanguage(params.languageCode));
  call('uploadTranslationFile', 'operator', ({ body }) => localization.upload(body));
  call('uploadLegacyTranslationFile', 'operator', ({ body }) => localization.convertLegacy(body));
}
