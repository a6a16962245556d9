-- Issue 22 findings 15 and 16 (records 153, 154).
-- The SFTP host key a target is pinned to: SHA-256 as OpenSSH prints it (`SHA256:` + 43 base64
-- characters), given by the admin or recorded at the first connection; null until then.
ALTER TABLE "delivery_targets" ADD COLUMN "host_key_sha256" text;--> statement-breakpoint
ALTER TABLE "delivery_targets" ADD COLUMN "host_key_recorded_at" timestamp with time zone;--> statement-breakpoint
-- One id per claim: a lease renewal must match owner and id, so a worker that lost its job (and one
-- that claimed it again after losing it) can tell.
ALTER TABLE "deliveries" ADD COLUMN "lease_id" uuid;
