import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CONTROL_PREFIX } from './control.ts';
import type { SandboxState } from './state.ts';

/** Where Localazy's API is served: the product's LOCALAZY_API_URL is `<sandbox>/localazy`. */
export const LOCALAZY_PREFIX = '/localazy';
/** The one project every token reaches, as a Localazy project token reaches its own project. */
export const LOCALAZY_PROJECT_ID = '_a7000000000000000001';

/** One import as Localazy received it: the files (each with its JSON content by language) and the options. */
export interface LocalazyImport {
  importBatch: string;
  projectId: string;
  token: string;
  at: number;
  body: Record<string, unknown>;
}

interface StoredFile {
  id: string;
  type: string;
  name: string;
}

/**
 * The part of Localazy's API that @localazy/api-client's `import.json` uses: the token's project
 * (GET /projects), the import itself (POST /projects/{id}/import, answering the import batch), its
 * progress, and the project's files (GET /projects/{id}/files, where the client finds the file it
 * imported). Imports are kept for tests under /_sandbox/localazy and cleared by the sandbox's reset.
 */
export function registerLocalazy(app: FastifyInstance, state: SandboxState): void {
  let imports: LocalazyImport[] = [];
  let files: StoredFile[] = [];
  state.resetListeners.push(() => {
    imports = [];
    files = [];
  });

  const tokenOf = (request: FastifyRequest) => /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? null;
  const project = () => ({
    id: LOCALAZY_PROJECT_ID,
    orgId: '_a7000000000000000002',
    name: 'Ticket Dashboard',
    slug: 'ticket-dashboard',
    image: '',
    url: 'https://localazy.com/p/ticket-dashboard',
    description: 'The dashboard and bot texts',
    type: 'restricted',
    tone: 'neutral',
    role: 'owner',
    sourceLanguage: 1033,
  });
  const unknownProject = (reply: FastifyReply) => reply.code(404).send({ error: 'Project not found' });

  app.register(
    async (localazy) => {
      localazy.addHook('onRequest', async (request, reply) => {
        if (!tokenOf(request)) return reply.code(401).send({ error: 'Unauthorized' });
      });
      localazy.get('/projects', async () => [project()]);
      localazy.post<{ Params: { projectId: string }; Body: Record<string, unknown> }>('/projects/:projectId/import', async (request, reply) => {
        if (request.params.projectId !== LOCALAZY_PROJECT_ID) return unknownProject(reply);
        const body = request.body ?? {};
        const given = Array.isArray(body.files) ? (body.files as Record<string, unknown>[]) : null;
        if (!given || given.length === 0) return reply.code(400).send({ error: 'files: at least one file is required' });
        const importBatch = randomUUID();
        imports.push({ importBatch, projectId: request.params.projectId, token: tokenOf(request)!, at: state.now(), body });
        for (const file of given) {
          const name = typeof file.name === 'string' ? file.name : 'content.json';
          if (!files.some((f) => f.name === name)) files.push({ id: `_a${String(8000000000000000000 + files.length)}`, type: 'json', name });
        }
        return { result: importBatch };
      });
      localazy.get<{ Params: { projectId: string; importBatch: string } }>('/projects/:projectId/import/:importBatch', async (request, reply) => {
        if (!imports.some((i) => i.importBatch === request.params.importBatch)) return reply.code(404).send({ error: 'Import batch not found' });
        return { status: 'done' };
      });
      localazy.get<{ Params: { projectId: string } }>('/projects/:projectId/files', async (request, reply) => {
        if (request.params.projectId !== LOCALAZY_PROJECT_ID) return unknownProject(reply);
        return files.map((file) => ({ ...file, module: '', productFlavors: [] }));
      });
    },
    { prefix: LOCALAZY_PREFIX },
  );

  app.get(`${CONTROL_PREFIX}/localazy`, async () => ({ projectId: LOCALAZY_PROJECT_ID, imports, files }));
}
