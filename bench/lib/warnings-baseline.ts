/**
 * The sanity-warnings step as it was before issue 43 finding 3, for the royalty import bench's baseline:
 * each warning's money summed by its own scan of the report's lines (with the allocation of summary
 * revenue), its lines picked by a correlated artist test per line. Timed on a few warnings; the step
 * took that times the number of warnings.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../apps/server/src/db/client';
import { rows } from '../../apps/server/src/lib/sql';
import { lineAmountsSql, needsAllocation } from '../../apps/server/src/modules/royalty-imports/amounts';

const norm = (expression: SQL) =>
  sql`lower(regexp_replace(coalesce(${expression}, ''), '[^[:alnum:]]', '', 'g'))`;

function isOtherArtist(artist: SQL, trackId: SQL): SQL {
  return sql`not exists (
    select 1
      from tracks t2
      join releases r2 on r2.id = t2.release_id
      left join profiles p2 on p2.id = r2.user_id
      cross join lateral (
        select p2.artist_name as name
        union all select e->>'name' from jsonb_array_elements(t2.primary_artists_data) e
        union all select e->>'name' from jsonb_array_elements(r2.primary_artists_data) e
      ) n
     where t2.id = ${trackId} and ${norm(sql`n.name`)} <> ''
       and (position(${norm(sql`n.name`)} in ${norm(artist)}) > 0
            or position(${norm(artist)} in ${norm(sql`n.name`)}) > 0))`;
}

/** Seconds per warning of the old step (the mean of `sample` warnings) and the number of warnings. */
export async function baselineWarningSeconds(
  db: Db,
  importId: string,
  sample: number,
): Promise<{ perWarning: number; warnings: number; sampled: number }> {
  const warnings = await rows<{ kind: string; subject: string }>(
    db,
    sql`select kind, subject from royalty_import_warnings where import_id = ${importId} order by subject`,
  );
  const allocate = await needsAllocation(db, importId);
  const picked = warnings.slice(0, sample);
  const started = performance.now();
  for (const warning of picked) {
    const lines =
      warning.kind === 'foreign_isrc'
        ? sql`l.user_id is not null and l.track_id = (select t.id from tracks t where t.isrc = ${warning.subject})
              and nullif(btrim(l.artist), '') is not null and ${isOtherArtist(sql`l.artist`, sql`l.track_id`)}`
        : sql`l.user_id is not null and l.release_id = ${warning.subject}::uuid and l.period is not null`;
    await rows(
      db,
      sql`select trim_scale(sum(l.line_amount))::text as amount
            from (${lineAmountsSql(importId, allocate)}) l where ${lines}`,
    );
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    perWarning: picked.length ? seconds / picked.length : 0,
    warnings: warnings.length,
    sampled: picked.length,
  };
}
