-- Advances and recoupable costs per label contract (issue 39, record 286): recouped from the payee's royalties
-- at posting before any is paid; each settlement keeps the cents that went back to the label.
CREATE TABLE "contract_advances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"contract_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"recoupable_percent" numeric DEFAULT '100' NOT NULL,
	"recoupable_cents" bigint NOT NULL,
	"memo" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contract_advances_kind_check" CHECK (kind in ('advance', 'recording', 'video', 'marketing', 'opening_balance')),
	CONSTRAINT "contract_advances_amount_positive" CHECK (amount_cents > 0),
	CONSTRAINT "contract_advances_percent_range" CHECK (recoupable_percent >= 0 and recoupable_percent <= 100),
	CONSTRAINT "contract_advances_recoupable_range" CHECK (recoupable_cents >= 0 and recoupable_cents <= amount_cents)
);
--> statement-breakpoint
ALTER TABLE "contract_settlements" ADD COLUMN "recouped_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "contract_advances" ADD CONSTRAINT "contract_advances_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_advances" ADD CONSTRAINT "contract_advances_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contract_advances_contract_idx" ON "contract_advances" USING btree ("contract_id");--> statement-breakpoint
ALTER TABLE "contract_settlements" ADD CONSTRAINT "contract_settlements_recouped_range" CHECK (recouped_cents >= 0 and recouped_cents <= greatest(cents, 0));