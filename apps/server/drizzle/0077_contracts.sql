-- Label contracts (issue 39, record 285): contracts binding a payee account to a label's releases, their
-- ordered terms, and what each posting applied (per contract and term) and credited (per contract).
CREATE TABLE "contract_releases" (
	"contract_id" uuid NOT NULL,
	"release_id" uuid NOT NULL,
	CONSTRAINT "contract_releases_contract_id_release_id_pk" PRIMARY KEY("contract_id","release_id")
);
--> statement-breakpoint
CREATE TABLE "contract_royalties" (
	"import_id" uuid NOT NULL,
	"contract_id" uuid NOT NULL,
	"term_position" integer,
	"release_id" uuid NOT NULL,
	"track_id" uuid,
	"period" text NOT NULL,
	"lines" bigint NOT NULL,
	"gross_usd" numeric NOT NULL,
	"basis" text NOT NULL,
	"basis_usd" numeric NOT NULL,
	"rate" numeric NOT NULL,
	"royalty_usd" numeric NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract_settlements" (
	"import_id" uuid NOT NULL,
	"contract_id" uuid NOT NULL,
	"label_id" text NOT NULL,
	"payee_user_id" text NOT NULL,
	"royalty_usd" numeric NOT NULL,
	"cents" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contract_settlements_import_id_contract_id_pk" PRIMARY KEY("import_id","contract_id")
);
--> statement-breakpoint
CREATE TABLE "contract_terms" (
	"contract_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"territories" text[] DEFAULT '{}'::text[] NOT NULL,
	"channel" text,
	"store" text,
	"starts_on" date,
	"ends_on" date,
	"basis" text NOT NULL,
	"rate" numeric NOT NULL,
	CONSTRAINT "contract_terms_contract_id_position_pk" PRIMARY KEY("contract_id","position"),
	CONSTRAINT "contract_terms_channel_check" CHECK (channel in ('stream', 'download', 'physical', 'sync', 'ugc')),
	CONSTRAINT "contract_terms_basis_check" CHECK (basis in ('gross', 'net')),
	CONSTRAINT "contract_terms_rate_range" CHECK (rate >= 0 and rate <= 100),
	CONSTRAINT "contract_terms_dates" CHECK (ends_on is null or starts_on is null or ends_on >= starts_on)
);
--> statement-breakpoint
CREATE TABLE "contracts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"label_id" text NOT NULL,
	"payee_user_id" text NOT NULL,
	"deal_type" text DEFAULT 'royalty' NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date,
	"default_basis" text,
	"default_rate" numeric,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contracts_deal_type_check" CHECK (deal_type in ('royalty')),
	CONSTRAINT "contracts_currency_check" CHECK (currency = 'USD'),
	CONSTRAINT "contracts_default_basis_check" CHECK (default_basis in ('gross', 'net')),
	CONSTRAINT "contracts_default_complete" CHECK ((default_basis is null) = (default_rate is null)),
	CONSTRAINT "contracts_default_rate_range" CHECK (default_rate >= 0 and default_rate <= 100),
	CONSTRAINT "contracts_dates" CHECK (ends_on is null or ends_on >= starts_on),
	CONSTRAINT "contracts_two_parties" CHECK (label_id <> payee_user_id)
);
--> statement-breakpoint
ALTER TABLE "contract_releases" ADD CONSTRAINT "contract_releases_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_releases" ADD CONSTRAINT "contract_releases_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_royalties" ADD CONSTRAINT "contract_royalties_import_id_royalty_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."royalty_imports"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_royalties" ADD CONSTRAINT "contract_royalties_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_settlements" ADD CONSTRAINT "contract_settlements_import_id_royalty_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."royalty_imports"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_settlements" ADD CONSTRAINT "contract_settlements_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_terms" ADD CONSTRAINT "contract_terms_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_label_id_user_id_fk" FOREIGN KEY ("label_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_payee_user_id_user_id_fk" FOREIGN KEY ("payee_user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contract_releases_release_unique" ON "contract_releases" USING btree ("release_id");--> statement-breakpoint
CREATE INDEX "contract_royalties_import_idx" ON "contract_royalties" USING btree ("import_id");--> statement-breakpoint
CREATE INDEX "contract_royalties_contract_idx" ON "contract_royalties" USING btree ("contract_id");--> statement-breakpoint
CREATE INDEX "contract_settlements_payee_idx" ON "contract_settlements" USING btree ("payee_user_id");--> statement-breakpoint
CREATE INDEX "contracts_label_idx" ON "contracts" USING btree ("label_id");--> statement-breakpoint
CREATE INDEX "contracts_payee_idx" ON "contracts" USING btree ("payee_user_id");