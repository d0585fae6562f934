import { describe, expect, it } from 'vitest';
import { CloneFileRequest, FileName, UploadFileQuery } from './files';

describe('files', () => {
  it('accepts ordinary file names and refuses ones that could name a path', () => {
    for (const n of ['report.pdf', 'Screenshot 2025-01-01 at 10.00.png', 'ü.txt'])
      expect(FileName.safeParse(n).success, n).toBe(true);
    for (const n of ['', '.', '..', 'a/b.png', 'a\\b.png', 'a\nb', 'x'.repeat(256)])
      expect(FileName.safeParse(n).success, n).toBe(false);
  });

  it('reads the upload query with its PascalCase names', () => {
    const q = { FileName: 'a.png', ServerId: '123456789012345678', TicketId: 't1', SubjectId: 's1' };
    expect(UploadFileQuery.parse(q)).toEqual(q);
    expect(UploadFileQuery.safeParse({ ...q, ServerId: 'guild' }).success).toBe(false);
  });

  it('clones only from http(s) URLs', () => {
    const body = { fileName: 'a.png', serverId: '123456789012345678', ticketId: 't1', subjectId: 's1' };
    expect(CloneFileRequest.safeParse({ ...body, url: 'https://cdn.example.com/a.png' }).success).toBe(true);
    expect(CloneFileRequest.safeParse({ ...body, url: 'file:///etc/passwd' }).success).toBe(false);
  });
});
