/**
 * Public entry of the releases feature (My Songs, Edit Release, a release's page): the My Songs query the
 * route loader prefetches. The parts it shares with the builder live in features/release-form (record 262).
 */
export { myReleasesQuery } from './api/list-my-releases';
