import { z } from 'zod';
import {
  Binary,
  defineCall,
  opaqueId,
  PageQuery,
  pagedResult,
  ServerIdParams,
  Snowflake,
  SubjectId,
  TicketId,
} from './common';

export const FileId = opaqueId('File');
export type FileId = z.infer<typeof FileId>;

const forbiddenInFileName = (name: string): boolean =>
  name === '.' || name === '..' || [...name].some((c) => c === '/' || c === '\\' || c.charCodeAt(0) < 0x20);

/** A file name as users see it; it never names a directory. */
export const FileName = z
  .string()
  .min(1)
  .max(255)
  .refine((n) => !forbiddenInFileName(n), 'File name must not contain slashes or control characters')
  .describe('Name of the file, with extension');

/** A stored attachment of a ticket. (Not `File`: that would shadow the global File of browsers and Node.) */
export const TicketFile = z.object({
  ticketId: TicketId,
  fileId: FileId,
  name: FileName,
  size: z.number().int().min(0).describe('Bytes'),
  token: z
    .string()
    .optional()
    .describe('Download token for the token query of getFile, so the file opens without an Authorization header'),
  blurHash: z.string().nullable().describe('BlurHash placeholder of an image; null for other files'),
  width: z.number().int().min(0).nullable().describe('Pixels; null if not an image'),
  height: z.number().int().min(0).nullable().describe('Pixels; null if not an image'),
});
export type TicketFile = z.infer<typeof TicketFile>;

/** The answer of an upload or a clone: the stored file, and what the subject's storage policy did to make it fit. */
export const UploadedFile = TicketFile.extend({
  storageExceeded: z
    .boolean()
    .describe('True when the file was stored beyond the plan’s storage (policy Inform): the bot should tell the user. Also sent as the X-Storage-Exceeded header'),
  deletedFileIds: z.array(FileId).describe('Older files deleted to make room (policies DeleteOldestFileSameSubject / DeleteOldestFileGlobal)'),
});
export type UploadedFile = z.infer<typeof UploadedFile>;

export const CloneFileRequest = z.object({
  fileName: FileName,
  serverId: Snowflake,
  ticketId: TicketId,
  subjectId: SubjectId.describe('Subject whose storage the copy counts against'),
  url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .describe('Where to fetch the file (e.g. a platform attachment URL)'),
});
export type CloneFileRequest = z.infer<typeof CloneFileRequest>;

/** Query of the multipart upload; the file itself is the form part named `file`. */
export const UploadFileQuery = z.object({
  FileName,
  ServerId: Snowflake,
  TicketId,
  SubjectId: SubjectId.describe('Subject whose storage the file counts against'),
});
export type UploadFileQuery = z.infer<typeof UploadFileQuery>;

export const SubjectStorage = z.object({
  subjectId: SubjectId,
  serverId: Snowflake,
  name: z.string().describe('Subject name'),
  spaceUsed: z.number().int().min(0).describe('Bytes'),
});
export type SubjectStorage = z.infer<typeof SubjectStorage>;

export const StorageOverview = z.object({
  subjects: z.array(SubjectStorage),
  spaceUsed: z.number().int().min(0).describe('Bytes used by the whole server'),
});
export type StorageOverview = z.infer<typeof StorageOverview>;

export const TicketStorage = z.object({
  ticketId: TicketId,
  spaceUsed: z.number().int().min(0).describe('Bytes'),
});
export type TicketStorage = z.infer<typeof TicketStorage>;

export const filesCalls = {
  cloneFile: defineCall({
    method: 'POST',
    path: '/files/clone',
    summary: 'Store a copy of a file fetched from a URL (bot worker)',
    body: CloneFileRequest,
    response: UploadedFile,
    status: 201,
  }),
  getFile: defineCall({
    method: 'GET',
    path: '/files/:fileId/:fileName',
    summary: 'Download a file; authorised by the Authorization header or the token query',
    params: z.object({ fileId: FileId, fileName: FileName }),
    query: z.object({ token: z.string().min(1).max(512).optional().describe('The file’s download token') }),
    response: Binary,
    binary: true,
  }),
  getTicketFiles: defineCall({
    method: 'GET',
    path: '/files/servers/:serverId/tickets/:ticketId',
    summary: 'Files of one ticket',
    params: z.object({ serverId: Snowflake, ticketId: TicketId }),
    response: z.array(TicketFile),
  }),
  uploadFile: defineCall({
    method: 'POST',
    path: '/files/upload',
    summary: 'Upload a file (multipart part "file"); the subject’s storage policy decides when full',
    query: UploadFileQuery,
    response: UploadedFile,
    status: 201,
    multipart: true,
  }),
  getStorageStats: defineCall({
    method: 'GET',
    path: '/servers/:serverId/stats',
    summary: 'Storage used by the server, per subject',
    params: ServerIdParams,
    response: StorageOverview,
  }),
  getTicketStorageStats: defineCall({
    method: 'GET',
    path: '/servers/:serverId/stats/tickets',
    summary: 'Storage used per ticket, largest first',
    params: ServerIdParams,
    query: PageQuery,
    response: pagedResult(TicketStorage),
  }),
};
