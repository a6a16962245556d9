/**
 * Public entry of the admin releases feature (release review, record 061): the review list's query, which
 * the route loader prefetches beside the page's lazy chunk (record 210), and the review that
 * app/pages/admin-releases-page.tsx composes with the notices of other features.
 */
export { reviewReleasesQuery } from './api/list-review-releases';
export { ReleaseReviewView } from './components/release-review';
