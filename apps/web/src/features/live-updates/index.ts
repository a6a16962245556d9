/** Public entry of the live-updates feature (GET /api/events, served by modules/live-updates). */
export { useLiveUpdates } from './hooks/use-live-updates';
