/**
 * Royalty import, admin side: the streamed upload (XMLHttpRequest, for its upload progress), the imports
 * list and one import's summary, posting and deleting, the unmatched queue and code assignment, CSV presets.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isApiErrorBody } from '@tunedrop/shared';
import type {
  CodeMappingInput,
  CsvPresetInput,
  ImportAccepted,
  ImportSummary,
  RoyaltyFormat,
} from '@tunedrop/shared/schemas/royalties';
import { useEffect, useRef } from 'react';
import { ApiError, client, unwrap } from '../../../lib/api';

export const royaltyKeys = {
  all: ['admin-royalties'] as const,
  imports: () => [...royaltyKeys.all, 'imports'] as const,
  importDetail: (id: string) => [...royaltyKeys.all, 'import', id] as const,
  unmatched: () => [...royaltyKeys.all, 'unmatched'] as const,
  presets: () => [...royaltyKeys.all, 'presets'] as const,
};

const RUNNING_PHASES = ['queued', 'reading', 'staging', 'posting'];

export function useImports() {
  return useInfiniteQuery({
    queryKey: royaltyKeys.imports(),
    queryFn: ({ pageParam }) =>
      unwrap(client.admin.royalties.imports.$get({ query: pageParam ? { cursor: pageParam } : {} })),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // While an import's job runs, the list follows its phase.
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) =>
        page.items.some((item) => RUNNING_PHASES.includes(item.progress.phase)),
      )
        ? 2000
        : false,
  });
}

export function useImportSummary(id: string) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: royaltyKeys.importDetail(id),
    queryFn: () => unwrap(client.admin.royalties.imports[':id'].$get({ param: { id } })),
    // While its job reads or posts it, the import is read again each second (its progress).
    refetchInterval: (current) =>
      current.state.data && RUNNING_PHASES.includes(current.state.data.progress.phase) ? 1000 : false,
  });
  const phase = query.data?.progress.phase;
  const previous = useRef(phase);
  useEffect(() => {
    const was = previous.current;
    previous.current = phase;
    // The job is done: the unmatched queue, the list and the totals changed with it.
    if (was && phase && RUNNING_PHASES.includes(was) && !RUNNING_PHASES.includes(phase)) {
      void queryClient.invalidateQueries({ queryKey: royaltyKeys.all });
    }
  }, [phase, queryClient]);
  return query;
}

export function useUnmatched() {
  return useQuery({
    queryKey: royaltyKeys.unmatched(),
    queryFn: () => unwrap(client.admin.royalties.unmatched.$get()),
  });
}

export function usePresets() {
  return useQuery({
    queryKey: royaltyKeys.presets(),
    queryFn: async () => (await unwrap(client.admin.royalties.presets.$get())).items,
  });
}

/** After anything that changes imports or matches: every list and summary of this feature is re-read. */
function useInvalidateAll() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: royaltyKeys.all });
}

export function usePostImport() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (id: string) => unwrap(client.admin.royalties.imports[':id'].post.$post({ param: { id } })),
    onSettled: invalidate,
  });
}

/** The admin's retry of an import or posting whose run stopped (record 220). */
export function useRetryImport() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (id: string) => unwrap(client.admin.royalties.imports[':id'].retry.$post({ param: { id } })),
    onSettled: invalidate,
  });
}

export function useDeleteImport() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (id: string) => unwrap(client.admin.royalties.imports[':id'].$delete({ param: { id } })),
    onSettled: invalidate,
  });
}

export function useAssignCode() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (input: CodeMappingInput) =>
      unwrap(client.admin.royalties['code-mappings'].$post({ json: input })),
    onSettled: invalidate,
  });
}

export function useSavePreset() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (input: CsvPresetInput) => unwrap(client.admin.royalties.presets.$post({ json: input })),
    onSettled: invalidate,
  });
}

export function useDeletePreset() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (id: string) => unwrap(client.admin.royalties.presets[':id'].$delete({ param: { id } })),
    onSettled: invalidate,
  });
}

/** Releases (approved or live) found by title, artist or email, with their tracks, to assign a code to. */
export function useReleaseSearch(q: string) {
  return useQuery({
    queryKey: [...royaltyKeys.all, 'release-search', q],
    queryFn: () =>
      unwrap(client.admin.releases.$get({ query: { tab: 'approved', q, page: '1', pageSize: '10' } })),
    enabled: q.trim().length > 0,
  });
}

export type UploadOptions = {
  file: File;
  format: RoyaltyFormat;
  rate?: string | undefined;
  currency?: string | undefined;
  preset?: string | undefined;
  onProgress: (fraction: number) => void;
  signal?: AbortSignal;
};

/**
 * Sends the file as the raw request body. fetch() has no upload progress in browsers, so this one call
 * uses XMLHttpRequest; the answer is read the same way `unwrap` reads it (ApiError on non-2xx).
 */
export function uploadStatement(options: UploadOptions): Promise<ImportAccepted> {
  const query = new URLSearchParams({ format: options.format, filename: options.file.name });
  if (options.rate) query.set('rate', options.rate);
  if (options.currency) query.set('currency', options.currency);
  if (options.preset) query.set('preset', options.preset);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/admin/royalties/imports?${query}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let data: unknown = null;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        data = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        options.onProgress(1);
        resolve(data as ImportSummary);
      } else if (isApiErrorBody(data)) {
        reject(new ApiError(xhr.status, data.error.code, data.error.message, data.error.fields));
      } else {
        reject(new ApiError(xhr.status, 'http_error', `Upload failed (${xhr.status})`));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, 'network_error', 'The upload was interrupted.'));
    xhr.onabort = () => reject(new ApiError(0, 'aborted', 'The upload was cancelled.'));
    options.signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(options.file);
  });
}
