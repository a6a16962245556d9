/**
 * Public entry of post-release updates (record 197): the reviewers' list and badge for the release review
 * page and the owner's status for the release page, both composed in app/pages (features never import
 * features, issue 37). The owner's reads and the proposal are lib/release-updates.ts.
 */
export { ReleaseUpdateReviews, UpdateInReviewBadge } from './components/update-reviews';
export { ReleaseUpdateStatus } from './components/update-status';
