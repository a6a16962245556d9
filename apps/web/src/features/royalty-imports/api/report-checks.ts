/**
 * A staged report's checks (record 187): the currency a chosen file declares (read from its first bytes
 * before the upload), the exchange rate set on a staged report, and its sanity warnings, accepted or
 * resolved.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RoyaltyFormat } from '@tunedrop/shared/schemas/royalties';
import {
  type AcceptWarningInput,
  type CurrencyInspection,
  REPORT_WARNINGS_PAGE_SIZE,
} from '@tunedrop/shared/schemas/royalty-checks';
import { client, unwrap } from '../../../lib/api';
import { royaltyKeys } from './royalty-imports';

/** Enough of a file for a DSR's HEAD and summary records or a statement's header and first line. */
const HEAD_BYTES = 256 * 1024;

/** What the chosen file says about its currency; null while unknown (the upload then decides). */
export function useFileCurrency(file: File | null, format: RoyaltyFormat, preset: string | null) {
  return useQuery({
    queryKey: [...royaltyKeys.all, 'inspect', file?.name, file?.size, file?.lastModified, format, preset],
    enabled: file !== null,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async (): Promise<CurrencyInspection> => {
      if (!file) return { format: null, currency: null };
      const query = new URLSearchParams({ format });
      if (preset) query.set('preset', preset);
      const response = await fetch(`/api/admin/royalties/imports/inspect?${query}`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/octet-stream' },
        body: await file.slice(0, HEAD_BYTES).arrayBuffer(),
      });
      if (!response.ok) return { format: null, currency: null };
      return (await response.json()) as CurrencyInspection;
    },
  });
}

export const warningKeys = {
  of: (importId: string, page: number) => [...royaltyKeys.all, 'warnings', importId, page] as const,
};

/** One page of the report's warnings (a report may have thousands); openCount and total count them all. */
export function useReportWarnings(importId: string, isEnabled: boolean, page = 1) {
  return useQuery({
    queryKey: warningKeys.of(importId, page),
    queryFn: () =>
      unwrap(
        client.admin.royalties.imports[':id'].warnings.$get({
          param: { id: importId },
          query: { page: String(page), limit: String(REPORT_WARNINGS_PAGE_SIZE) },
        }),
      ),
    enabled: isEnabled,
    placeholderData: keepPreviousData,
  });
}

function useInvalidateAll() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: royaltyKeys.all });
}

export function useSetRate(importId: string) {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (rate: string) =>
      unwrap(client.admin.royalties.imports[':id'].rate.$put({ param: { id: importId }, json: { rate } })),
    onSettled: invalidate,
  });
}

export function useAcceptWarning(importId: string) {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: ({ warningId, ...json }: AcceptWarningInput & { warningId: string }) =>
      unwrap(
        client.admin.royalties.imports[':id'].warnings[':warningId'].accept.$post({
          param: { id: importId, warningId },
          json,
        }),
      ),
    onSettled: invalidate,
  });
}

export function useResolveWarning(importId: string) {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (warningId: string) =>
      unwrap(
        client.admin.royalties.imports[':id'].warnings[':warningId'].resolve.$post({
          param: { id: importId, warningId },
        }),
      ),
    onSettled: invalidate,
  });
}
