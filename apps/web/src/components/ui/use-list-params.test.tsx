/**
 * A list page's URL state (record 095): a filter chosen while a typed search still waits for its debounce
 * keeps both in the URL. The debounced write used to set the URL from the parameters of the render before
 * the filter, dropping it (the lists-search journey's store filter, now and then).
 */
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_DEBOUNCE_MS, useListParams } from './use-list-params';

const wrapper = ({ children }: { children: ReactNode }) => (
  <MemoryRouter initialEntries={['/admin/delivery?page=3']}>{children}</MemoryRouter>
);

function renderList() {
  return renderHook(
    () => ({
      list: useListParams({ tabs: ['all', 'failed'] as const, defaultTab: 'all' }),
      search: new URLSearchParams(useLocation().search),
    }),
    { wrapper },
  );
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('useListParams', () => {
  it('applies the typed search after the debounce, back to the first page', () => {
    const { result } = renderList();
    act(() => result.current.list.setSearchText('night drive '));
    expect(result.current.search.get('q')).toBeNull();
    act(() => {
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS);
    });
    expect(result.current.search.get('q')).toBe('night drive');
    expect(result.current.search.get('page')).toBeNull();
  });

  it('keeps a filter chosen within the debounce, with the search', () => {
    const { result } = renderList();
    act(() => result.current.list.setSearchText('night'));
    // The filter and the debounce's timer in one turn, before the page renders again.
    act(() => {
      result.current.list.setFilter('store', 'qobuz');
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS);
    });
    act(() => {
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS);
    });
    expect(result.current.search.get('store')).toBe('qobuz');
    expect(result.current.search.get('q')).toBe('night');
    expect(result.current.search.get('page')).toBeNull();
  });

  it('keeps a tab chosen within the debounce, with the search', () => {
    const { result } = renderList();
    act(() => result.current.list.setSearchText('night'));
    act(() => {
      result.current.list.setTab('failed');
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS);
    });
    expect(result.current.search.get('tab')).toBe('failed');
    expect(result.current.search.get('q')).toBe('night');
  });

  it('clears the search, a pending one too, and the named filters', () => {
    const { result } = renderList();
    act(() => result.current.list.setFilter('store', 'qobuz'));
    act(() => result.current.list.setFilter('state', 'failed'));
    act(() => result.current.list.setSearchText('night'));
    act(() => {
      result.current.list.clearFilters(['store', 'state']);
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS * 2);
    });
    expect(result.current.search.toString()).toBe('');
    expect(result.current.list.searchText).toBe('');
  });
});
