/** Including lines another report already posted (decision 186): an explicit, audited confirmation. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api';
import { royaltyKeys } from './royalty-imports';

export function useIncludeOverlap() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(
        client.admin.royalties.imports[':id']['include-overlap'].$post({
          param: { id },
          json: { confirm: true },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: royaltyKeys.all }),
  });
}
