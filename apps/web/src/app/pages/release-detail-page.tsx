/**
 * /dashboard/releases/:id (issue 15): the owner's release page (features/releases) with the sections of
 * the features beside it: the post-release update's status (features/release-updates), Content ID
 * (features/content-id) and the splits (features/splits). Composed here: features never import features
 * (issue 37).
 */
import { ReleaseContentIdSection } from '../../features/content-id';
import { ReleaseUpdateStatus } from '../../features/release-updates';
import { ReleaseDetailView } from '../../features/releases';
import { ReleaseSplitsSection } from '../../features/splits';

export default function ReleaseDetailPage() {
  return (
    <ReleaseDetailView
      updateStatus={(releaseId) => <ReleaseUpdateStatus releaseId={releaseId} />}
      sections={(releaseId) => (
        <>
          <ReleaseContentIdSection releaseId={releaseId} />
          <ReleaseSplitsSection releaseId={releaseId} />
        </>
      )}
    />
  );
}
