/**
 * The API's type, for the web app's `hc<AppType>()` (record 090). Type-only: importing it brings no server
 * code into the web bundle. Import as `import type { AppType } from '@tunedrop/server/app-type'`.
 */
export type { AppType } from './app';
