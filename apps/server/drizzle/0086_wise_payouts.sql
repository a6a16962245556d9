ALTER TABLE "profiles" DROP CONSTRAINT "profiles_payment_method_check";--> statement-breakpoint
ALTER TABLE "payout_batches" DROP CONSTRAINT "payout_batches_provider_check";--> statement-breakpoint
ALTER TABLE "payout_items" DROP CONSTRAINT "payout_items_provider_check";--> statement-breakpoint
ALTER TABLE "payout_providers" DROP CONSTRAINT "payout_providers_provider_check";--> statement-breakpoint
ALTER TABLE "withdrawal_requests" DROP CONSTRAINT "withdrawal_requests_method_check";--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_payment_method_check" CHECK (payment_method is null or payment_method in ('bank', 'paypal', 'stripe', 'wise'));--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_provider_check" CHECK (provider in ('bank-csv', 'paypal', 'stripe', 'wise'));--> statement-breakpoint
ALTER TABLE "payout_items" ADD CONSTRAINT "payout_items_provider_check" CHECK (provider is null or provider in ('bank-csv', 'paypal', 'stripe', 'wise'));--> statement-breakpoint
ALTER TABLE "payout_providers" ADD CONSTRAINT "payout_providers_provider_check" CHECK (provider in ('bank-csv', 'paypal', 'stripe', 'wise'));--> statement-breakpoint
ALTER TABLE "withdrawal_requests" ADD CONSTRAINT "withdrawal_requests_method_check" CHECK (payment_method in ('bank', 'paypal', 'stripe', 'wise'));