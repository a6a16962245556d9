/** The saved wizard (GET/PUT/DELETE /api/builder/draft): a reload or a later visit restores it. */
import { useQuery } from '@tanstack/react-query';
import type { BuilderDraft } from '@tunedrop/shared/schemas/builder';
import { client, unwrap } from '../../../lib/api';

export const draftQueryKey = ['builder', 'draft'] as const;

export function useDraftQuery() {
  return useQuery({
    queryKey: draftQueryKey,
    queryFn: () => unwrap(client.builder.draft.$get()),
    // The page owns the draft once loaded; refetching would overwrite what the user is typing.
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    retry: 1,
  });
}

export function saveDraft(draft: BuilderDraft) {
  return unwrap(client.builder.draft.$put({ json: draft }));
}

/** The last save when the page goes away: keepalive lets the request outlive the page. */
export function saveDraftOnExit(draft: BuilderDraft) {
  const body = JSON.stringify(draft);
  // Browsers cap keepalive bodies at 64 KB; a larger draft was saved by the debounce anyway.
  if (body.length > 60_000) return;
  void fetch('/api/builder/draft', {
    method: 'PUT',
    credentials: 'same-origin',
    keepalive: true,
    headers: { 'content-type': 'application/json' },
    body,
  }).catch(() => undefined);
}

export function deleteDraft() {
  return unwrap(client.builder.draft.$delete());
}
