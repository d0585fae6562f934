import { settingsCalls } from '@ticket/contracts';
import { routesFor, type Caller } from '../../http/route';
import type { ServiceContext } from '../context';
import { configurationRoutes } from './configuration-routes';
import { webhookRoutes } from './webhook-routes';

export async function settingsRoutes({ app, services, resolver }: ServiceContext): Promise<void> {
  const { settings } = services;
  const call = routesFor(app, 'settings', settingsCalls, resolver);
  const staff = { server: 'staff', apiKey: true } as const;
  const admin = { server: 'admin', apiKey: true } as const;
  const roleOf = async (caller: Caller | null, serverId: string) =>
    caller?.kind === 'user' ? resolver.roleOn(caller.userId, serverId) : null;

  call('createSubject', admin, ({ params, body }, request) => settings.createSubject(request.caller, params.serverId, body.name));
  call('getSubjects', staff, ({ params }) => settings.listSubjects(params.serverId));
  call('getMySubjects', staff, async ({ params }, request) =>
    settings.mySubjects(request.caller, params.serverId, await roleOf(request.caller, params.serverId)),
  );
  call('updateSubjectsBulk', admin, ({ params, body }, request) => settings.bulkUpdate(request.caller, params.serverId, body.updates));
  call('getSubject', staff, ({ params }) => settings.getSubject(params.serverId, params.subjectId));
  call('updateSubject', admin, ({ params, body }, request) => settings.updateSubject(request.caller, params.serverId, params.subjectId, body));
  call('deleteSubject', admin, ({ params }, request) => settings.deleteSubject(request.caller, params.serverId, params.subjectId));

  call('createServerSettings', admin, ({ params, body }, request) => settings.createServerSettings(request.caller, params.serverId, body));
  call('getServerSettings', staff, ({ params }) => settings.getServerSettings(params.serverId));
  call('updateServerSettings', admin, ({ params, body }, request) =>
    settings.updateServerSettings(request.caller, params.serverId, { ...body, subjectId: '' }),
  );

  call('createTemplate', admin, ({ params, body }, request) => settings.createTemplate(request.caller, params.serverId, body));
  call('getTemplates', staff, ({ params, query }) => settings.listTemplates(params.serverId, query.subjectId));
  call('updateTemplatesBulk', admin, ({ params, body }, request) => settings.updateTemplatesBulk(request.caller, params.serverId, body));
  call('getTemplate', staff, ({ params }) => settings.getTemplate(params.serverId, params.templateId));
  call('updateTemplate', admin, ({ params, body }, request) => settings.updateTemplate(request.caller, params.serverId, params.templateId, body));
  call('deleteTemplate', admin, ({ params }, request) => settings.deleteTemplate(request.caller, params.serverId, params.templateId));

  const { panels } = services;
  call('createPanel', admin, ({ params, body }, request) => panels.create(request.caller, params.serverId, body));
  call('getPanels', admin, ({ params }) => panels.list(params.serverId));
  call('getPanel', admin, ({ params }) => panels.get(params.serverId, params.id));
  call('updatePanel', admin, ({ params, body }, request) => panels.update(request.caller, params.serverId, params.id, body));
  call('deletePanel', admin, ({ params }, request) => panels.delete(request.caller, params.serverId, params.id));
  call('resendPanel', admin, ({ params }, request) => panels.resend(request.caller, params.serverId, params.id));

  call('getAuditLog', { server: 'admin' }, ({ params, query }) => settings.auditLog(params.serverId, query.Page, query.Amount, query.subjectId));
  call('getSettingsBulk', 'operator', ({ body }) => settings.settingsBulk(body.ids));
  call('getSubjectsBulk', 'operator', ({ body }) => settings.subjectsBulk(body.ids));
  call('getAllSettings', 'operator', ({ query }) => settings.allSettings(query.Page, query.Amount));

  webhookRoutes(app, services.webhooks, resolver);
  configurationRoutes(app, services.configuration, resolver);
}
