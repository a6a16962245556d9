-- Issue 38, tax half (decision record 270): tax forms, treaty rates, withholding per payout line, and the non-US
-- regime's VAT registrations and self-billing invoices; the journal gains the account tax_withheld_payable.
-- Rules the database holds:
-- 1. A signed form never changes: an UPDATE may only move status (active -> superseded | invalidated) with its
--    reason and time; every other column, and DELETE, are refused. One active form per account.
-- 2. tax_withholding_lines is append-only (a reversal is a new row), like the journal it follows.
-- 3. Treaty rates are seeded from IRS Table 1 (royalties, income code 12) with the dates they apply; the
--    operator edits them by closing the row in force and adding another (modules/tax/treaty.ts, audited).
-- 4. Self-billing invoice numbers come from one counter row taken in the invoice's transaction: no gaps.
CREATE TABLE "tax_form_reminders" (
	"form_id" uuid NOT NULL,
	"days_before" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_form_reminders_pk" PRIMARY KEY("form_id","days_before")
);
--> statement-breakpoint
CREATE TABLE "tax_forms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"name" text NOT NULL,
	"country" text NOT NULL,
	"tin_masked" text NOT NULL,
	"is_certified" boolean NOT NULL,
	"is_backup_withholding" boolean DEFAULT false NOT NULL,
	"treaty_country" text,
	"treaty_article" text,
	"treaty_rate_percent" numeric,
	"canonical_encrypted" text NOT NULL,
	"sha256" text NOT NULL,
	"signature_name" text NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"signer_address" text,
	"signer_user_agent" text,
	"expires_on" date,
	"pdf" "bytea" NOT NULL,
	"status_reason" text,
	"status_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_forms_kind_check" CHECK (kind in ('w9', 'w8ben', 'w8bene')),
	CONSTRAINT "tax_forms_status_check" CHECK (status in ('active', 'superseded', 'invalidated'))
);
--> statement-breakpoint
CREATE TABLE "tax_invoice_counter" (
	"id" integer PRIMARY KEY NOT NULL,
	"last_number" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tax_invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigint NOT NULL,
	"user_id" text NOT NULL,
	"reference_type" text NOT NULL,
	"reference_id" text NOT NULL,
	"net_cents" bigint NOT NULL,
	"vat_rate_percent" numeric NOT NULL,
	"vat_cents" bigint NOT NULL,
	"total_cents" bigint NOT NULL,
	"pdf" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_invoices_reference_type_check" CHECK (reference_type in ('statement', 'payout'))
);
--> statement-breakpoint
CREATE TABLE "tax_residency" (
	"user_id" text PRIMARY KEY NOT NULL,
	"is_us_person" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tax_treaty_rates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"country" text NOT NULL,
	"income_code" text DEFAULT '12' NOT NULL,
	"rate_percent" numeric NOT NULL,
	"article" text NOT NULL,
	"effective_from" date NOT NULL,
	"effective_to" date,
	"source" text NOT NULL,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_treaty_rates_rate_range" CHECK (rate_percent >= 0 and rate_percent <= 30)
);
--> statement-breakpoint
CREATE TABLE "tax_vat_registrations" (
	"user_id" text PRIMARY KEY NOT NULL,
	"vat_number" text NOT NULL,
	"rate_percent" numeric NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tax_withholding_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"journal_transaction_id" uuid NOT NULL,
	"reference_type" text NOT NULL,
	"reference_id" text NOT NULL,
	"line_key" text NOT NULL,
	"territory" text,
	"gross_cents" bigint NOT NULL,
	"is_subject" boolean NOT NULL,
	"rate_percent" numeric NOT NULL,
	"withheld_cents" bigint NOT NULL,
	"basis" text NOT NULL,
	"report_form" text,
	"exemption_code" text,
	"tax_form_id" uuid,
	"paid_at" timestamp with time zone NOT NULL,
	"reverses_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_withholding_lines_form_check" CHECK (report_form is null or report_form in ('1099-misc', '1042-s'))
);
--> statement-breakpoint
ALTER TABLE "journal_entries" DROP CONSTRAINT "journal_entries_account_check";--> statement-breakpoint
ALTER TABLE "tax_form_reminders" ADD CONSTRAINT "tax_form_reminders_form_id_tax_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."tax_forms"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_forms" ADD CONSTRAINT "tax_forms_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_invoices" ADD CONSTRAINT "tax_invoices_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_residency" ADD CONSTRAINT "tax_residency_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_vat_registrations" ADD CONSTRAINT "tax_vat_registrations_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_withholding_lines" ADD CONSTRAINT "tax_withholding_lines_tax_form_id_tax_forms_id_fk" FOREIGN KEY ("tax_form_id") REFERENCES "public"."tax_forms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_forms_one_active" ON "tax_forms" USING btree ("user_id") WHERE status = 'active';--> statement-breakpoint
CREATE INDEX "tax_forms_user_idx" ON "tax_forms" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "tax_forms_expires_idx" ON "tax_forms" USING btree ("expires_on") WHERE status = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "tax_invoices_number_unique" ON "tax_invoices" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "tax_invoices_reference_unique" ON "tax_invoices" USING btree ("reference_type","reference_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tax_treaty_rates_from_unique" ON "tax_treaty_rates" USING btree ("country","income_code","effective_from");--> statement-breakpoint
CREATE INDEX "tax_withholding_lines_paid_idx" ON "tax_withholding_lines" USING btree ("paid_at");--> statement-breakpoint
CREATE INDEX "tax_withholding_lines_user_idx" ON "tax_withholding_lines" USING btree ("user_id","paid_at");--> statement-breakpoint
CREATE INDEX "tax_withholding_lines_journal_idx" ON "tax_withholding_lines" USING btree ("journal_transaction_id");--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_account_check" CHECK (account in ('store_receivable', 'artist_payable', 'withdrawals_payable', 'withdrawals_paid', 'payee_held', 'suspense', 'fee_income', 'operator_revenue', 'rounding_residue', 'manual_adjustments', 'tax_withheld_payable'));--> statement-breakpoint
ALTER TABLE "journal_entries" DROP CONSTRAINT "journal_entries_whole_cents";--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_whole_cents" CHECK (account not in ('artist_payable', 'withdrawals_payable', 'payee_held', 'tax_withheld_payable') or amount = trunc(amount, 2));
--> statement-breakpoint
CREATE FUNCTION tunedrop_tax_forms_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'tax_forms: a signed form is never deleted';
  END IF;
  IF (to_jsonb(NEW) - 'status' - 'status_reason' - 'status_at') IS DISTINCT FROM
     (to_jsonb(OLD) - 'status' - 'status_reason' - 'status_at') THEN
    RAISE EXCEPTION 'tax_forms: a signed form never changes (only its status may)';
  END IF;
  IF OLD.status <> 'active' AND NEW.status IS DISTINCT FROM OLD.status THEN
    RAISE EXCEPTION 'tax_forms: a % form stays %', OLD.status, OLD.status;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER tax_forms_immutable BEFORE UPDATE OR DELETE ON tax_forms
  FOR EACH ROW EXECUTE FUNCTION tunedrop_tax_forms_immutable();
--> statement-breakpoint
CREATE FUNCTION tunedrop_tax_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '%: append-only (% refused)', TG_TABLE_NAME, TG_OP;
END $$;
--> statement-breakpoint
CREATE TRIGGER tax_withholding_lines_append_only BEFORE UPDATE OR DELETE ON tax_withholding_lines
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_tax_append_only();
--> statement-breakpoint
CREATE TRIGGER tax_invoices_append_only BEFORE UPDATE OR DELETE ON tax_invoices
  FOR EACH STATEMENT EXECUTE FUNCTION tunedrop_tax_append_only();
--> statement-breakpoint
INSERT INTO tax_invoice_counter (id, last_number) VALUES (1, 0);
--> statement-breakpoint
INSERT INTO tax_treaty_rates (country, income_code, rate_percent, article, effective_from, effective_to, source) VALUES
('AM', '12', 0, 'III(1)(a)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('AU', '12', 5, '12(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('AT', '12', 0, '12(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('AZ', '12', 0, 'III(1)(a)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('BD', '12', 10, '12(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('BB', '12', 5, '12(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('BY', '12', 0, 'III(1)(a)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('BE', '12', 0, '12(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('BG', '12', 5, '12(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('CA', '12', 0, 'XII(3)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('CN', '12', 10, '11(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('CY', '12', 0, '14(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('CZ', '12', 0, '12(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('DK', '12', 0, '12(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('EG', '12', 15, '13(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('EE', '12', 10, '12(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('FI', '12', 0, '12(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('FR', '12', 0, '12(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('GE', '12', 0, 'III(1)(a)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('DE', '12', 0, '12(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('GR', '12', 0, 'VII', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('HU', '12', 0, '11', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('IS', '12', 0, '12(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('IN', '12', 15, '12(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('ID', '12', 10, '13(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('IE', '12', 0, '12(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('IL', '12', 10, '14(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('IT', '12', 5, '12(2)(a)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('JM', '12', 10, '12(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('JP', '12', 0, '12(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('KZ', '12', 10, '12(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('KR', '12', 10, '14(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('KG', '12', 0, 'III(1)(a)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('LV', '12', 10, '12(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('LT', '12', 10, '12(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('LU', '12', 0, '13(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('MT', '12', 10, '12(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('MX', '12', 10, '12(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('MD', '12', 0, 'III(1)(a)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('MA', '12', 10, '12(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('NL', '12', 0, '13(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('NZ', '12', 5, '12(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('NO', '12', 0, '10(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('PK', '12', 0, 'VIII(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('PH', '12', 15, '13(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('PL', '12', 10, '13(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('PT', '12', 10, '13(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('RO', '12', 10, '12(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('SK', '12', 0, '12(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('SI', '12', 5, '12(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('ZA', '12', 0, '12(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('LK', '12', 10, '12(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('SE', '12', 0, '12(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('CH', '12', 0, '12(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('TJ', '12', 0, 'III(1)(a)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('TH', '12', 5, '12(2)(a)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('TT', '12', 0, '14(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('TN', '12', 15, '12(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('TR', '12', 10, '12(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('UA', '12', 10, '12(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('GB', '12', 0, '12(1)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('UZ', '12', 0, 'III(1)(a)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('VE', '12', 10, '12(2)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('TM', '12', 0, 'III(1)(a)', '2000-01-01', NULL, 'IRS Table 1, income code 12 (seeded)'),
('ES', '12', 5, '12(2)(b)', '2000-01-01', '2019-11-26', 'IRS Table 1, income code 12 (seeded)'),
('ES', '12', 0, '12(1)', '2019-11-27', NULL, 'IRS Table 1, income code 12 (seeded): 2013 protocol in force 2019-11-27');
