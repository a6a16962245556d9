-- Payee accounts (issue 27, decision record 175): whether an account is a payee asks, for accounts that
-- never subscribed, whether a pending split invitation is addressed to them. This index answers that by
-- address without reading every invitation (the unique index leads with the release).
CREATE INDEX "split_payees_pending_email_idx" ON "split_payees" USING btree (lower("email")) WHERE status = 'pending';
