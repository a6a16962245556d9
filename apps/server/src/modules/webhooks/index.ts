/** Webhooks (record 291): endpoints, signing and sending; events come in through `webhook-outbox`. */
export {};
