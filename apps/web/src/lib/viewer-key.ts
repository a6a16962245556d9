/** The viewer's query key on its own, so auth-sync (in the first bundle) needs neither the API client nor the query hooks. */
export const viewerQueryKey = ['viewer'] as const;
