-- Issue 22 findings 4 and 8 (record 147): one row per split invitation mail sent, so the limits per
-- sending account and per invited address are counted in the database and hold across restarts and
-- instances. No foreign key to the release: deleting a release must not give its owner their quota back.
CREATE TABLE "split_invitation_sends" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "split_invitation_sends_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"sender_id" text NOT NULL,
	"email" text NOT NULL,
	"release_id" uuid,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "split_invitation_sends" ADD CONSTRAINT "split_invitation_sends_sender_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "split_invitation_sends_sender_idx" ON "split_invitation_sends" USING btree ("sender_id","created_at");--> statement-breakpoint
CREATE INDEX "split_invitation_sends_email_idx" ON "split_invitation_sends" USING btree ("email","created_at");
