CREATE TABLE "payout_stripe_accounts" (
	"user_id" text PRIMARY KEY NOT NULL,
	"stripe_account_id" text NOT NULL,
	"details_submitted" boolean DEFAULT false NOT NULL,
	"transfers_active" boolean DEFAULT false NOT NULL,
	"payouts_enabled" boolean DEFAULT false NOT NULL,
	"state_at" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_stripe_accounts_stripe_account_id_unique" UNIQUE("stripe_account_id")
);
--> statement-breakpoint
ALTER TABLE "profiles" DROP CONSTRAINT "profiles_payment_method_check";--> statement-breakpoint
ALTER TABLE "payout_batches" DROP CONSTRAINT "payout_batches_provider_check";--> statement-breakpoint
ALTER TABLE "payout_items" DROP CONSTRAINT "payout_items_provider_check";--> statement-breakpoint
ALTER TABLE "payout_providers" DROP CONSTRAINT "payout_providers_provider_check";--> statement-breakpoint
ALTER TABLE "withdrawal_requests" DROP CONSTRAINT "withdrawal_requests_method_check";--> statement-breakpoint
ALTER TABLE "payout_stripe_accounts" ADD CONSTRAINT "payout_stripe_accounts_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_payment_method_check" CHECK (payment_method is null or payment_method in ('bank', 'paypal', 'stripe'));--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_provider_check" CHECK (provider in ('bank-csv', 'paypal', 'stripe'));--> statement-breakpoint
ALTER TABLE "payout_items" ADD CONSTRAINT "payout_items_provider_check" CHECK (provider is null or provider in ('bank-csv', 'paypal', 'stripe'));--> statement-breakpoint
ALTER TABLE "payout_providers" ADD CONSTRAINT "payout_providers_provider_check" CHECK (provider in ('bank-csv', 'paypal', 'stripe'));--> statement-breakpoint
ALTER TABLE "withdrawal_requests" ADD CONSTRAINT "withdrawal_requests_method_check" CHECK (payment_method in ('bank', 'paypal', 'stripe'));