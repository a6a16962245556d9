/**
 * Royalty reports in the audit log (record 191): the report's name (file, sender, period) read at write
 * time, and its figures as they stand, so the entry stays readable after the report is deleted. Siblings
 * (overlap, rate, warnings, suspense) call auditReport with their own kind and changed fields.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { royaltyCodeMappings, royaltyImports } from '../../db/schema';
import { rows } from '../../lib/sql';
import { type AuditActor, type AuditKind, cliAuditActor, recordAudit } from '../audit';

/** "october.tsv (2025-10)", "DSR from Spotify (2025-09 to 2025-10)". */
export function reportLabel(row: {
  fileName: string;
  periodStart?: string | null;
  periodEnd?: string | null;
}): string {
  const from = row.periodStart?.slice(0, 7) ?? null;
  const to = row.periodEnd?.slice(0, 7) ?? from;
  if (!from) return row.fileName;
  return `${row.fileName} (${from === to ? from : `${from} to ${to}`})`;
}

/** The figures of a report worth keeping in its audit entry (amounts as exact strings). */
export async function reportFigures(tx: DbOrTx, importId: string) {
  const [row] = await tx
    .select({
      fileName: royaltyImports.fileName,
      format: royaltyImports.format,
      status: royaltyImports.status,
      currency: royaltyImports.currency,
      exchangeRate: royaltyImports.exchangeRate,
      sender: royaltyImports.sender,
      periodStart: royaltyImports.periodStart,
      periodEnd: royaltyImports.periodEnd,
      lineCount: royaltyImports.lineCount,
      postedCents: royaltyImports.postedCents,
      postedArtists: royaltyImports.postedArtists,
    })
    .from(royaltyImports)
    .where(eq(royaltyImports.id, importId));
  return row ?? null;
}

/**
 * Writes one audit entry about a report. `actor` null means the command line. Reads the report for its
 * name; pass `label` when the report row is already gone (a deletion writes before deleting).
 */
export async function auditReport(
  tx: DbOrTx,
  actor: AuditActor | null,
  entry: { kind: AuditKind; importId: string; label?: string; before?: unknown; after?: unknown },
): Promise<void> {
  const label =
    entry.label ?? (await reportFigures(tx, entry.importId).then((row) => row && reportLabel(row)));
  await recordAudit(tx, actor ?? cliAuditActor(), {
    kind: entry.kind,
    subject: { type: 'royalty_report', id: entry.importId, label: label ?? entry.importId },
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

/**
 * The name of what a sales code points at, for the audit log: "Track — Release (artist email)" or
 * "Release (artist email)"; null when neither exists.
 */
export async function codeTargetLabel(
  tx: DbOrTx,
  target: { trackId?: string | null; releaseId?: string | null },
): Promise<string | null> {
  if (target.trackId) {
    const [row] = await rows<{ title: string; releaseTitle: string; email: string | null }>(
      tx,
      sql`select t.title, r.title as release_title, u.email
            from tracks t join releases r on r.id = t.release_id left join "user" u on u.id = r.user_id
           where t.id = ${target.trackId}`,
    );
    return row ? `${row.title} — ${row.releaseTitle}${row.email ? ` (${row.email})` : ''}` : null;
  }
  if (target.releaseId) {
    const [row] = await rows<{ title: string; email: string | null }>(
      tx,
      sql`select r.title, u.email from releases r left join "user" u on u.id = r.user_id
           where r.id = ${target.releaseId}`,
    );
    return row ? `${row.title}${row.email ? ` (${row.email})` : ''}` : null;
  }
  return null;
}

/** What a code pointed at before an assignment replaces it (null when it was unassigned). */
export async function currentCodeTarget(tx: DbOrTx, kind: 'isrc' | 'upc', code: string) {
  const [row] = await tx
    .select({ trackId: royaltyCodeMappings.trackId, releaseId: royaltyCodeMappings.releaseId })
    .from(royaltyCodeMappings)
    .where(and(eq(royaltyCodeMappings.kind, kind), eq(royaltyCodeMappings.code, code)));
  return row ? await codeTargetLabel(tx, row) : null;
}
