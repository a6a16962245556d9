-- Release delivery (issue 15, decision records 100-103): operator settings, the code registry and
-- per-year counters, delivery targets (credentials encrypted), per-release-per-target deliveries with
-- their attempts and acknowledgements, per-store takedowns and the release status history.
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "code_counters" (
	"kind" text NOT NULL,
	"scope" text NOT NULL,
	"last_value" bigint NOT NULL,
	CONSTRAINT "code_counters_pk" PRIMARY KEY("kind","scope"),
	CONSTRAINT "code_counters_kind_check" CHECK (kind in ('isrc', 'upc'))
);
--> statement-breakpoint
CREATE TABLE "assigned_codes" (
	"kind" text NOT NULL,
	"code" text NOT NULL,
	"source" text NOT NULL,
	"release_id" uuid,
	"track_id" uuid,
	"assigned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "assigned_codes_pk" PRIMARY KEY("kind","code"),
	CONSTRAINT "assigned_codes_kind_check" CHECK (kind in ('isrc', 'upc')),
	CONSTRAINT "assigned_codes_source_check" CHECK (source in ('assigned', 'artist'))
);
--> statement-breakpoint
CREATE INDEX "assigned_codes_release_idx" ON "assigned_codes" USING btree ("release_id");
--> statement-breakpoint
CREATE TABLE "delivery_targets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"scheme" text NOT NULL,
	"url_masked" text NOT NULL,
	"secret" text NOT NULL,
	"dpid" text NOT NULL,
	"platforms" text[],
	"profile" text DEFAULT 'release' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"has_password" boolean DEFAULT false NOT NULL,
	"has_private_key" boolean DEFAULT false NOT NULL,
	"has_own_s3" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_targets_scheme_check" CHECK (scheme in ('sftp', 's3', 'file')),
	CONSTRAINT "delivery_targets_profile_check" CHECK (profile in ('release', 'batch'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_targets_name_unique" ON "delivery_targets" USING btree (lower("name")) WHERE deleted_at is null;
--> statement-breakpoint
CREATE TABLE "deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"release_id" uuid NOT NULL,
	"target_id" uuid NOT NULL,
	"action" text DEFAULT 'new' NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"platforms" text[] DEFAULT '{}'::text[] NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 6 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"lease_owner" text,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"acknowledged_at" timestamp with time zone,
	"state_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deliveries_action_check" CHECK (action in ('new', 'update', 'takedown')),
	CONSTRAINT "deliveries_state_check" CHECK (state in ('queued', 'uploading', 'delivered', 'acknowledged', 'rejected', 'failed', 'takedown_queued', 'takedown_sent', 'taken_down'))
);
--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_target_id_delivery_targets_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."delivery_targets"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_release_target_unique" ON "deliveries" USING btree ("release_id","target_id");
--> statement-breakpoint
CREATE INDEX "deliveries_due_idx" ON "deliveries" USING btree ("next_attempt_at") WHERE state in ('queued', 'takedown_queued', 'uploading');
--> statement-breakpoint
CREATE INDEX "deliveries_state_updated_idx" ON "deliveries" USING btree ("state","updated_at","id");
--> statement-breakpoint
CREATE INDEX "deliveries_target_idx" ON "deliveries" USING btree ("target_id","updated_at","id");
--> statement-breakpoint
CREATE TABLE "delivery_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"delivery_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"action" text NOT NULL,
	"message_id" text NOT NULL,
	"batch_id" text,
	"remote_path" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"outcome" text DEFAULT 'running' NOT NULL,
	"error" text,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"message_xml" text DEFAULT '' NOT NULL,
	"files" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "delivery_attempts_outcome_check" CHECK (outcome in ('running', 'uploaded', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "delivery_attempts" ADD CONSTRAINT "delivery_attempts_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_attempts_message_id_unique" ON "delivery_attempts" USING btree ("message_id");
--> statement-breakpoint
CREATE INDEX "delivery_attempts_delivery_idx" ON "delivery_attempts" USING btree ("delivery_id","number");
--> statement-breakpoint
CREATE TABLE "delivery_acks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"target_id" uuid NOT NULL,
	"delivery_id" uuid,
	"attempt_id" uuid,
	"remote_path" text NOT NULL,
	"file_name" text NOT NULL,
	"size" bigint DEFAULT 0 NOT NULL,
	"outcome" text NOT NULL,
	"message_id" text,
	"status" text,
	"error_text" text,
	"text" text DEFAULT '' NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_acks_outcome_check" CHECK (outcome in ('accepted', 'rejected', 'unknown_message', 'malformed'))
);
--> statement-breakpoint
ALTER TABLE "delivery_acks" ADD CONSTRAINT "delivery_acks_target_id_delivery_targets_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."delivery_targets"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "delivery_acks" ADD CONSTRAINT "delivery_acks_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "delivery_acks" ADD CONSTRAINT "delivery_acks_attempt_id_delivery_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."delivery_attempts"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_acks_target_path_unique" ON "delivery_acks" USING btree ("target_id","remote_path");
--> statement-breakpoint
CREATE INDEX "delivery_acks_attempt_idx" ON "delivery_acks" USING btree ("attempt_id");
--> statement-breakpoint
CREATE TABLE "release_store_takedowns" (
	"release_id" uuid NOT NULL,
	"platform_id" text NOT NULL,
	"state" text DEFAULT 'requested' NOT NULL,
	"requested_by" text,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"approved_at" timestamp with time zone,
	"done_at" timestamp with time zone,
	CONSTRAINT "release_store_takedowns_pk" PRIMARY KEY("release_id","platform_id"),
	CONSTRAINT "release_store_takedowns_state_check" CHECK (state in ('requested', 'approved', 'done'))
);
--> statement-breakpoint
ALTER TABLE "release_store_takedowns" ADD CONSTRAINT "release_store_takedowns_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "release_status_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"release_id" uuid NOT NULL,
	"status" text NOT NULL,
	"note" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "release_status_events" ADD CONSTRAINT "release_status_events_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "release_status_events_release_idx" ON "release_status_events" USING btree ("release_id","at");
