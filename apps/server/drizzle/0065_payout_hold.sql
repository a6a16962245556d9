-- Issue 43, finding 10 (record 229): a change of an account's payout details holds its withdrawals until
-- this time, so a team member (or a thief with a session) who points payouts at their own address cannot
-- withdraw before the owner, mailed at the change, can react. Null: no hold.
ALTER TABLE "profiles" ADD COLUMN "payout_hold_until" timestamp with time zone;
