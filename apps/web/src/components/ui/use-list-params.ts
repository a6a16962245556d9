/**
 * URL state of an admin list page (`?q=…&tab=…&page=…`): one debounce, one page clamp, defaults left
 * out of the URL so a plain link opens the first page of the default tab. Record 095.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';

/** Typing searches this long after the last key; Enter searches at once. */
export const SEARCH_DEBOUNCE_MS = 300;

export type ListParams<Tab extends string> = {
  tab: Tab;
  /** The applied (trimmed) search text, as in the URL. */
  q: string;
  page: number;
  /** What the search box shows while typing, before the debounce applies it. */
  searchText: string;
  setSearchText: (text: string) => void;
  /** Applies the search box now (Enter). */
  submitSearch: () => void;
  setTab: (tab: Tab) => void;
  /** Pushes a history entry (Back returns to the previous page) unless `replace` is set. */
  setPage: (page: number, options?: { replace?: boolean }) => void;
  /** Sets (or, with '', removes) one of the page's own filters in the URL, back to the first page. */
  setFilter: (name: string, value: string) => void;
  /** Empties the search box and removes the search and the named filters from the URL. */
  clearFilters: (names: readonly string[]) => void;
};

export function useListParams<Tab extends string>(options: {
  tabs: readonly Tab[];
  defaultTab: Tab;
}): ListParams<Tab> {
  const { tabs, defaultTab } = options;
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab = tabs.find((item) => item === tabParam) ?? defaultTab;
  const q = (params.get('q') ?? '').trim();
  const page = Math.max(1, Math.floor(Number(params.get('page'))) || 1);
  const [searchText, setSearchText] = useState(q);

  // The debounced search waiting to be applied. Any other change to the URL applies it in the same write and
  // cancels it: a timer firing after that write would set the URL from the parameters of the render before
  // it (react-router hands its functional update those), dropping a filter chosen within the debounce.
  const pendingSearch = useRef<ReturnType<typeof setTimeout> | null>(null);
  const searchTextRef = useRef(searchText);
  searchTextRef.current = searchText;

  const update = useCallback(
    (
      changes: { tab?: Tab; q?: string; page?: number; filters?: Record<string, string> },
      replace = false,
    ) => {
      if (pendingSearch.current !== null) {
        clearTimeout(pendingSearch.current);
        pendingSearch.current = null;
        if (changes.q === undefined) changes = { ...changes, q: searchTextRef.current.trim(), page: 1 };
      }
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [name, value] of Object.entries(changes.filters ?? {})) {
            if (value) next.set(name, value);
            else next.delete(name);
          }
          if (changes.tab !== undefined) {
            if (changes.tab === defaultTab) next.delete('tab');
            else next.set('tab', changes.tab);
          }
          if (changes.q !== undefined) {
            if (changes.q) next.set('q', changes.q);
            else next.delete('q');
          }
          if (changes.page !== undefined) {
            if (changes.page > 1) next.set('page', String(changes.page));
            else next.delete('page');
          }
          return next;
        },
        { replace },
      );
    },
    [setParams, defaultTab],
  );

  // A changed URL (back button, a link) shows in the box; the box keeps what is still being typed.
  useEffect(() => setSearchText((current) => (current.trim() === q ? current : q)), [q]);

  useEffect(() => {
    const trimmed = searchText.trim();
    if (trimmed === q) return;
    const timer = setTimeout(() => {
      pendingSearch.current = null;
      update({ q: trimmed, page: 1 }, true);
    }, SEARCH_DEBOUNCE_MS);
    pendingSearch.current = timer;
    return () => {
      clearTimeout(timer);
      if (pendingSearch.current === timer) pendingSearch.current = null;
    };
  }, [searchText, q, update]);

  return {
    tab,
    q,
    page,
    searchText,
    setSearchText,
    submitSearch: () => update({ q: searchText.trim(), page: 1 }, true),
    setTab: (next) => update({ tab: next, page: 1 }),
    setPage: (next, options) => update({ page: next }, options?.replace ?? false),
    setFilter: (name, value) => update({ filters: { [name]: value }, page: 1 }, true),
    clearFilters: (names) => {
      if (pendingSearch.current !== null) clearTimeout(pendingSearch.current);
      pendingSearch.current = null;
      setSearchText('');
      update({ q: '', page: 1, filters: Object.fromEntries(names.map((name) => [name, ''])) }, true);
    },
  };
}

/** A page beyond the end (after deletions, or an edited URL) falls back to the last page. */
export function usePageClamp(
  list: Pick<ListParams<string>, 'page' | 'setPage'>,
  pageCount: number | undefined,
) {
  const { page, setPage } = list;
  useEffect(() => {
    if (pageCount !== undefined && page > Math.max(1, pageCount))
      setPage(Math.max(1, pageCount), { replace: true });
  }, [page, pageCount, setPage]);
}

/** Pages needed for `total` rows, at least one. */
export function pageCountOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
