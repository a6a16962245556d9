/**
 * Admin: catalogue import (record 200): the folders and earlier imports, one import, one report. An import
 * runs as a job (record 232): its report is read again every second while it is queued or running.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CatalogueImportRequest,
  CatalogueImportStatus,
} from '@tunedrop/shared/schemas/catalogue-import';
import { client, unwrap } from '../../../lib/api';

const overviewKey = ['admin', 'catalogue-imports'] as const;

const isUnderway = (status: CatalogueImportStatus) => status === 'queued' || status === 'running';

export function useCatalogueImports() {
  return useQuery({
    queryKey: overviewKey,
    queryFn: () => unwrap(client.admin['catalogue-imports'].$get()),
    refetchInterval: (query) =>
      query.state.data?.imports.some((item) => isUnderway(item.status)) ? 3000 : false,
  });
}

export function useCatalogueImportReport(id: string | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: [...overviewKey, id],
    enabled: id !== null,
    queryFn: async () => {
      const report = await unwrap(client.admin['catalogue-imports'][':id'].$get({ param: { id: id ?? '' } }));
      // Finished: the list of earlier imports shows its final counts too.
      if (!isUnderway(report.status))
        void queryClient.invalidateQueries({ queryKey: overviewKey, exact: true });
      return report;
    },
    refetchInterval: (query) => (query.state.data && isUnderway(query.state.data.status) ? 1000 : false),
  });
}

export function useRunCatalogueImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: CatalogueImportRequest) => unwrap(client.admin['catalogue-imports'].$post({ json })),
    onSuccess: (report) => {
      queryClient.setQueryData([...overviewKey, report.id], report);
      return queryClient.invalidateQueries({ queryKey: overviewKey, exact: true });
    },
  });
}

/** The plain-text report the server serves as a download. */
export const reportDownloadUrl = (id: string) => `/api/admin/catalogue-imports/${id}/report.txt`;
