import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import boundaries of DESIGN.md §2, as the repository's ESLint config enforces them
 * (eslint.config.js, `boundaries/dependencies`): each case lints a one-line file placed where the
 * path says, so a config change that lets a forbidden import through fails here.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: root });

async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  expect(result?.messages.filter((message) => message.fatal)).toEqual([]);
  return (result?.messages ?? []).filter((message) => message.ruleId === 'boundaries/dependencies').map((message) => message.message);
}

describe('web import boundaries', () => {
  const feature = 'apps/web/src/features/panels/components/probe.tsx';

  it('a feature importing another feature is an error, by alias or by relative path', async () => {
    const byAlias = await boundaryErrors(feature, "export { TicketList } from '@/features/tickets/components/ticket-list';\n");
    expect(byAlias).toEqual([expect.stringContaining('A web feature does not import another feature')]);
    const relative = await boundaryErrors(feature, "import { ticketKeys } from '../../tickets/api/keys';\nexport const keys = ticketKeys;\n");
    expect(relative).toHaveLength(1);
    const lazy = await boundaryErrors(feature, "export const page = () => import('@/features/staff/components/staff-home-page');\n");
    expect(lazy).toHaveLength(1);
  });

  it('src/lib and src/components import no feature', async () => {
    const code = "export { StaffHomePage } from '@/features/staff/components/staff-home-page';\n";
    expect(await boundaryErrors('apps/web/src/lib/probe.ts', code)).toEqual([expect.stringContaining('import none')]);
    expect(await boundaryErrors('apps/web/src/components/probe.tsx', code)).toHaveLength(1);
  });

  it('a feature may import its own files and the shared ones; src/app may import features', async () => {
    const own = "export { panelsKeys } from '../api/keys';\nexport { BotMissing } from '@/components/bot-missing';\nexport { useCurrentServer } from '@/lib/use-current-server';\n";
    expect(await boundaryErrors(feature, own)).toEqual([]);
    const app = "export { ServerTicketsPage } from '@/features/tickets/components/server-tickets-page';\n";
    expect(await boundaryErrors('apps/web/src/app/probe.tsx', app)).toEqual([]);
  });
});

describe('server service boundaries', () => {
  const service = 'apps/server/src/services/support/probe.ts';

  it("a service importing another service's internal file is an error", async () => {
    const errors = await boundaryErrors(service, "export type { SettingsService } from '../settings/service';\n");
    expect(errors).toEqual([expect.stringContaining("only through that service's index.ts")]);
    expect(await boundaryErrors(service, "export { toPlatformEmbed } from '../settings/panel-message';\n")).toHaveLength(1);
  });

  it("a service may import another through its index.ts, and its own files; the composition points anything", async () => {
    expect(await boundaryErrors(service, "export { staffSubjectsByServer, type SettingsService } from '../settings';\n")).toEqual([]);
    expect(await boundaryErrors(service, "export type { FilesService } from '../files/index';\n")).toEqual([]);
    expect(await boundaryErrors(service, "export { TicketOpening } from './ticket-opening';\n")).toEqual([]);
    const anything = "export type { SettingsService } from './settings/service';\n";
    expect(await boundaryErrors('apps/server/src/services/context.ts', anything)).toEqual([]);
    expect(await boundaryErrors('apps/server/src/app.ts', anything.replace('./settings', './services/settings'))).toEqual([]);
  });

  it('tests may import any service file', async () => {
    expect(await boundaryErrors('apps/server/src/services/support/probe.test.ts', "export type { SettingsService } from '../settings/service';\n")).toEqual([]);
  });
});
