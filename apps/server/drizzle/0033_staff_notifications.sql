-- Staff notifications (issue 26 finding 3, decision record 179): each staff user's choice per kind of
-- event (at once, daily digest, off; a kind without a row is mailed at once), and the events waiting
-- for a user's daily digest, read per user among those not sent yet.
CREATE TABLE "staff_notification_preferences" (
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"mode" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_notification_preferences_user_id_kind_pk" PRIMARY KEY("user_id","kind"),
	CONSTRAINT "staff_notification_preferences_kind_check" CHECK (kind in ('release_submitted', 'takedown_requested', 'withdrawal_requested', 'delivery_failed', 'store_rejected', 'ack_unreadable')),
	CONSTRAINT "staff_notification_preferences_mode_check" CHECK (mode in ('immediate', 'digest', 'off'))
);
--> statement-breakpoint
CREATE TABLE "staff_notification_digest_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"summary" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "staff_notification_digest_items_kind_check" CHECK (kind in ('release_submitted', 'takedown_requested', 'withdrawal_requested', 'delivery_failed', 'store_rejected', 'ack_unreadable'))
);
--> statement-breakpoint
ALTER TABLE "staff_notification_preferences" ADD CONSTRAINT "staff_notification_preferences_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "staff_notification_digest_items" ADD CONSTRAINT "staff_notification_digest_items_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "staff_notification_digest_items_unsent_idx" ON "staff_notification_digest_items" USING btree ("user_id","created_at") WHERE "staff_notification_digest_items"."sent_at" is null;
