/** Webhooks (record 291): the Webhooks page is routed by app/router.tsx. */
export {};
