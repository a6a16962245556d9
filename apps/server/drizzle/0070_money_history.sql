-- Issue 36, record 246: the money history becomes journal transactions (docs/money.md), then every
-- account's journal balance is compared with today's figures and the upgrade refuses to finish when any
-- differs by even a cent (the RAISE rolls the whole migration back; the database stays as it was).
--
-- Each historical fact becomes the transaction the running app writes for it today, with its kind,
-- accounts and signs (positive = debit), dated when it happened:
--   royalty_posting      per posted report: store_receivable(report) + matched + unmatched USD;
--                        artist_payable(user) - each posting's cents; payee_held(payee) - held cents;
--                        fee_income - fee cents; suspense(report) - its unmatched lines; rounding_residue - residue
--   suspense_assignment  per assignment posting (suspense_of): suspense(original report) + what it paid, the
--                        rest as a posting
--   split_return         per report that returned held shares of withdrawn invitations: payee_held + cents,
--                        artist_payable(owner) - cents
--   split_release        per accepted invitation: payee_held + cents, artist_payable(payee's user) - cents
--   suspense_release     per released suspense line: suspense(its report) + USD, operator_revenue - USD
--   manual_adjustment, bulk_adjustment, cli_adjustment
--                        per balance log row of those types: artist_payable(user) - change,
--                        manual_adjustments + change
--   withdrawal_request, and its end withdrawal_cancel / withdrawal_reject / withdrawal_paid, per request
-- Release expenses move no money of their own: a recoupment is part of the owner's posting cents.
--
-- A fact that already has its journal transaction is skipped: by its kind and reference, and for the
-- facts whose running path writes no reference of their own (balance changes by hand, suspense releases
-- by code), when it happened after the journal's first transaction.
CREATE TEMP TABLE history_legs (
  tx_key text NOT NULL,
  kind text NOT NULL,
  reference_type text NOT NULL,
  reference_id text NOT NULL,
  actor_id text,
  memo text,
  rate numeric,
  created_at timestamptz NOT NULL,
  by_time boolean NOT NULL DEFAULT false,
  account text NOT NULL,
  subject text,
  amount numeric NOT NULL
) ON COMMIT DROP;
--> statement-breakpoint
-- Postings and suspense assignments.
WITH report AS (
  SELECT i.id, i.file_name, i.suspense_of, i.exchange_rate, i.posted_by, i.posted_at, coalesce(i.residue, 0) AS residue,
         CASE WHEN i.suspense_of IS NULL THEN 'royalty_posting' ELSE 'suspense_assignment' END AS kind
    FROM royalty_imports i
   WHERE i.status = 'posted'
),
posted AS (
  SELECT import_id, sum(amount_usd) AS matched, sum(fee_cents) AS fee FROM royalty_postings GROUP BY import_id
),
booked AS (
  SELECT import_id, sum(amount_usd) AS usd FROM royalty_suspense_lines GROUP BY import_id
),
legs AS (
  SELECT r.id, 'store_receivable' AS account, r.id::text AS subject, coalesce(p.matched, 0) + coalesce(b.usd, 0) AS amount
    FROM report r LEFT JOIN posted p ON p.import_id = r.id LEFT JOIN booked b ON b.import_id = r.id
   WHERE r.suspense_of IS NULL
  UNION ALL
  SELECT r.id, 'suspense', r.suspense_of::text, coalesce(p.matched, 0)
    FROM report r LEFT JOIN posted p ON p.import_id = r.id
   WHERE r.suspense_of IS NOT NULL
  UNION ALL
  SELECT r.id, 'suspense', r.id::text, -b.usd FROM report r JOIN booked b ON b.import_id = r.id
  UNION ALL
  SELECT p.import_id, 'artist_payable', p.user_id, -(p.cents / 100.0)
    FROM royalty_postings p JOIN report r ON r.id = p.import_id
  UNION ALL
  SELECT s.import_id, 'payee_held', s.payee_id::text, -(sum(s.cents) / 100.0)
    FROM split_settlements s JOIN report r ON r.id = s.import_id
   WHERE s.held
   GROUP BY s.import_id, s.payee_id
  UNION ALL
  SELECT r.id, 'fee_income', NULL, -(p.fee / 100.0) FROM report r JOIN posted p ON p.import_id = r.id
  UNION ALL
  SELECT r.id, 'rounding_residue', NULL, -r.residue FROM report r
)
INSERT INTO history_legs (tx_key, kind, reference_type, reference_id, actor_id, memo, rate, created_at, account, subject, amount)
SELECT 'posting:' || r.id, r.kind, 'royalty_import', r.id::text, r.posted_by,
       'Royalties from ' || r.file_name || ' (history)', r.exchange_rate, r.posted_at, l.account, l.subject, l.amount
  FROM legs l JOIN report r ON r.id = l.id;
--> statement-breakpoint
-- Held shares: returned to owners by a later posting, or released to the payee who accepted.
INSERT INTO history_legs (tx_key, kind, reference_type, reference_id, memo, created_at, account, subject, amount)
SELECT 'split_return:' || key, 'split_return', ref_type, ref_id, 'Held split shares returned (history)',
       max(released_at) OVER (PARTITION BY key), account, subject, amount
  FROM (
    SELECT coalesce(s.released_import_id::text, s.import_id || ':' || s.payee_id) AS key,
           CASE WHEN s.released_import_id IS NULL THEN 'split_settlement' ELSE 'royalty_import' END AS ref_type,
           coalesce(s.released_import_id::text, s.import_id || ':' || s.payee_id) AS ref_id,
           s.released_at, v.account, v.subject, v.amount
      FROM split_settlements s
     CROSS JOIN LATERAL (VALUES ('payee_held', s.payee_id::text, s.cents / 100.0),
                                ('artist_payable', s.owner_id, -(s.cents / 100.0))) AS v(account, subject, amount)
     WHERE s.released_to = 'owner'
  ) returned;
--> statement-breakpoint
INSERT INTO history_legs (tx_key, kind, reference_type, reference_id, memo, created_at, account, subject, amount)
SELECT 'split_release:' || s.payee_id, 'split_release', 'split_payee', s.payee_id::text,
       'Held split shares released on acceptance (history)', max(s.released_at) OVER (PARTITION BY s.payee_id),
       v.account, v.subject, v.amount
  FROM split_settlements s
  JOIN split_payees p ON p.id = s.payee_id
 CROSS JOIN LATERAL (VALUES ('payee_held', s.payee_id::text, s.cents / 100.0),
                            ('artist_payable', coalesce(s.payee_user_id, p.user_id), -(s.cents / 100.0))) AS v(account, subject, amount)
 WHERE s.released_to = 'payee';
--> statement-breakpoint
-- Suspense lines released to operator revenue, one transaction per line.
INSERT INTO history_legs (tx_key, kind, reference_type, reference_id, actor_id, memo, created_at, by_time, account, subject, amount)
SELECT 'suspense_release:' || l.id, 'suspense_release', 'suspense_line', l.id::text, l.resolved_by, l.reason,
       coalesce(l.resolved_at, l.created_at), true, v.account, v.subject, v.amount
  FROM royalty_suspense_lines l
 CROSS JOIN LATERAL (VALUES ('suspense', l.import_id::text, l.amount_usd),
                            ('operator_revenue', NULL, -l.amount_usd)) AS v(account, subject, amount)
 WHERE l.state = 'released';
--> statement-breakpoint
-- Balance changes by hand: the admin's single edit, the bulk CSV and the CLI, one transaction per log row.
INSERT INTO history_legs (tx_key, kind, reference_type, reference_id, actor_id, memo, created_at, by_time, account, subject, amount)
SELECT 'balance_update:' || b.id,
       CASE b.update_type WHEN 'manual' THEN 'manual_adjustment' WHEN 'bulk_csv' THEN 'bulk_adjustment' ELSE 'cli_adjustment' END,
       'balance_update', b.id::text, b.admin_id, b.notes, b.created_at, true, v.account, v.subject, v.amount
  FROM balance_updates_log b
 CROSS JOIN LATERAL (VALUES ('artist_payable', b.user_id, -((b.new_balance_cents - b.old_balance_cents) / 100.0)),
                            ('manual_adjustments', NULL, (b.new_balance_cents - b.old_balance_cents) / 100.0)) AS v(account, subject, amount)
 WHERE b.update_type IN ('manual', 'bulk_csv', 'cli');
--> statement-breakpoint
-- Withdrawals: the request moves the amount from available to pending; its end moves it back or pays it.
INSERT INTO history_legs (tx_key, kind, reference_type, reference_id, actor_id, memo, created_at, account, subject, amount)
SELECT e.kind || ':' || w.id, e.kind, 'withdrawal_request', w.id::text, e.actor_id, e.memo, e.at,
       v.account, CASE WHEN v.account = 'withdrawals_paid' THEN NULL ELSE w.user_id END, v.amount
  FROM withdrawal_requests w
 CROSS JOIN LATERAL (
   SELECT 'withdrawal_request' AS kind, NULL::text AS actor_id, 'Withdrawal requested (history)' AS memo,
          w.requested_at AS at, 'artist_payable' AS debit, 'withdrawals_payable' AS credit
   UNION ALL
   SELECT CASE w.status WHEN 'cancelled' THEN 'withdrawal_cancel' WHEN 'rejected' THEN 'withdrawal_reject' ELSE 'withdrawal_paid' END,
          w.processed_by, coalesce(w.rejection_reason, 'Withdrawal ' || w.status || ' (history)'),
          coalesce(w.processed_at, w.requested_at), 'withdrawals_payable',
          CASE w.status WHEN 'completed' THEN 'withdrawals_paid' ELSE 'artist_payable' END
    WHERE w.status IN ('cancelled', 'rejected', 'completed')
 ) e
 CROSS JOIN LATERAL (VALUES (e.debit, w.amount_cents / 100.0), (e.credit, -(w.amount_cents / 100.0))) AS v(account, amount);
--> statement-breakpoint
DO $$
DECLARE
  journal_start timestamptz := (SELECT min(created_at) FROM journal_transactions);
  report text;
  shown int := 40;
  off_count int;
BEGIN
  -- Facts already in the journal (the running app wrote them) are left out.
  DELETE FROM history_legs h
   WHERE EXISTS (SELECT 1 FROM journal_transactions t
                  WHERE t.kind = h.kind AND t.reference_type = h.reference_type AND t.reference_id = h.reference_id)
      OR (h.by_time AND h.created_at >= journal_start);

  -- A fact whose own figures do not balance (a report's gross against what it credited, held, kept and
  -- booked) cannot become a transaction: name it.
  SELECT count(*), string_agg(format('  %s %s %s: its legs sum to %s USD', kind, reference_type, reference_id, trim_scale(total)), E'\n' ORDER BY tx_key)
         FILTER (WHERE n <= shown)
    INTO off_count, report
    FROM (SELECT tx_key, kind, reference_type, reference_id, sum(amount) AS total, row_number() OVER (ORDER BY tx_key) AS n
            FROM history_legs GROUP BY tx_key, kind, reference_type, reference_id HAVING sum(amount) <> 0) unbalanced;
  IF off_count > 0 THEN
    RAISE EXCEPTION E'The money history does not balance: % fact(s) cannot become journal transactions; the upgrade stops and changes nothing.\n%', off_count,
      report || CASE WHEN off_count > shown THEN format(E'\n  ... and %s more', off_count - shown) ELSE '' END;
  END IF;

  -- One transaction per fact with at least one non-zero leg, its legs merged per account.
  CREATE TEMP TABLE history_transactions ON COMMIT DROP AS
  SELECT gen_random_uuid() AS id, tx_key, kind, reference_type, reference_id, actor_id, memo, rate, created_at
    FROM (SELECT DISTINCT ON (tx_key) tx_key, kind, reference_type, reference_id, actor_id, memo, rate, created_at
            FROM history_legs ORDER BY tx_key, created_at DESC) f
   WHERE f.tx_key IN (SELECT tx_key FROM history_legs GROUP BY tx_key, account, subject HAVING sum(amount) <> 0);
  INSERT INTO journal_transactions (id, kind, reference_type, reference_id, actor_id, memo, rate, created_at)
  SELECT id, kind, reference_type, reference_id, actor_id, memo, rate, created_at FROM history_transactions
   ORDER BY created_at, tx_key;
  INSERT INTO journal_entries (transaction_id, account, subject, amount)
  SELECT t.id, l.account, l.subject, trim_scale(sum(l.amount))
    FROM history_legs l JOIN history_transactions t ON t.tx_key = l.tx_key
   GROUP BY t.id, t.created_at, t.tx_key, l.account, l.subject
  HAVING sum(l.amount) <> 0
   ORDER BY t.created_at, t.tx_key, l.account, l.subject;

  -- Every account's journal balance against today's figure (credit accounts as credits), to the last digit.
  WITH journal AS (
    SELECT account, subject, CASE WHEN account = 'store_receivable' OR account = 'manual_adjustments' THEN sum(amount) ELSE -sum(amount) END AS usd
      FROM journal_entries GROUP BY account, subject
  ),
  today AS (
    SELECT 'artist_payable' AS account, id AS subject, balance_cents / 100.0 AS usd FROM profiles
    UNION ALL
    SELECT 'withdrawals_payable', id, pending_balance_cents / 100.0 FROM profiles
    UNION ALL
    SELECT 'payee_held', payee_id::text, sum(cents) / 100.0 FROM split_settlements WHERE held AND released_to IS NULL GROUP BY payee_id
    UNION ALL
    SELECT 'suspense', import_id::text, sum(amount_usd) FROM royalty_suspense_lines WHERE state = 'open' GROUP BY import_id
    UNION ALL
    SELECT 'store_receivable', i.id::text,
           coalesce((SELECT sum(amount_usd) FROM royalty_earnings e WHERE e.import_id = i.id), 0)
           + coalesce((SELECT sum(amount_usd) FROM royalty_suspense_lines s WHERE s.import_id = i.id), 0)
      FROM royalty_imports i WHERE i.status = 'posted' AND i.suspense_of IS NULL
    UNION ALL
    SELECT 'fee_income', NULL, coalesce(sum(cents), 0) / 100.0 FROM operator_revenue WHERE kind = 'fee'
    UNION ALL
    SELECT 'operator_revenue', NULL, coalesce(sum(amount_usd), 0) FROM operator_revenue WHERE kind = 'suspense_release'
    UNION ALL
    SELECT 'rounding_residue', NULL, coalesce(sum(residue), 0) FROM royalty_imports WHERE status = 'posted'
    UNION ALL
    SELECT 'withdrawals_paid', NULL, coalesce(sum(amount_cents), 0) / 100.0 FROM withdrawal_requests WHERE status = 'completed'
  ),
  compared AS (
    SELECT coalesce(t.account, j.account) AS account, coalesce(t.subject, j.subject) AS subject,
           coalesce(j.usd, 0) AS journal, coalesce(t.usd, 0) AS today
      FROM today t
      FULL JOIN (SELECT * FROM journal WHERE account <> 'manual_adjustments') j
        ON j.account = t.account AND coalesce(j.subject, '') = coalesce(t.subject, '')
  ),
  off AS (
    SELECT c.*, row_number() OVER (ORDER BY abs(c.journal - c.today) DESC, c.account, c.subject) AS n,
           (SELECT email FROM profiles p WHERE p.id = c.subject) AS email
      FROM compared c WHERE c.journal <> c.today
  )
  SELECT count(*),
         string_agg(format('  %s %s: journal %s USD, today %s USD, difference %s USD', account,
                           coalesce(email || ' (' || subject || ')', subject, '(operator)'),
                           trim_scale(journal), trim_scale(today), trim_scale(journal - today)), E'\n' ORDER BY n)
           FILTER (WHERE n <= shown)
    INTO off_count, report
    FROM off;
  IF off_count > 0 THEN
    RAISE EXCEPTION E'The money journal would not match today''s figures: % account(s) differ; the upgrade stops and changes nothing.\n%', off_count,
      report || CASE WHEN off_count > shown THEN format(E'\n  ... and %s more', off_count - shown) ELSE '' END;
  END IF;
END;
$$;
