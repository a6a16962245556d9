/**
 * /admin/releases, Release Review (spec 02 §2, §4, §8; features/admin-releases) with the notices and badges
 * of the features beside it: for admins, the stores no target serves (features/delivery, issue 44), and
 * the post-release updates waiting for a decision (features/release-updates, record 197). Composed here:
 * features never import features (issue 37).
 */
import { ReleaseReviewView } from '../../features/admin-releases';
import { UnconnectedStoresWarning } from '../../features/delivery';
import { ReleaseUpdateReviews, UpdateInReviewBadge } from '../../features/release-updates';
import { useViewer, viewerFacts } from '../../lib/viewer';

export default function AdminReleasesPage() {
  const viewer = useViewer().data;
  const isAdmin = viewer ? viewerFacts(viewer).isAdmin : false;
  return (
    <ReleaseReviewView
      notices={
        <>
          <UnconnectedStoresWarning isEnabled={isAdmin} linksToDelivery />
          <ReleaseUpdateReviews />
        </>
      }
      updateBadge={(releaseId) => <UpdateInReviewBadge releaseId={releaseId} />}
    />
  );
}
