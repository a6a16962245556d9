/** Public entry of post-release updates (record 197): what other features may use. */
export { useProposeUpdate, useReleaseUpdate } from './api/release-updates';
export { ReleaseUpdateReviews, UpdateInReviewBadge } from './components/update-reviews';
export { ReleaseUpdateStatus } from './components/update-status';
