/**
 * Payouts' front door (issue 38, record 267). Nothing else imports the module yet: its routes, jobs,
 * job handlers and CLI are wired by the composition roots; the tax module reads payout_items through
 * db/schema.
 */
export {};
