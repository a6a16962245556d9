/**
 * Release delivery (issue 15): operator settings for codes and the DDEX sender, delivery targets
 * (SFTP / S3 / folder), per-release-per-target deliveries with their attempts and acknowledgements,
 * per-store takedowns, and the artist's release detail page. Used by both sides.
 *
 * Routes served by `apps/server/src/modules/delivery/routes.ts` (JSON unless noted):
 *
 * Admin only (`access('admin')`):
 *   GET    /api/admin/settings                          → DeliverySettingsView
 *   PUT    /api/admin/settings          SettingsInput   → DeliverySettingsView
 *   GET    /api/admin/delivery/targets                  → { items: DeliveryTargetView[] }
 *   POST   /api/admin/delivery/targets  TargetInput     → DeliveryTargetView (201)
 *   PATCH  /api/admin/delivery/targets/:id TargetPatch  → DeliveryTargetView
 *   DELETE /api/admin/delivery/targets/:id[?takeDown=all] → TargetRemoveResult: 409 while it holds releases;
 *                                                          takeDown=all → 202, takedowns queued (record 177)
 *   POST   /api/admin/delivery/targets/:id/test         → TargetTestResult (200 even when it fails: read `ok`)
 *   GET    /api/admin/delivery/unmatched-acks           → { items: AckView[] } (acks for unknown messages / malformed)
 *   GET    /api/admin/deliveries?state=&targetId=&releaseId=&cursor=&limit= → DeliveryListResponse
 *   GET    /api/admin/deliveries/:id                    → DeliveryDetail
 *   GET    /api/admin/deliveries/:id/attempts/:attemptId/package → application/zip (the exact files sent)
 *   POST   /api/admin/deliveries/:id/retry              → DeliveryListItem (queued again, attempts reset)
 *   POST   /api/admin/releases/:id/takedown  AdminTakedownInput → { deliveries: DeliveryListItem[] }
 *          {} = every target; {targetId} = that target only; {platformId} = that one store only
 *          (also fulfils an artist's per-store request for that store).
 *
 * Artist, owner only (`access('user')` + ownership in the service; 404 for someone else's release):
 *   GET    /api/releases/:id/detail                     → ReleaseDetail
 *   POST   /api/releases/:id/store-takedowns StoreTakedownInput → ReleaseDetail (201)
 *
 * Errors: the app's error JSON; 422 validation (with `fields`, messages from DELIVERY_MESSAGES), 404, 409 (state).
 *
 * Split by concern in `delivery/` (issue 23); this file is their one entry, with the same exports.
 */
export * from './delivery/codes';
export * from './delivery/deliveries';
export * from './delivery/messages';
export * from './delivery/release-detail';
export * from './delivery/settings';
export * from './delivery/targets';
