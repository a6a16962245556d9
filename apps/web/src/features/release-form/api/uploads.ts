/**
 * Resumable uploads with tus-js-client: one streamed PATCH per file (tus's advice: chunks only add
 * requests; the server keeps every byte it received, so a dropped connection resumes at that byte),
 * retries on dropped connections, and the stored fingerprint lets the same file picked again after a
 * reload continue where it stopped. See docs/decisions/052-upload-pipeline.md.
 */
import type { UploadInfo, UploadKind } from '@tunedrop/shared/schemas/builder';
import * as tus from 'tus-js-client';
import { ApiError, client, unwrap } from '../../../lib/api';

export const UPLOAD_ENDPOINT = '/api/uploads';
/** No chunking; set a size here if a proxy in front of the server limits request bodies. */
export const CHUNK_SIZE = Number.POSITIVE_INFINITY;

export type UploadCallbacks = {
  /** The server created the upload: its id can go into the draft. */
  onCreated: (uploadId: string) => void;
  onProgress: (sentBytes: number, totalBytes: number) => void;
  /** All bytes arrived and the server checked the file. */
  onChecked: (info: UploadInfo) => void;
  onFailed: (message: string) => void;
};

export type UploadHandle = {
  /** Stops the upload; `discard` also deletes what the server received. */
  abort: (discard: boolean) => Promise<void>;
};

export const uploadIdFromUrl = (url: string | null) => (url ? (url.split('/').pop() ?? '') : '');

function messageOf(error: unknown, fallback: string): string {
  const response = (error as tus.DetailedError)?.originalResponse;
  const body = response?.getBody?.();
  if (body) {
    try {
      const parsed = JSON.parse(body) as { error?: { message?: string } };
      if (parsed.error?.message) return parsed.error.message;
    } catch {
      // Not JSON: fall through.
    }
  }
  return fallback;
}

export function fetchUploadInfo(uploadId: string) {
  return unwrap(client.builder.uploads[':id'].$get({ param: { id: uploadId } }));
}

export const coverThumbnailUrl = (uploadId: string) => `/api/builder/uploads/${uploadId}/thumbnail`;

/** Deletes an upload the draft no longer uses (a replaced or removed file). */
export async function discardUpload(uploadId: string): Promise<void> {
  await fetch(`${UPLOAD_ENDPOINT}/${uploadId}`, {
    method: 'DELETE',
    credentials: 'same-origin',
    headers: { 'Tus-Resumable': '1.0.0' },
  }).catch(() => undefined);
}

/**
 * Starts (or resumes) an upload of `file`. Uploads already used elsewhere in the draft are never
 * resumed into this one, so the same file picked for two tracks makes two uploads.
 */
export async function startUpload(
  file: File,
  kind: UploadKind,
  callbacks: UploadCallbacks,
  options: { excludeUploadIds?: ReadonlySet<string> } = {},
): Promise<UploadHandle> {
  let isAborted = false;
  const upload = new tus.Upload(file, {
    endpoint: UPLOAD_ENDPOINT,
    chunkSize: CHUNK_SIZE,
    retryDelays: [0, 1000, 3000, 5000, 10000, 20000],
    metadata: { filename: file.name, filetype: file.type || 'application/octet-stream', kind },
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: true,
    onUploadUrlAvailable() {
      callbacks.onCreated(uploadIdFromUrl(upload.url));
    },
    onProgress(sent, total) {
      callbacks.onProgress(sent, total);
    },
    onShouldRetry(error) {
      // Refusals (4xx) are final, except the lock and offset conflicts tus itself retries.
      const status = error.originalResponse?.getStatus() ?? 0;
      return status === 0 || status >= 500 || status === 409 || status === 423;
    },
    async onSuccess() {
      const id = uploadIdFromUrl(upload.url);
      try {
        const info = await fetchUploadInfo(id);
        if (info.status === 'checked') callbacks.onChecked(info);
        else callbacks.onFailed(info.error ?? 'The file did not pass its checks.');
      } catch (error) {
        callbacks.onFailed(error instanceof ApiError ? error.message : 'Upload failed. Please try again.');
      }
    },
    onError(error) {
      if (isAborted) return;
      callbacks.onFailed(messageOf(error, 'Upload failed. Please check your connection and try again.'));
    },
  });
  const previous = await upload.findPreviousUploads().catch(() => []);
  const resumable = previous.find(
    (candidate) => !options.excludeUploadIds?.has(uploadIdFromUrl(candidate.uploadUrl)),
  );
  if (resumable) upload.resumeFromPreviousUpload(resumable);
  upload.start();
  return {
    async abort(discard) {
      isAborted = true;
      await upload.abort(discard).catch(() => undefined);
    },
  };
}
