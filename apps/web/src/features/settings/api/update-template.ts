import type { Template, TemplateDraft } from '@ticket/contracts';
import { getApi } from '@/lib/api';

export const updateTemplate = (serverId: string, templateId: string, template: TemplateDraft): Promise<Template> =>
  getApi().settings.updateTemplate({ params: { serverId, templateId }, body: template });
