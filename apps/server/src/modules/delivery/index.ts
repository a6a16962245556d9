/**
 * Delivery's front door: what other modules ask of it. Planning (a release's events, and the deliveries an
 * approval, an update, a Content ID change or a takedown queues), the "needs action" overlay of store
 * rejections, and one pass of the worker (test fixtures). Its routes, jobs and CLI are wired by the
 * composition roots.
 */

export { promoteReleases } from './acknowledgements';
export { releaseStoreRejections, storeRejectionsOf, storeRejectionsSql } from './needs-action';
export {
  addEvent,
  afterReleaseDecision,
  assertNotAtStores,
  queueContentIdUpdate,
  queueNewDeliveries,
  queueReleaseUpdate,
  queueTakedowns,
} from './planning';
/** The address rules of delivery targets (record 227), which webhook endpoints share (record 291). */
export { allowedAddresses, guardedLookup, TargetAddressRefusedError } from './target-address';
export { runDeliveryOnce } from './worker';
