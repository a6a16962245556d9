/**
 * The unmatched queue and remembered code mappings: an admin assigns an unknown ISRC/UPC to a track or
 * release; the mapping is kept for later imports and re-matches the waiting lines of every unposted
 * import at once (one UPDATE), whose totals are then summed again. Also the CSV presets.
 */
import type {
  CodeMapping,
  CodeMappingInput,
  CsvPreset,
  CsvPresetInput,
  UnmatchedListResponse,
} from '@tunedrop/shared/schemas/royalties';
import { csvPresetSchema } from '@tunedrop/shared/schemas/royalties';
import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { releases, royaltyCodeMappings, royaltyCsvPresets, tracks } from '../../db/schema';
import { conflict, notFound, validationError } from '../../lib/errors';
import { rows } from '../../lib/sql';
import { type AuditActor, cliAuditActor, recordAudit } from '../audit';
import { sqlState } from './database-error';
import { refreshTotals } from './import-totals';
import { normaliseIsrc, normaliseUpc } from './parse-common';
import { codeTargetLabel, currentCodeTarget } from './report-audit';
import { refreshWarnings } from './report-warnings';

export async function listUnmatched(db: Db): Promise<UnmatchedListResponse> {
  const found = await rows<{
    kind: 'isrc' | 'upc';
    code: string;
    lines: number | string;
    imports: number | string;
    amount: string | null;
    title: string | null;
    artist: string | null;
  }>(
    db,
    sql`
      select case when l.isrc is not null then 'isrc' else 'upc' end as kind,
             coalesce(l.isrc, l.upc) as code,
             count(*) as lines, count(distinct l.import_id) as imports,
             trim_scale(sum(l.amount))::text as amount,
             min(l.title) as title, min(l.artist) as artist
        from royalty_import_lines l
        join royalty_imports i on i.id = l.import_id and i.status in ('staged', 'failed')
       where l.user_id is null and coalesce(l.isrc, l.upc) is not null
       group by 1, 2
       order by count(*) desc, 2
       limit 500`,
  );
  return {
    items: found.map((row) => ({
      kind: row.kind,
      code: row.code,
      lines: Number(row.lines),
      imports: Number(row.imports),
      // Lines sharing a summary's revenue have no amount until posting; the summary page shows them.
      amount: row.amount ?? '0',
      sampleTitle: row.title,
      sampleArtist: row.artist,
    })),
  };
}

export async function assignCode(
  db: Db,
  adminId: string | null,
  input: CodeMappingInput,
  /** Who assigns, for the audit log (record 191); none means the command line. */
  actor?: AuditActor,
): Promise<CodeMapping> {
  const code = input.kind === 'isrc' ? normaliseIsrc(input.code) : normaliseUpc(input.code);
  if (!code) throw validationError('Enter the code', { code: 'Enter the code' });
  return db.transaction(async (tx) => {
    let target: { trackId: string | null; releaseId: string; userId: string } | undefined;
    if (input.trackId) {
      const [row] = await tx
        .select({ trackId: tracks.id, releaseId: tracks.releaseId, userId: releases.userId })
        .from(tracks)
        .innerJoin(releases, eq(releases.id, tracks.releaseId))
        .where(eq(tracks.id, input.trackId));
      target = row;
    } else if (input.releaseId) {
      const [row] = await tx
        .select({ releaseId: releases.id, userId: releases.userId })
        .from(releases)
        .where(eq(releases.id, input.releaseId));
      target = row ? { ...row, trackId: null } : undefined;
    }
    if (!target) throw notFound(input.trackId ? 'Track not found' : 'Release not found');
    const previous = await currentCodeTarget(tx, input.kind, code);
    await tx
      .insert(royaltyCodeMappings)
      .values({
        kind: input.kind,
        code,
        trackId: input.trackId ?? null,
        releaseId: input.trackId ? null : target.releaseId,
        createdBy: adminId,
      })
      .onConflictDoUpdate({
        target: [royaltyCodeMappings.kind, royaltyCodeMappings.code],
        set: {
          trackId: input.trackId ?? null,
          releaseId: input.trackId ? null : target.releaseId,
          createdBy: adminId,
        },
      });
    const column = input.kind === 'isrc' ? sql`l.isrc` : sql`l.upc`;
    const extra = input.kind === 'upc' ? sql`and l.isrc is null` : sql``;
    const updated = await rows<{ importId: string }>(
      tx,
      sql`
        update royalty_import_lines l
           set track_id = ${target.trackId}, release_id = ${target.releaseId}, user_id = ${target.userId}
          from royalty_imports i
         where i.id = l.import_id and i.status in ('staged', 'failed')
           and l.user_id is null and ${column} = ${code} ${extra}
        returning l.import_id`,
    );
    const imports = [...new Set(updated.map((row) => row.importId))];
    for (const importId of imports) {
      await refreshTotals(tx, importId);
      // Lines matched now may be sales before the release or another label's ISRC (record 187).
      await refreshWarnings(tx, importId);
    }
    const assigned = await codeTargetLabel(tx, {
      trackId: input.trackId ?? null,
      releaseId: input.trackId ? null : target.releaseId,
    });
    await recordAudit(tx, actor ?? cliAuditActor(), {
      kind: 'royalties.code_assign',
      subject: { type: 'code', id: `${input.kind}:${code}`, label: `${input.kind.toUpperCase()} ${code}` },
      releaseId: target.releaseId,
      subjectUserId: target.userId,
      before: { assignedTo: previous },
      after: { assignedTo: assigned, rematchedLines: updated.length },
    });
    return {
      code,
      kind: input.kind,
      trackId: input.trackId ?? null,
      releaseId: input.trackId ? null : target.releaseId,
      rematchedLines: updated.length,
    };
  });
}

type PresetRow = typeof royaltyCsvPresets.$inferSelect;
const presetOf = (row: PresetRow): CsvPreset => ({
  id: row.id,
  name: row.name,
  delimiter: csvPresetSchema.shape.delimiter.parse(row.delimiter),
  currency: row.currency,
  mapping: row.mapping,
  createdAt: row.createdAt.toISOString(),
});

export async function listPresets(db: Db): Promise<CsvPreset[]> {
  const found = await db.select().from(royaltyCsvPresets).orderBy(asc(royaltyCsvPresets.name));
  return found.map(presetOf);
}

const isUniqueViolation = (error: unknown) => sqlState(error) === '23505';

export async function savePreset(db: Db, id: string | null, input: CsvPresetInput): Promise<CsvPreset> {
  const value = csvPresetSchema.parse(input);
  try {
    if (id) {
      const [row] = await db
        .update(royaltyCsvPresets)
        .set({ ...value, updatedAt: new Date() })
        .where(eq(royaltyCsvPresets.id, id))
        .returning();
      if (!row) throw notFound('Preset not found');
      return presetOf(row);
    }
    const [row] = await db.insert(royaltyCsvPresets).values(value).returning();
    if (!row) throw new Error('the preset insert returned no row');
    return presetOf(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`A preset named "${value.name}" already exists.`);
    throw error;
  }
}

export async function deletePreset(db: Db, id: string): Promise<void> {
  const deleted = await db.delete(royaltyCsvPresets).where(eq(royaltyCsvPresets.id, id)).returning();
  if (deleted.length === 0) throw notFound('Preset not found');
}
