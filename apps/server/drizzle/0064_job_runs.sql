-- Issue 43 (record 217): one row per job run in progress, refreshed by its worker every 10 s. A run whose
-- row was not refreshed for 30 s (its worker crashed, was killed or froze) is failed and retried at once by
-- another worker, instead of waiting for pg-boss to expire it (10-15 minutes). Keyed by the job and the
-- run's start, since a retry of a job keeps the job's id.
CREATE TABLE "job_runs" (
	"job_id" uuid NOT NULL,
	"started_on" timestamp with time zone NOT NULL,
	"queue" text NOT NULL,
	"worker" text NOT NULL,
	"beat_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "job_runs_pkey" PRIMARY KEY("job_id","started_on")
);
--> statement-breakpoint
CREATE INDEX "job_runs_worker_idx" ON "job_runs" USING btree ("worker");
