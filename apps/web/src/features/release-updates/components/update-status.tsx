/**
 * The artist's view of a post-release update on the release page (record 197): "Update in review" with
 * what changes (the stores keep the current version meanwhile), or the reason a moderator gave for
 * turning the last one down.
 */
import { RELEASE_UPDATE_MESSAGES } from '@tunedrop/shared/schemas/release-updates';
import { Badge, Card } from '../../../components/ui/card';
import { useReleaseUpdate } from '../../../lib/release-updates';
import { UpdateDiff } from './update-diff';

export function ReleaseUpdateStatus({ releaseId }: { releaseId: string }) {
  const update = useReleaseUpdate(releaseId);
  const data = update.data;
  if (!data || data.state === 'approved') return null;
  if (data.state === 'rejected') {
    return (
      <Card className="space-y-1 border-red-500/30" role="status">
        <p className="text-sm font-medium text-red-200">Your last update was not approved</p>
        <p className="text-sm text-zinc-300">Reason: {data.rejectionReason}</p>
        <p className="text-xs text-zinc-400">
          The stores keep the release as it was. You can send another update.
        </p>
      </Card>
    );
  }
  return (
    <section aria-labelledby="update-in-review-title">
      <Card className="space-y-3 border-sky-500/30">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="update-in-review-title" className="text-lg font-semibold text-white">
            {RELEASE_UPDATE_MESSAGES.inReviewLabel}
          </h2>
          <Badge tone="blue">{RELEASE_UPDATE_MESSAGES.inReviewLabel}</Badge>
        </div>
        <p className="text-sm text-zinc-400">
          The stores keep the current version until a moderator approves this change.
        </p>
        <UpdateDiff changes={data.changes} />
      </Card>
    </section>
  );
}
