-- A failed royalty import no longer holds its file or DSR message (issue 22, decision record 152): only
-- imports that reached 'staged' or 'posted' do, so a file whose import failed (or crashed while staging)
-- can be imported again once fixed, while a file staged or posted is still refused as a duplicate.
DROP INDEX "royalty_imports_file_sha256_unique";
--> statement-breakpoint
CREATE UNIQUE INDEX "royalty_imports_file_sha256_unique" ON "royalty_imports" USING btree ("file_sha256") WHERE status in ('staged', 'posted');
--> statement-breakpoint
DROP INDEX "royalty_imports_message_unique";
--> statement-breakpoint
CREATE UNIQUE INDEX "royalty_imports_message_unique" ON "royalty_imports" USING btree ("sender","message_id","file_number") WHERE message_id is not null and status in ('staged', 'posted');
