CREATE TABLE "payout_detail_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" text NOT NULL,
	"requested_by" text,
	"payment_method" text NOT NULL,
	"payment_details_encrypted" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_detail_changes_account_id_unique" UNIQUE("account_id"),
	CONSTRAINT "payout_detail_changes_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "payout_detail_changes_method_check" CHECK (payment_method in ('bank', 'paypal', 'stripe', 'wise'))
);
--> statement-breakpoint
ALTER TABLE "payout_detail_changes" ADD CONSTRAINT "payout_detail_changes_account_id_profiles_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_detail_changes" ADD CONSTRAINT "payout_detail_changes_requested_by_user_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;