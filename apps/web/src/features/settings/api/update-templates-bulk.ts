import type { Template, TemplateUpdate } from '@ticket/contracts';
import { getApi } from '@/lib/api';

/** `PATCH /servers/:serverId/templates/bulk`: several questions at once, e.g. their new order. */
export const updateTemplatesBulk = (serverId: string, templates: TemplateUpdate[]): Promise<Template[]> =>
  getApi().settings.updateTemplatesBulk({ params: { serverId }, body: templates });
