/** Query keys of the releases feature. */
export const releasesKeys = {
  all: ['my-releases'] as const,
  /** Every filtered list starts with `list()`, so invalidating it refreshes them all. */
  list: (filters?: { q: string; status: string; artistProfileId?: string }) =>
    filters ? ([...releasesKeys.all, 'list', filters] as const) : ([...releasesKeys.all, 'list'] as const),
  detail: (id: string) => [...releasesKeys.all, 'detail', id] as const,
  /** The release detail page (codes, stores, history); not the edit form's `detail`. */
  page: (id: string) => [...releasesKeys.all, 'page', id] as const,
};
