/**
 * /dashboard/content-id (record 193): the videos a Pro artist's Content ID tracks claim on YouTube, with
 * views and earnings from the imported YouTube reports, and the release of a claim after a confirmation.
 * A Basic artist sees the Pro gate; the server refuses the list and the release to them as well.
 */
import { formatUsdDecimal } from '@tunedrop/shared/money';
import {
  CLAIM_MESSAGES,
  CLAIM_STATUS_LABELS,
  type ContentIdClaimView,
} from '@tunedrop/shared/schemas/content-id-claims';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Badge, Card, PageLoader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { Pager } from '../../../components/ui/pager';
import { SearchInput } from '../../../components/ui/search-input';
import { notify } from '../../../components/ui/toast';
import { pageCountOf, useListParams, usePageClamp } from '../../../components/ui/use-list-params';
import { errorMessage } from '../../../lib/api';
import { formatDate, formatNumber } from '../../../lib/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { useContentIdClaims, useReleaseClaim } from '../api/claims';
import { ContentIdProGate, useContentIdAccess } from '../components/content-id-pro-gate';

const STATUS_TONE = { active: 'green', release_requested: 'yellow', released: 'neutral' } as const;

export default function ContentIdClaimsPage() {
  usePageTitle('Content ID claims');
  const access = useContentIdAccess();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-3xl font-bold text-white">Content ID claims</h1>
        <p className="mt-1 text-sm text-zinc-400">
          Videos on YouTube that use your Content ID tracks. Their earnings come to you with each YouTube
          report; release a claim to leave a video's earnings to its owner.
        </p>
      </div>
      {!access ? null : access.isAllowed ? <ClaimsList /> : <ContentIdProGate isPro={access.isPro} />}
    </div>
  );
}

const ONLY_TAB = ['all'] as const;

function ClaimsList() {
  // Paged and searched on the server (issue 43 finding 11); the page and search are in the URL.
  const list = useListParams({ tabs: ONLY_TAB, defaultTab: 'all' });
  const claims = useContentIdClaims(true, { q: list.q, page: list.page });
  const release = useReleaseClaim();
  const [releasing, setReleasing] = useState<ContentIdClaimView | null>(null);
  const pageCount = claims.data ? pageCountOf(claims.data.total, claims.data.pageSize) : undefined;
  usePageClamp(list, pageCount);
  if (claims.isPending) return <PageLoader />;
  if (claims.isError)
    return (
      <p role="alert" className="text-sm text-red-400">
        {errorMessage(claims.error, 'Your claims could not be loaded.')}
      </p>
    );
  if (claims.data.total === 0 && !list.q)
    return (
      <Card>
        <p className="text-sm text-zinc-400">{CLAIM_MESSAGES.noClaims}</p>
      </Card>
    );
  return (
    <>
      <SearchInput
        label="Search claims by video, track title, ISRC or asset id"
        placeholder="Search by video, track, ISRC or asset id"
        value={list.searchText}
        onChange={list.setSearchText}
        onSubmit={list.submitSearch}
      />
      {claims.data.items.length === 0 ? (
        <Card>
          <p className="text-sm text-zinc-400">{CLAIM_MESSAGES.noMatch}</p>
        </Card>
      ) : null}
      <ul className="space-y-3" aria-label="Claimed videos">
        {claims.data.items.map((claim) => (
          <li key={claim.id} data-testid="content-id-claim">
            <Card className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0 space-y-1">
                <p className="font-medium break-words text-zinc-100">
                  <a
                    href={`https://www.youtube.com/watch?v=${encodeURIComponent(claim.videoId)}`}
                    target="_blank"
                    rel="noreferrer"
                    className="underline decoration-zinc-600 underline-offset-2 hover:text-white"
                  >
                    {claim.videoTitle ?? claim.videoId}
                  </a>
                </p>
                <p className="text-sm break-words text-zinc-400">
                  Channel: {claim.channelName ?? claim.channelId ?? 'unknown'} · Track: {claim.trackTitle}
                </p>
                <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-zinc-300">
                  <span>{formatNumber(claim.views)} views</span>
                  <span data-testid="claim-earnings">{formatUsdDecimal(claim.earningsUsd)} earned</span>
                  <Badge tone={STATUS_TONE[claim.status]}>{CLAIM_STATUS_LABELS[claim.status]}</Badge>
                  {claim.releaseReason === 'allow_list' ? (
                    <span className="text-xs text-zinc-400">{CLAIM_MESSAGES.allowListReason}</span>
                  ) : null}
                  {claim.releasedAt ? (
                    <span className="text-xs text-zinc-400">on {formatDate(claim.releasedAt)}</span>
                  ) : null}
                </p>
              </div>
              {claim.status === 'active' ? (
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={`Release claim on ${claim.videoTitle ?? claim.videoId}`}
                  onClick={() => setReleasing(claim)}
                >
                  Release claim
                </Button>
              ) : null}
            </Card>
          </li>
        ))}
      </ul>
      <Pager
        page={list.page}
        pageCount={pageCount ?? 1}
        onPageChange={list.setPage}
        detail={`${claims.data.total} claims`}
      />
      <ConfirmDialog
        open={releasing !== null}
        onOpenChange={(open) => (open ? undefined : setReleasing(null))}
        title="Release this claim?"
        description={CLAIM_MESSAGES.releaseConfirm(releasing?.videoTitle ?? releasing?.videoId ?? '')}
        confirmLabel="Release claim"
        isDestructive
        isPending={release.isPending}
        onConfirm={() => {
          if (!releasing) return;
          release.mutate(releasing.id, {
            onSuccess: () => {
              notify.success(CLAIM_MESSAGES.released);
              setReleasing(null);
            },
            onError: (error) => notify.error(errorMessage(error, 'The claim could not be released.')),
          });
        }}
      />
    </>
  );
}
