import multipart from '@fastify/multipart';
import { filesCalls } from '@ticket/contracts';
import type { FastifyRequest } from 'fastify';
import { BadRequestError, UnauthorizedError } from '../../http/errors';
import { bearerToken, routesFor, type Caller } from '../../http/route';
import type { ServiceContext } from '../context';
import { PayloadTooLargeError } from './errors';
import { formatBytes } from './file-content';

/** Room for the multipart envelope around the file (boundaries, part headers, small fields). */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** Served files may be anything a user uploaded: never let them run as a page of ours. */
const FILE_CSP = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox";

export async function filesRoutes({ app, services, resolver, config }: ServiceContext): Promise<void> {
  const { files } = services;
  const call = routesFor(app, 'files', filesCalls, resolver);
  const staff = { server: 'staff', apiKey: true } as const;
  const max = config.files.maxUploadBytes;
  await app.register(multipart, { limits: { files: 1, fileSize: max + 1, fieldSize: 1024 } });

  /** The download answers to a token alone, so the Authorization header is optional there; a bad one is still refused. */
  const optionalCaller = async (request: FastifyRequest): Promise<Caller | null> => {
    const key = bearerToken(request);
    if (!key) return null;
    const caller = await resolver.resolve(key, request);
    if (!caller) throw new UnauthorizedError();
    return caller;
  };

  call('uploadFile', 'any', async ({ query }, request, reply) => {
    const target = { serverId: query.ServerId, ticketId: query.TicketId, subjectId: query.SubjectId, fileName: query.FileName };
    try {
      const result = await files.upload(request.caller, target, async () => {
        if (Number(request.headers['content-length']) > max + MULTIPART_OVERHEAD_BYTES) {
          throw new PayloadTooLargeError(`The file is larger than the ${formatBytes(max)} upload limit`);
        }
        const part = request.isMultipart() ? await request.file() : undefined;
        if (!part || part.fieldname !== 'file') throw new BadRequestError('Send the file as multipart/form-data, in a part named "file"', 'file');
        return { stream: part.file, contentType: part.mimetype };
      });
      if (result.storageExceeded) reply.header('x-storage-exceeded', 'true');
      return result;
    } catch (error) {
      // Refused before the whole body arrived: end the connection after the answer rather than
      // read the rest of a file nobody will keep (or leave the client waiting to send it).
      if (!request.raw.complete) reply.header('connection', 'close');
      throw error;
    }
  });

  call('cloneFile', 'any', async ({ body }, request, reply) => {
    const result = await files.clone(request.caller, body);
    if (result.storageExceeded) reply.header('x-storage-exceeded', 'true');
    return result;
  });

  call('getFile', 'open', async ({ params, query }, request, reply) => {
    const file = await files.download(await optionalCaller(request), params.fileId, params.fileName, query.token);
    reply
      .header('content-type', file.contentType)
      .header('content-length', file.size)
      .header('content-disposition', file.disposition)
      .header('cache-control', 'private, max-age=3600')
      .header('content-security-policy', FILE_CSP)
      // The dashboard may be on another host than the files service; the token is what guards the file.
      .header('cross-origin-resource-policy', 'cross-origin');
    return file.stream;
  });

  call('getTicketFiles', 'any', ({ params }, request) => files.ticketFiles(request.caller, params.serverId, params.ticketId));
  call('getStorageStats', staff, ({ params }) => files.storageOverview(params.serverId));
  call('getTicketStorageStats', staff, ({ params, query }) => files.ticketStorage(params.serverId, query.Page, query.Amount));
}
