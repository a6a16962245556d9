/**
 * Public entry of the releases feature (My Songs, Edit Release, a release's page): the My Songs query the
 * route loader prefetches, and the release page that app/pages/release-detail-page.tsx composes with the
 * sections of other features. The parts it shares with the builder live in features/release-form (record
 * 262).
 */
export { myReleasesQuery } from './api/list-my-releases';
export { ReleaseDetailView } from './components/release-detail';
