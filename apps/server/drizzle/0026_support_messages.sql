-- Priority support (issue 28, decision records 173 and 174): a signed-in user's messages to support, each
-- with the plan and reply-by time it was sent under (counted in the operator's time zone, which is kept
-- with the message so a later change of zone does not move a promise already made), and the staff
-- replies that were mailed to the user. The open list is read in reply-by order.
CREATE TABLE "support_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"plan" text NOT NULL,
	"time_zone" text NOT NULL,
	"reply_by" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_messages_plan_check" CHECK (plan in ('basic', 'pro'))
);
--> statement-breakpoint
CREATE TABLE "support_replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message_id" uuid NOT NULL,
	"author_id" text,
	"author_name" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "support_messages" ADD CONSTRAINT "support_messages_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_replies" ADD CONSTRAINT "support_replies_message_id_support_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."support_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_replies" ADD CONSTRAINT "support_replies_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "support_messages_user_created_idx" ON "support_messages" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "support_messages_open_reply_by_idx" ON "support_messages" USING btree ("reply_by","id") WHERE "support_messages"."answered_at" is null;--> statement-breakpoint
CREATE INDEX "support_messages_answered_idx" ON "support_messages" USING btree ("answered_at" DESC NULLS LAST,"id") WHERE "support_messages"."answered_at" is not null;--> statement-breakpoint
CREATE INDEX "support_replies_message_created_idx" ON "support_replies" USING btree ("message_id","created_at");
