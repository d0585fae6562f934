import type { Template, TemplateDraft } from '@ticket/contracts';
import { getApi } from '@/lib/api';

/** `PUT /servers/:serverId/templates`: adds a question to the subject's form. */
export const createTemplate = (serverId: string, subjectId: string, template: TemplateDraft): Promise<Template> =>
  getApi().settings.createTemplate({ params: { serverId }, body: { template, subjectId } });
