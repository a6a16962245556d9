-- Ownership transfer (issue 27, decision record 205): an account's id stays its founder's user id; a row
-- here names the owner once ownership was transferred (no row: the founder owns it). The former owner
-- becomes an Admin member, so a member row may now be the founder's own account.
CREATE TABLE "account_owners" (
	"account_id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"transferred_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_owners" ADD CONSTRAINT "account_owners_account_id_user_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "account_owners" ADD CONSTRAINT "account_owners_owner_id_user_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "account_owners_owner_idx" ON "account_owners" USING btree ("owner_id");
--> statement-breakpoint
ALTER TABLE "account_members" DROP CONSTRAINT "account_members_not_owner_check";
