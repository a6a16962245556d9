-- Royalty splits (issue 17, decision record 140): payees invited per release, immutable split versions per
-- release (default) or track, recoupable expenses, and what each posting did with them. Versions are never
-- updated: a change is a new version, and a posting uses the newest version created before it was posted.
-- The set-up (payees, versions, shares, expenses) goes with its release or track; what postings did with it
-- (recoupments, allocations, settlements) is money history and restricts the delete.
CREATE TABLE "split_payees" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"release_id" uuid NOT NULL,
	"email" text NOT NULL,
	"user_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"accepted_at" timestamp with time zone,
	"withdrawn_at" timestamp with time zone,
	CONSTRAINT "split_payees_status_check" CHECK (status in ('pending', 'accepted', 'withdrawn')),
	CONSTRAINT "split_payees_accepted_consistent" CHECK ((status = 'accepted') = (user_id is not null and accepted_at is not null)),
	CONSTRAINT "split_payees_withdrawn_consistent" CHECK ((status = 'withdrawn') = (withdrawn_at is not null))
);
--> statement-breakpoint
ALTER TABLE "split_payees" ADD CONSTRAINT "split_payees_release_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "split_payees" ADD CONSTRAINT "split_payees_user_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "split_payees" ADD CONSTRAINT "split_payees_invited_by_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "split_payees_release_email_unique" ON "split_payees" USING btree ("release_id", lower("email")) WHERE status <> 'withdrawn';
--> statement-breakpoint
CREATE UNIQUE INDEX "split_payees_token_unique" ON "split_payees" USING btree ("token_hash");
--> statement-breakpoint
CREATE INDEX "split_payees_user_idx" ON "split_payees" USING btree ("user_id");
--> statement-breakpoint
CREATE TABLE "split_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"release_id" uuid NOT NULL,
	"track_id" uuid,
	"version" integer NOT NULL,
	"owner_percent" numeric(5, 2) NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "split_versions_owner_percent_check" CHECK (owner_percent >= 0 and owner_percent <= 100),
	CONSTRAINT "split_versions_version_check" CHECK (version >= 1)
);
--> statement-breakpoint
ALTER TABLE "split_versions" ADD CONSTRAINT "split_versions_release_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "split_versions" ADD CONSTRAINT "split_versions_track_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "split_versions" ADD CONSTRAINT "split_versions_created_by_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "split_versions_target_version_unique" ON "split_versions" USING btree ("release_id", coalesce("track_id", '00000000-0000-0000-0000-000000000000'::uuid), "version");
--> statement-breakpoint
CREATE INDEX "split_versions_release_created_idx" ON "split_versions" USING btree ("release_id", "created_at" DESC);
--> statement-breakpoint
CREATE TABLE "split_shares" (
	"version_id" uuid NOT NULL,
	"payee_id" uuid NOT NULL,
	"percent" numeric(5, 2) NOT NULL,
	CONSTRAINT "split_shares_pk" PRIMARY KEY("version_id","payee_id"),
	CONSTRAINT "split_shares_percent_check" CHECK (percent >= 0.01 and percent <= 100)
);
--> statement-breakpoint
ALTER TABLE "split_shares" ADD CONSTRAINT "split_shares_version_fk" FOREIGN KEY ("version_id") REFERENCES "public"."split_versions"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "split_shares" ADD CONSTRAINT "split_shares_payee_fk" FOREIGN KEY ("payee_id") REFERENCES "public"."split_payees"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "split_shares_payee_idx" ON "split_shares" USING btree ("payee_id");
--> statement-breakpoint
CREATE TABLE "release_expenses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"release_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"description" text NOT NULL,
	"spent_on" date NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "release_expenses_amount_check" CHECK (amount_cents > 0)
);
--> statement-breakpoint
ALTER TABLE "release_expenses" ADD CONSTRAINT "release_expenses_release_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "release_expenses" ADD CONSTRAINT "release_expenses_created_by_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "release_expenses_release_idx" ON "release_expenses" USING btree ("release_id", "spent_on");
--> statement-breakpoint
-- Whole cents of a release's expenses repaid to its owner by one posting, before splits apply.
CREATE TABLE "split_recoupments" (
	"import_id" uuid NOT NULL,
	"release_id" uuid NOT NULL,
	"owner_id" text NOT NULL,
	"cents" bigint NOT NULL,
	CONSTRAINT "split_recoupments_pk" PRIMARY KEY("import_id","release_id"),
	CONSTRAINT "split_recoupments_cents_check" CHECK (cents > 0)
);
--> statement-breakpoint
ALTER TABLE "split_recoupments" ADD CONSTRAINT "split_recoupments_import_fk" FOREIGN KEY ("import_id") REFERENCES "public"."royalty_imports"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "split_recoupments" ADD CONSTRAINT "split_recoupments_release_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "split_recoupments_release_idx" ON "split_recoupments" USING btree ("release_id");
--> statement-breakpoint
-- Per posting, per group of earnings lines (release, track, period) and per recipient: the exact amount
-- (recouped to the owner, or one payee's share of what was left). The lines of a group are the earnings
-- lines of that report with that release, track and period: every share traces to its lines.
CREATE TABLE "split_allocations" (
	"id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	"import_id" uuid NOT NULL,
	"owner_id" text NOT NULL,
	"release_id" uuid NOT NULL,
	"track_id" uuid,
	"period" text NOT NULL,
	"kind" text NOT NULL,
	"version_id" uuid,
	"payee_id" uuid,
	"percent" numeric(5, 2),
	"group_usd" numeric NOT NULL,
	"base_usd" numeric NOT NULL,
	"amount_usd" numeric NOT NULL,
	"held" boolean DEFAULT false NOT NULL,
	CONSTRAINT "split_allocations_kind_check" CHECK (kind in ('recoupment', 'share')),
	CONSTRAINT "split_allocations_share_consistent" CHECK ((kind = 'share') = (payee_id is not null and version_id is not null and percent is not null))
);
--> statement-breakpoint
ALTER TABLE "split_allocations" ADD CONSTRAINT "split_allocations_import_fk" FOREIGN KEY ("import_id") REFERENCES "public"."royalty_imports"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "split_allocations" ADD CONSTRAINT "split_allocations_payee_fk" FOREIGN KEY ("payee_id") REFERENCES "public"."split_payees"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "split_allocations_import_idx" ON "split_allocations" USING btree ("import_id");
--> statement-breakpoint
CREATE INDEX "split_allocations_payee_idx" ON "split_allocations" USING btree ("payee_id");
--> statement-breakpoint
CREATE INDEX "split_allocations_release_idx" ON "split_allocations" USING btree ("release_id");
--> statement-breakpoint
-- Per posting and payee: the exact sum of the payee's shares and the cents moved from the owner (truncated
-- toward zero; the owner keeps the sub-cent residue). Held while the payee has not accepted; released to
-- the payee on acceptance or returned to the owner by the first posting after the invitation is withdrawn.
CREATE TABLE "split_settlements" (
	"import_id" uuid NOT NULL,
	"payee_id" uuid NOT NULL,
	"owner_id" text NOT NULL,
	"payee_user_id" text,
	"amount_usd" numeric NOT NULL,
	"cents" bigint NOT NULL,
	"held" boolean NOT NULL,
	"released_to" text,
	"released_at" timestamp with time zone,
	"released_import_id" uuid,
	CONSTRAINT "split_settlements_pk" PRIMARY KEY("import_id","payee_id"),
	CONSTRAINT "split_settlements_released_check" CHECK (released_to is null or released_to in ('payee', 'owner')),
	CONSTRAINT "split_settlements_release_consistent" CHECK ((released_to is null) = (released_at is null) and (released_to is null or held)),
	CONSTRAINT "split_settlements_paid_has_user" CHECK (held or payee_user_id is not null)
);
--> statement-breakpoint
ALTER TABLE "split_settlements" ADD CONSTRAINT "split_settlements_import_fk" FOREIGN KEY ("import_id") REFERENCES "public"."royalty_imports"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "split_settlements" ADD CONSTRAINT "split_settlements_payee_fk" FOREIGN KEY ("payee_id") REFERENCES "public"."split_payees"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "split_settlements" ADD CONSTRAINT "split_settlements_owner_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "split_settlements" ADD CONSTRAINT "split_settlements_payee_user_fk" FOREIGN KEY ("payee_user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "split_settlements_payee_user_idx" ON "split_settlements" USING btree ("payee_user_id");
--> statement-breakpoint
CREATE INDEX "split_settlements_unreleased_idx" ON "split_settlements" USING btree ("payee_id") WHERE held and released_to is null;
--> statement-breakpoint
ALTER TABLE "royalty_postings" ADD COLUMN "split_out_cents" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "royalty_postings" ADD COLUMN "split_in_cents" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "balance_updates_log" DROP CONSTRAINT "balance_updates_log_type_check";
--> statement-breakpoint
ALTER TABLE "balance_updates_log" ADD CONSTRAINT "balance_updates_log_type_check" CHECK (update_type in ('manual', 'bulk_csv', 'cli', 'withdrawal_request', 'withdrawal_cancel', 'withdrawal_refund', 'royalty_import', 'split_release', 'split_return'));
--> statement-breakpoint
ALTER TABLE "balance_updates_log" DROP CONSTRAINT "balance_updates_log_royalty_import_consistent";
--> statement-breakpoint
ALTER TABLE "balance_updates_log" ADD CONSTRAINT "balance_updates_log_royalty_import_consistent" CHECK ((update_type in ('royalty_import', 'split_return')) = (royalty_import_id is not null));
