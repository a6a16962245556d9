/** Admin: catalogue import (record 200): the folders and earlier imports, one import, one report. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CatalogueImportRequest } from '@tunedrop/shared/schemas/catalogue-import';
import { client, unwrap } from '../../../lib/api';

const overviewKey = ['admin', 'catalogue-imports'] as const;

export function useCatalogueImports() {
  return useQuery({
    queryKey: overviewKey,
    queryFn: () => unwrap(client.admin['catalogue-imports'].$get()),
  });
}

export function useCatalogueImportReport(id: string | null) {
  return useQuery({
    queryKey: [...overviewKey, id],
    enabled: id !== null,
    queryFn: () => unwrap(client.admin['catalogue-imports'][':id'].$get({ param: { id: id ?? '' } })),
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
