/**
 * Test-only seeding routes for the journeys (mounted only when E2E_FIXTURES_TOKEN is set outside
 * production). No other module uses a part of it, so this front door offers nothing yet: its routes are
 * wired by main-e2e.ts and the access tests. What another module comes to need of it is exported here and
 * imported from here.
 */
export {};
