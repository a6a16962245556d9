/**
 * The review list's AI use filter (issue 41, record 295): releases by their tracks' answers. "No AI used"
 * is a release whose every track answered none; "not answered" one with any track submitted before the
 * question was asked.
 */
import type { AiReviewFilter } from '@tunedrop/shared/schemas/ai-disclosure';
import { type SQL, sql } from 'drizzle-orm';
import { releases, tracks } from '../../db/schema';

export function aiReviewCondition(filter: AiReviewFilter): SQL {
  const anyTrack = (where: SQL) =>
    sql`exists (select 1 from ${tracks} t where t.release_id = ${releases.id} and ${where})`;
  switch (filter) {
    case 'any':
      return anyTrack(sql`t.ai_usage in ('assisted', 'generated')`);
    case 'assisted':
      return anyTrack(sql`t.ai_usage = 'assisted'`);
    case 'generated':
      return anyTrack(sql`t.ai_usage = 'generated'`);
    case 'unanswered':
      return anyTrack(sql`t.ai_usage is null`);
    case 'none':
      return sql`not exists (select 1 from ${tracks} t where t.release_id = ${releases.id}
        and t.ai_usage is distinct from 'none')`;
  }
}
