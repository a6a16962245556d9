/**
 * A file sent with tus 1.0.0 through the typed client (issue 40): the creation, then the bytes in PATCHes
 * of `chunkBytes` from the offset the server confirms. Its id then goes into `POST /builder/releases` or a
 * file replacement. A refusal comes back as the server's error (`forbidden_scope`, `file_rejected`, …).
 */
import type { Client } from 'openapi-fetch';
import type { components, paths } from './v1';

export type UploadKind = 'audio' | 'cover';
export type ApiError = components['schemas']['Error'];

export class UploadError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError | undefined,
  ) {
    super(body ? `${body.error.code}: ${body.error.message}` : `upload failed with HTTP ${status}`);
  }
}

const TUS = '1.0.0';
const b64 = (value: string) => btoa(String.fromCharCode(...new TextEncoder().encode(value)));

export async function uploadFile(
  api: Client<paths>,
  file: { kind: UploadKind; filename: string; bytes: Uint8Array; chunkBytes?: number },
): Promise<{ uploadId: string }> {
  const created = await api.POST('/uploads', {
    params: {
      header: {
        'Tus-Resumable': TUS,
        'Upload-Length': String(file.bytes.length),
        'Upload-Metadata': `filename ${b64(file.filename)},kind ${b64(file.kind)}`,
      },
    },
  });
  const location = created.response.headers.get('location');
  if (created.response.status !== 201 || !location)
    throw new UploadError(created.response.status, created.error as ApiError | undefined);
  const uploadId = location.split('/').pop() ?? '';
  const chunkBytes = file.chunkBytes ?? 8 * 1024 * 1024;
  let offset = 0;
  while (offset < file.bytes.length) {
    const sent = await api.PATCH('/uploads/{id}', {
      params: {
        path: { id: uploadId },
        header: {
          'Tus-Resumable': TUS,
          'Upload-Offset': String(offset),
          'Content-Type': 'application/offset+octet-stream',
        },
      },
      // The bytes as they are (the document types a binary body as a string).
      body: file.bytes.subarray(offset, offset + chunkBytes) as unknown as string,
      bodySerializer: (bytes) => bytes,
    });
    if (sent.response.status !== 204)
      throw new UploadError(sent.response.status, sent.error as ApiError | undefined);
    offset = Number(sent.response.headers.get('upload-offset'));
  }
  return { uploadId };
}
