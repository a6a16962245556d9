/** GET /api/releases/:id: the release as the Edit Release page needs it (owner only). */
import { useQuery } from '@tanstack/react-query';
import type { ReleaseForEdit } from '@tunedrop/shared/schemas/releases';
import { api } from '../../../lib/api';
import { releasesKeys } from './keys';

export function useReleaseForEdit(id: string) {
  return useQuery({
    queryKey: releasesKeys.detail(id),
    queryFn: async () => (await api<{ release: ReleaseForEdit }>(`/api/releases/${id}`)).release,
    retry: false,
    staleTime: 0,
  });
}
