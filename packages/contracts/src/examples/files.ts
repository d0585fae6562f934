import type { filesCalls, TicketFile } from '../files';
import { EX } from './fixtures';
import type { ExamplesOf } from './types';

const screenshot: TicketFile = {
  ticketId: EX.ticketId,
  fileId: EX.fileId,
  name: 'invoice-march.png',
  size: 184_320,
  token: '1710412013.u552081372201844737.kF9xQ2mLw7ZcN4vRt8UjK1sEa5FdHo3iPgMn6bYh0Tq',
  blurHash: 'LEHV6nWB2yk8pyo0adR*.7kCMdnj',
  width: 1280,
  height: 720,
};

export const filesExamples: ExamplesOf<typeof filesCalls> = {
  cloneFile: {
    body: {
      fileName: 'invoice-march.png',
      serverId: EX.serverId,
      ticketId: EX.ticketId,
      subjectId: EX.billingSubjectId,
      url: 'https://cdn.discordapp.com/attachments/1176310843829493790/1176311000111222333/invoice-march.png',
    },
    response: { ...screenshot, storageExceeded: false, deletedFileIds: [] },
  },
  getFile: { params: { fileId: EX.fileId, fileName: 'invoice-march.png' }, query: { token: '1710412013.u552081372201844737.kF9xQ2mLw7ZcN4vRt8UjK1sEa5FdHo3iPgMn6bYh0Tq' } },
  getTicketFiles: { params: { serverId: EX.serverId, ticketId: EX.ticketId }, response: [screenshot] },
  uploadFile: {
    query: { FileName: 'invoice-march.png', ServerId: EX.serverId, TicketId: EX.ticketId, SubjectId: EX.billingSubjectId },
    response: { ...screenshot, storageExceeded: false, deletedFileIds: [] },
  },
  getStorageStats: {
    params: { serverId: EX.serverId },
    response: {
      subjects: [
        { subjectId: EX.billingSubjectId, serverId: EX.serverId, name: 'Billing', spaceUsed: 52_428_800 },
        { subjectId: EX.bugSubjectId, serverId: EX.serverId, name: 'Bug reports', spaceUsed: 131_072_000 },
      ],
      spaceUsed: 183_500_800,
    },
  },
  getTicketStorageStats: {
    params: { serverId: EX.serverId },
    query: { Page: 1, Amount: 100 },
    response: { page: 1, maxPage: 1, elements: [{ ticketId: EX.ticketId, spaceUsed: 184_320 }] },
  },
};
