import { getApi } from '@/lib/api';

export const deleteTemplate = (serverId: string, templateId: string): Promise<void> =>
  getApi().settings.deleteTemplate({ params: { serverId, templateId } });
