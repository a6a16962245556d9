/**
 * A report's posting figures (record 189, issue 25 finding 5): what a posting credits, holds, keeps as the
 * fee and books to suspense (GET /api/admin/royalties/imports/:id/figures), on the import's page.
 */
import { useQuery } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api';

/** The confirmation's figures (computed before posting) and the result's (read after), same shape. */
export function usePostingFigures(importId: string, posted: boolean, enabled: boolean) {
  return useQuery({
    queryKey: ['admin-finance', 'figures', importId, posted] as const,
    queryFn: () => unwrap(client.admin.royalties.imports[':id'].figures.$get({ param: { id: importId } })),
    enabled,
  });
}
