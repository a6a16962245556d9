/**
 * Release review (spec 02 §2, §4, §8): five tabs with counts, search, server-side paging, decisions. The
 * notices and badges of other features (stores without a target, post-release updates) are given by the
 * page that composes it, app/pages/admin-releases-page.tsx (features never import features, issue 37).
 */
import {
  ADMIN_RELEASE_MESSAGES,
  ADMIN_RELEASE_TAB_LABELS,
  ADMIN_RELEASE_TABS,
  type AdminReleaseCard,
  type AdminReleaseTab,
} from '@tunedrop/shared/schemas/admin-releases';
import { AI_REVIEW_FILTER_LABELS, AI_REVIEW_FILTERS } from '@tunedrop/shared/schemas/ai-disclosure';
import { type ReactNode, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card, PageLoader, Spinner } from '../../../components/ui/card';
import { CountTabs } from '../../../components/ui/count-tabs';
import { Select } from '../../../components/ui/input';
import { Pager } from '../../../components/ui/pager';
import { SearchInput } from '../../../components/ui/search-input';
import { notify } from '../../../components/ui/toast';
import { useListParams, usePageClamp } from '../../../components/ui/use-list-params';
import { ApiError } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import { useReviewReleases } from '../api/list-review-releases';
import { ACTION_DONE, ACTION_FAILED, type ReviewAction, useReviewAction } from '../api/review-actions';
import { BulkToolbar } from './bulk-toolbar';
import { ReviewCard } from './review-card';

const tabs = ADMIN_RELEASE_TABS.map((id) => ({ id, label: ADMIN_RELEASE_TAB_LABELS[id] }));

/** What other features show on the review page, given by the page that composes it. */
export interface ReleaseReviewSlots {
  /**
   * Above the tabs: for admins, the stores no target serves and the approved releases waiting on them
   * (features/delivery, issue 44); the post-release updates waiting for a decision, with their
   * before/after (features/release-updates, record 197).
   */
  notices: ReactNode;
  /** Beside a card's status: its update in review, if any (features/release-updates). */
  updateBadge: (releaseId: string) => ReactNode;
}

export function ReleaseReviewView({ notices, updateBadge }: ReleaseReviewSlots) {
  usePageTitle('Release Review');
  const list = useListParams<AdminReleaseTab>({ tabs: ADMIN_RELEASE_TABS, defaultTab: 'pending' });
  const { tab, q, page } = list;
  // The AI use filter (issue 41, record 295), kept in the address like the tab and search.
  const [params] = useSearchParams();
  const aiParam = params.get('ai');
  const ai = AI_REVIEW_FILTERS.find((value) => value === aiParam) ?? null;
  const setAi = (value: string) => list.setFilter('ai', value);
  const releases = useReviewReleases(tab, q, page, ai);
  const action = useReviewAction();
  usePageClamp(list, releases.data?.totalPages);
  // Bulk selection on the Pending tab, kept to the cards on screen (issue 26).
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const selectionKey = `${tab}|${q}|${page}|${ai}`;
  const [selectionOf, setSelectionOf] = useState(selectionKey);
  if (selectionOf !== selectionKey) {
    setSelectionOf(selectionKey);
    setSelected(new Set());
  }

  useEffect(() => {
    if (releases.isError) notify.error(ADMIN_RELEASE_MESSAGES.fetchFailed);
  }, [releases.isError]);

  const onAction = async (
    kind: ReviewAction,
    release: AdminReleaseCard,
    reason?: string,
  ): Promise<boolean> => {
    try {
      await action.mutateAsync({
        action: kind,
        releaseId: release.id,
        ...(reason !== undefined ? { reason } : {}),
      });
      notify.success(ACTION_DONE[kind], `"${release.title}"`);
      return true;
    } catch (error) {
      if (error instanceof ApiError && (error.status === 409 || error.status === 404)) {
        // Someone else got there first: say what happened; the list has been refetched.
        notify.error(
          error.status === 404
            ? 'This release no longer exists. The list has been refreshed.'
            : error.message,
          ADMIN_RELEASE_MESSAGES.staleTitle,
        );
        return true;
      }
      notify.error(ACTION_FAILED[kind]);
      return false;
    }
  };

  const items = releases.data?.items ?? [];
  const visibleSelected = new Set(items.filter((item) => selected.has(item.id)).map((item) => item.id));
  const toggle = (id: string, isSelected: boolean) => {
    const next = new Set(visibleSelected);
    if (isSelected) next.add(id);
    else next.delete(id);
    setSelected(next);
  };

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold text-white">Release Review</h1>
          <p className="mt-1 text-sm text-zinc-400">Review submissions, takedown requests and uploaders.</p>
        </div>
        <SearchInput
          className="max-w-md"
          label="Search by title, artist or uploader email"
          value={list.searchText}
          onChange={list.setSearchText}
          onSubmit={list.submitSearch}
        />
        <div className="flex flex-col gap-1 text-sm text-zinc-300">
          <label htmlFor="review-ai-filter">AI use</label>
          <Select
            id="review-ai-filter"
            className="w-56"
            value={ai ?? ''}
            onChange={(event) => setAi(event.target.value)}
          >
            <option value="">All releases</option>
            {AI_REVIEW_FILTERS.map((value) => (
              <option key={value} value={value}>
                {AI_REVIEW_FILTER_LABELS[value]}
              </option>
            ))}
          </Select>
        </div>
      </div>

      {notices}

      <CountTabs
        label="Release status"
        tabs={tabs}
        value={tab}
        onValueChange={list.setTab}
        counts={releases.data?.counts}
      >
        {releases.isPending ? (
          <PageLoader />
        ) : releases.isError && !releases.data ? (
          <Card className="space-y-3 text-center">
            <p className="text-zinc-300">{ADMIN_RELEASE_MESSAGES.fetchFailed}</p>
            <Button variant="outline" onClick={() => releases.refetch()}>
              Try again
            </Button>
          </Card>
        ) : items.length === 0 ? (
          <Card className="py-10 text-center text-zinc-400">
            {q ? `No releases match "${q}" in this tab.` : 'No releases in this tab.'}
          </Card>
        ) : (
          <div className="space-y-4">
            {releases.isFetching ? (
              <p className="flex items-center gap-2 text-xs text-zinc-400">
                <Spinner className="size-3" label="Refreshing" /> Refreshing…
              </p>
            ) : null}
            {tab === 'pending' ? (
              <BulkToolbar items={items} selected={visibleSelected} onSelectedChange={setSelected} />
            ) : null}
            <ul className="space-y-4" aria-label={ADMIN_RELEASE_TAB_LABELS[tab]}>
              {items.map((release) => (
                <ReviewCard
                  key={release.id}
                  release={release}
                  tab={tab}
                  onAction={onAction}
                  isPending={action.isPending && action.variables?.releaseId === release.id}
                  updateBadge={updateBadge(release.id)}
                  {...(tab === 'pending'
                    ? {
                        selection: {
                          isSelected: visibleSelected.has(release.id),
                          onChange: (isSelected: boolean) => toggle(release.id, isSelected),
                        },
                      }
                    : {})}
                />
              ))}
            </ul>
            <Pager page={page} pageCount={releases.data?.totalPages ?? 1} onPageChange={list.setPage} />
          </div>
        )}
      </CountTabs>
    </div>
  );
}
