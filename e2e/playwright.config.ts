/** Playwright drives Debian's Chromium against the built app on a free port with a fresh DATA_DIR. */
import { defineConfig } from '@playwright/test';
import { e2eEnv } from './support/env';

/**
 * Journeys that change what every page shows (the operator's brand, record 203; the lapse policy, which every
 * lapsed artist's banner states, issue 44): they run alone, after all the others, so no journey asserting
 * the spec's texts meets them half-way. A payout run by the admin (issue 38) pays every balance due, so it
 * runs here too, never beside journeys whose balances it would sweep.
 */
const SITE_WIDE = /(brand-settings|lapse-policy|payouts-admin)\.spec\.ts$/;
/**
 * Issue 38's Done-when run (four payees, the no-W-9 policy switched and back, every balance due paid): after
 * the site-wide journeys, so no other admin run or preview meets it half-way.
 */
const PAYOUTS_DONE_WHEN = /payouts-done-when\.spec\.ts$/;
/** The money journal checked after every journey moved money (issue 36): last of all. */
const LEDGER = /ledger-verify\.spec\.ts$/;

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  // The journey files that take longest, named at the end of the run (CI's time goal, record 282).
  reportSlowTests: { max: 12, threshold: 40_000 },
  use: {
    baseURL: e2eEnv.baseUrl,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: e2eEnv.chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'journeys', testIgnore: [SITE_WIDE, PAYOUTS_DONE_WHEN, LEDGER] },
    { name: 'site-wide', testMatch: SITE_WIDE, dependencies: ['journeys'] },
    { name: 'payouts-done-when', testMatch: PAYOUTS_DONE_WHEN, dependencies: ['site-wide'] },
    { name: 'ledger', testMatch: LEDGER, dependencies: ['payouts-done-when'] },
  ],
  webServer: {
    // The e2e bundle (npm run build): the production server plus the test-fixtures router (record 093).
    command: 'node apps/server/dist/main-e2e.js',
    cwd: '..',
    url: `${e2eEnv.baseUrl}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: e2eEnv.serverEnv,
  },
});
