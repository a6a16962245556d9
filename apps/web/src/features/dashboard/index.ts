/**
 * Public entry of the dashboard feature (the signed-in home): its figures' query, which the route loader
 * prefetches beside the page's lazy chunk (record 210). Its page is loaded by app/router.tsx.
 */
export { dashboardStatsQuery } from './api/stats';
