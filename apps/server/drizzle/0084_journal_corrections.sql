-- Corrections are new transactions that name what they correct (issue 36, docs/money.md): a `correction`
-- must carry corrects_id and no other kind may. The journal is append-only, so a row written before this
-- rule cannot be mended: when one exists the constraint is added NOT VALID (every new row is checked, the
-- old ones are named in a warning) instead of blocking the upgrade for good.
DO $$
DECLARE
  offenders text;
BEGIN
  SELECT string_agg(id::text || ' (' || kind || ')', ', ') INTO offenders
    FROM journal_transactions
   WHERE (kind = 'correction') <> (corrects_id IS NOT NULL);
  IF offenders IS NULL THEN
    ALTER TABLE "journal_transactions" ADD CONSTRAINT "journal_transactions_corrects_check" CHECK ((kind = 'correction') = (corrects_id is not null));
  ELSE
    RAISE WARNING 'journal transactions written before the corrections rule break it (kept, checked no further): %', offenders;
    ALTER TABLE "journal_transactions" ADD CONSTRAINT "journal_transactions_corrects_check" CHECK ((kind = 'correction') = (corrects_id is not null)) NOT VALID;
  END IF;
END $$;
