-- Lapsed accounts (issue 26 finding 8, decision record 196): what the lapse policy did for one lapse of
-- one account (the mail at the lapse, the warning, the takedown), one row per kind so each happens once.
CREATE TABLE "lapse_notices" (
	"user_id" text NOT NULL,
	"lapsed_at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lapse_notices_user_id_lapsed_at_kind_pk" PRIMARY KEY("user_id","lapsed_at","kind"),
	CONSTRAINT "lapse_notices_kind_check" CHECK (kind in ('lapse', 'warning', 'takedown'))
);
--> statement-breakpoint
ALTER TABLE "lapse_notices" ADD CONSTRAINT "lapse_notices_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;
