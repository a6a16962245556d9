/**
 * The admin's "Claims to release" queue on /admin/content-id (record 193): claims an artist asked to
 * release or that sit on an allow-listed channel, oldest first, to release in YouTube's CMS by hand and
 * then mark as done.
 */
import { formatUsdDecimal } from '@tunedrop/shared/money';
import { CLAIM_MESSAGES } from '@tunedrop/shared/schemas/content-id-claims';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, Spinner } from '../../../components/ui/card';
import { Pager } from '../../../components/ui/pager';
import { SearchInput } from '../../../components/ui/search-input';
import { notify } from '../../../components/ui/toast';
import { pageCountOf, SEARCH_DEBOUNCE_MS } from '../../../components/ui/use-list-params';
import { errorMessage } from '../../../lib/api';
import { formatDate, formatNumber } from '../../../lib/format';
import { useClaimsToRelease, useMarkClaimReleased } from '../api/claims';

export function ClaimsQueue() {
  // Paged on the server (issue 43 finding 11): an allow-listed channel can queue a report's every claim.
  const [page, setPage] = useState(1);
  const [searchText, setSearchText] = useState('');
  const [q, setQ] = useState('');
  // Typing searches once the keys rest (as the admin lists do); Enter searches at once.
  useEffect(() => {
    const timer = setTimeout(() => {
      setQ(searchText.trim());
      setPage(1);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchText]);
  const queue = useClaimsToRelease({ q, page });
  const markDone = useMarkClaimReleased();
  const pageCount = queue.data ? pageCountOf(queue.data.total, queue.data.pageSize) : 1;
  // Marking the last claim of the last page done leaves that page empty: show the one before.
  useEffect(() => {
    if (page > pageCount) setPage(pageCount);
  }, [page, pageCount]);
  return (
    <section aria-labelledby="claims-queue-title" className="space-y-3">
      <div>
        <h2 id="claims-queue-title" className="text-xl font-semibold text-white">
          Claims to release
        </h2>
        <p className="text-sm text-zinc-400">
          Release each claim in YouTube's CMS (Claims, find the video, Release), then mark it as done.
        </p>
      </div>
      <SearchInput
        label="Search claims to release by video, track title, ISRC or asset id"
        placeholder="Search by video, track, ISRC or asset id"
        value={searchText}
        onChange={setSearchText}
        onSubmit={() => {
          setQ(searchText.trim());
          setPage(1);
        }}
      />
      {queue.isPending ? (
        <Spinner className="text-brand-400" />
      ) : queue.isError ? (
        <p role="alert" className="text-sm text-red-400">
          {errorMessage(queue.error, 'The claims to release could not be loaded.')}
        </p>
      ) : queue.data.items.length === 0 ? (
        <Card>
          <p className="text-sm text-zinc-400">{q ? CLAIM_MESSAGES.noMatch : CLAIM_MESSAGES.queueEmpty}</p>
        </Card>
      ) : (
        <ul className="space-y-3" aria-label="Claims to release">
          {queue.data.items.map((claim) => (
            <li key={claim.id} data-testid="claim-to-release">
              <Card className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0 space-y-1 text-sm">
                  <p className="font-medium break-words text-zinc-100">
                    {claim.videoTitle ?? claim.videoId}{' '}
                    <span className="font-mono text-zinc-400">{claim.videoId}</span>
                  </p>
                  <p className="break-words text-zinc-400">
                    Channel: {claim.channelName ?? 'unknown'}{' '}
                    {claim.channelId ? <span className="font-mono">{claim.channelId}</span> : null}
                  </p>
                  <p className="break-words text-zinc-400">
                    {claim.artistName ?? claim.email} · {claim.trackTitle}
                    {claim.assetId ? <span className="font-mono"> · {claim.assetId}</span> : null}
                  </p>
                  <p className="text-zinc-300">
                    {formatNumber(claim.views)} views · {formatUsdDecimal(claim.earningsUsd)} ·{' '}
                    {claim.releaseReason === 'allow_list'
                      ? CLAIM_MESSAGES.allowListReason
                      : 'Asked by the artist'}
                    {claim.releaseRequestedAt ? ` on ${formatDate(claim.releaseRequestedAt)}` : ''}
                  </p>
                </div>
                <Button
                  size="sm"
                  aria-label={`Mark as done: ${claim.videoTitle ?? claim.videoId}`}
                  disabled={markDone.isPending}
                  onClick={() =>
                    markDone.mutate(claim.id, {
                      onSuccess: () => notify.success(CLAIM_MESSAGES.markedDone),
                      onError: (error) => notify.error(errorMessage(error, 'The claim could not be marked.')),
                    })
                  }
                >
                  Mark as done
                </Button>
              </Card>
            </li>
          ))}
        </ul>
      )}
      <Pager
        page={page}
        pageCount={pageCount}
        onPageChange={setPage}
        detail={queue.data ? `${queue.data.total} claims` : undefined}
      />
    </section>
  );
}
