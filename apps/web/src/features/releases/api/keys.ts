/** Query keys of the releases feature. */
export const releasesKeys = {
  all: ['my-releases'] as const,
  list: () => [...releasesKeys.all, 'list'] as const,
  detail: (id: string) => [...releasesKeys.all, 'detail', id] as const,
  /** The release detail page (codes, stores, history); not the edit form's `detail`. */
  page: (id: string) => [...releasesKeys.all, 'page', id] as const,
};
