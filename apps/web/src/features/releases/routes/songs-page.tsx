/**
 * My Songs (spec 02 §2): the artist's releases, newest first, with edit and takedown actions; searched by
 * title, artist, UPC or ISRC and filtered by state, both kept in the URL (issue 26 finding 9, record 195).
 */
import type { ReleaseStatus } from '@tunedrop/shared';
import { type MySongItem, RELEASE_MESSAGES, RELEASE_STATUS_LABELS } from '@tunedrop/shared/schemas/releases';
import { Music2, SearchX, Upload } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { Label, Select } from '../../../components/ui/input';
import { SearchInput } from '../../../components/ui/search-input';
import { notify } from '../../../components/ui/toast';
import { useListParams } from '../../../components/ui/use-list-params';
import { paths } from '../../../config/paths';
import { profileQuery, useChosenArtistProfile } from '../../../lib/artist-profiles';
import { usePageTitle } from '../../../lib/use-page-title';
import { useAccountCan } from '../../../lib/viewer';
import { useMyReleases } from '../api/list-my-releases';
import { useRequestTakedown } from '../api/request-takedown';
import { SongCard } from '../components/song-card';

/** The states an artist can filter by (a deleted release is not listed). */
const FILTER_STATUSES: readonly ReleaseStatus[] = [
  'pending',
  'processing',
  'approved',
  'live',
  'rejected',
  'taken_down',
];

export default function SongsPage() {
  usePageTitle('My Songs');
  const list = useListParams({ tabs: ['all'] as const, defaultTab: 'all' });
  const [params] = useSearchParams();
  const statusParam = params.get('state') ?? '';
  const status = FILTER_STATUSES.find((item) => item === statusParam) ?? '';
  // The dashboard's artist profile switcher (record 201): one profile's releases, or all of them.
  const { profile } = useChosenArtistProfile();
  // Uploading is Catalog's (record 205).
  const isCatalog = useAccountCan()('catalog');
  const releases = useMyReleases({ q: list.q, status, ...profileQuery(profile) });
  const isFiltered = Boolean(list.q || status);
  const setStatus = (value: string) => list.setFilter('state', value);
  const clearFilters = () => list.clearFilters(['state']);
  const takedown = useRequestTakedown();
  const [takedownTarget, setTakedownTarget] = useState<MySongItem | null>(null);

  useEffect(() => {
    if (releases.isError) notify.error(RELEASE_MESSAGES.fetchFailed);
  }, [releases.isError]);

  const items = releases.data?.pages.flatMap((page) => page.items) ?? [];

  const confirmTakedown = () => {
    if (!takedownTarget) return;
    takedown.mutate(takedownTarget.id, {
      onSuccess: (release) =>
        notify.success(
          RELEASE_MESSAGES.takedownRequested,
          `A moderator will review the takedown of "${release.title}".`,
        ),
      onError: () => notify.error(RELEASE_MESSAGES.takedownFailed),
      onSettled: () => setTakedownTarget(null),
    });
  };

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-3xl font-bold text-white">My Songs</h1>
          <p className="mt-1 text-sm text-zinc-400">
            {profile ? `${profile.name}'s releases` : 'Your releases'} and their review status.
          </p>
        </div>
        {isCatalog ? (
          <Link to={paths.upload} className={buttonClass('primary')}>
            <Upload aria-hidden className="size-4" /> Upload Music
          </Link>
        ) : null}
      </div>

      {isFiltered || items.length > 0 || releases.hasNextPage ? (
        <div className="flex flex-wrap items-end gap-3">
          <SearchInput
            label="Search releases by title, artist, UPC or ISRC"
            placeholder="Search by title, artist, UPC or ISRC"
            value={list.searchText}
            onChange={list.setSearchText}
            onSubmit={list.submitSearch}
            className="flex-1"
          />
          <div className="w-full sm:w-48">
            <Label htmlFor="songs-filter-state">State</Label>
            <Select
              id="songs-filter-state"
              value={status}
              onChange={(event) => setStatus(event.target.value)}
            >
              <option value="">All states</option>
              {FILTER_STATUSES.map((item) => (
                <option key={item} value={item}>
                  {RELEASE_STATUS_LABELS[item]}
                </option>
              ))}
            </Select>
          </div>
        </div>
      ) : null}

      {releases.isPending ? (
        <PageLoader />
      ) : releases.isError && !releases.data ? (
        <Card className="space-y-3 text-center">
          <p className="text-zinc-300">{RELEASE_MESSAGES.fetchFailed}</p>
          <Button variant="outline" onClick={() => releases.refetch()}>
            Try again
          </Button>
        </Card>
      ) : items.length === 0 && isFiltered ? (
        <Card className="flex flex-col items-center gap-3 py-12 text-center">
          <SearchX aria-hidden className="size-10 text-brand-400" />
          <h2 className="text-xl font-semibold text-white">{RELEASE_MESSAGES.noMatches}</h2>
          <p className="text-sm text-zinc-400">
            No release of yours matches this search and state. Try another title, artist, UPC or ISRC.
          </p>
          <Button variant="outline" onClick={clearFilters}>
            Clear filters
          </Button>
        </Card>
      ) : items.length === 0 ? (
        <Card className="flex flex-col items-center gap-3 py-12 text-center">
          <Music2 aria-hidden className="size-10 text-brand-400" />
          <h2 className="text-xl font-semibold text-white">{RELEASE_MESSAGES.noSongs}</h2>
          <p className="text-sm text-zinc-400">Upload your first release to see it here.</p>
          {isCatalog ? (
            <Link to={paths.upload} className={buttonClass('primary')}>
              <Upload aria-hidden className="size-4" /> Upload Music
            </Link>
          ) : null}
        </Card>
      ) : (
        <>
          <ul className="space-y-3" aria-label="Releases">
            {items.map((release) => (
              <SongCard key={release.id} release={release} onRequestTakedown={setTakedownTarget} />
            ))}
          </ul>
          {releases.hasNextPage ? (
            <div className="flex justify-center">
              <Button
                variant="outline"
                onClick={() => releases.fetchNextPage()}
                disabled={releases.isFetchingNextPage}
              >
                {releases.isFetchingNextPage ? 'Loading...' : 'Load more'}
              </Button>
            </div>
          ) : null}
        </>
      )}

      <ConfirmDialog
        open={takedownTarget !== null}
        onOpenChange={(open) => {
          if (!open && !takedown.isPending) setTakedownTarget(null);
        }}
        title="Request Takedown"
        description={`Ask for "${takedownTarget?.title ?? ''}" to be removed from every platform? A moderator will review your request.`}
        confirmLabel="Request Takedown"
        isDestructive
        isPending={takedown.isPending}
        onConfirm={confirmTakedown}
      />
    </div>
  );
}
