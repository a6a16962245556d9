/**
 * The end-to-end entry: the production server plus the test-fixtures router (mounted only when
 * E2E_FIXTURES_TOKEN is set outside production). main.ts never imports the fixtures, so the production
 * bundle does not contain them.
 */
import { enableTestFixtures } from './app';
import { testFixturesRoutes } from './modules/test-fixtures/routes';

enableTestFixtures(testFixturesRoutes);
await import('./main');
