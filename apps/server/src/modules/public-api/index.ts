/** The public API v1 (record 290): built by app.ts from the app's own routes. */
export { buildV1Routes } from './v1-routes';
export { V1_ROUTES, v1Path } from './v1-table';
