/** Release review (spec 02 §2, §4, §8): five tabs with counts, search, server-side paging, decisions. */
import {
  ADMIN_RELEASE_MESSAGES,
  ADMIN_RELEASE_TAB_LABELS,
  ADMIN_RELEASE_TABS,
  type AdminReleaseCard,
  type AdminReleaseTab,
} from '@tunedrop/shared/schemas/admin-releases';
import { Search } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Badge, Card, PageLoader, Spinner } from '../../../components/ui/card';
import { cn } from '../../../components/ui/cn';
import { Input } from '../../../components/ui/input';
import { notify } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import { useReviewReleases } from '../api/list-review-releases';
import { ACTION_DONE, ACTION_FAILED, type ReviewAction, useReviewAction } from '../api/review-actions';
import { ReviewCard } from '../components/review-card';

const isTab = (value: string | null): value is AdminReleaseTab =>
  (ADMIN_RELEASE_TABS as readonly string[]).includes(value ?? '');

export default function AdminReleasesPage() {
  usePageTitle('Release Review');
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: AdminReleaseTab = isTab(tabParam) ? tabParam : 'pending';
  const q = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [searchText, setSearchText] = useState(q);
  const releases = useReviewReleases(tab, q, page);
  const action = useReviewAction();

  const update = (next: { tab?: AdminReleaseTab; q?: string; page?: number }) => {
    const merged = { tab, q, page, ...next };
    const search = new URLSearchParams();
    if (merged.tab !== 'pending') search.set('tab', merged.tab);
    if (merged.q) search.set('q', merged.q);
    if (merged.page > 1) search.set('page', String(merged.page));
    setParams(search, { replace: true });
  };

  // Typing searches after a short pause; Enter searches at once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: update reads the current params
  useEffect(() => {
    const trimmed = searchText.trim();
    if (trimmed === q) return;
    const timer = setTimeout(() => update({ q: trimmed, page: 1 }), 350);
    return () => clearTimeout(timer);
  }, [searchText, q]);

  useEffect(() => {
    if (releases.isError) notify.error(ADMIN_RELEASE_MESSAGES.fetchFailed);
  }, [releases.isError]);

  // A page beyond the end (after deletions) falls back to the last page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: update reads the current params
  useEffect(() => {
    if (releases.data && page > releases.data.totalPages) update({ page: releases.data.totalPages });
  }, [releases.data, page]);

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

  const counts = releases.data?.counts;
  const items = releases.data?.items ?? [];

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold text-white">Release Review</h1>
          <p className="mt-1 text-sm text-zinc-400">Review submissions, takedown requests and uploaders.</p>
        </div>
        <form
          aria-label="Search releases"
          className="flex w-full max-w-md gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            update({ q: searchText.trim(), page: 1 });
          }}
        >
          <label htmlFor="review-search" className="sr-only">
            Search by title, artist or uploader email
          </label>
          <Input
            id="review-search"
            type="search"
            placeholder="Search by title, artist or uploader email"
            value={searchText}
            onChange={(event) => setSearchText(event.target.value)}
          />
          <Button type="submit" variant="outline" aria-label="Search">
            <Search aria-hidden className="size-4" />
          </Button>
        </form>
      </div>

      <Tabs.Root value={tab} onValueChange={(value) => isTab(value) && update({ tab: value, page: 1 })}>
        <Tabs.List aria-label="Release status" className="flex gap-1 overflow-x-auto border-b border-ink-700">
          {ADMIN_RELEASE_TABS.map((name) => (
            <Tabs.Trigger
              key={name}
              value={name}
              className={cn(
                'flex items-center gap-2 border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap',
                name === tab
                  ? 'border-brand-400 text-white'
                  : 'border-transparent text-zinc-400 hover:text-white',
              )}
            >
              {ADMIN_RELEASE_TAB_LABELS[name]}
              <Badge tone={name === tab ? 'brand' : 'neutral'} data-testid={`count-${name}`}>
                {counts ? counts[name] : '…'}
              </Badge>
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value={tab} className="pt-6 focus:outline-none">
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
              <ul className="space-y-4" aria-label={ADMIN_RELEASE_TAB_LABELS[tab]}>
                {items.map((release) => (
                  <ReviewCard
                    key={release.id}
                    release={release}
                    tab={tab}
                    onAction={onAction}
                    isPending={action.isPending && action.variables?.releaseId === release.id}
                  />
                ))}
              </ul>
              {releases.data && releases.data.totalPages > 1 ? (
                <nav aria-label="Pages" className="flex items-center justify-center gap-3">
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={page <= 1}
                    onClick={() => update({ page: page - 1 })}
                  >
                    Previous
                  </Button>
                  <span className="text-sm text-zinc-400">
                    Page {page} of {releases.data.totalPages}
                  </span>
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={page >= releases.data.totalPages}
                    onClick={() => update({ page: page + 1 })}
                  >
                    Next
                  </Button>
                </nav>
              ) : null}
            </div>
          )}
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
