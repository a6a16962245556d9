/** GET /api/releases/:id: the release as the Edit Release page needs it (owner only). */
import { useQuery } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api';
import { releasesKeys } from './keys';

export function useReleaseForEdit(id: string) {
  return useQuery({
    queryKey: releasesKeys.detail(id),
    queryFn: async () => (await unwrap(client.releases[':id'].$get({ param: { id } }))).release,
    retry: false,
    staleTime: 0,
  });
}
