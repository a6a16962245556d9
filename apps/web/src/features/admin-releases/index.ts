/**
 * Public entry of the admin releases feature (release review, record 061): the review list's query, which
 * the route loader prefetches beside the page's lazy chunk (record 210). Its pages are loaded by
 * app/router.tsx.
 */
export { reviewReleasesQuery } from './api/list-review-releases';
