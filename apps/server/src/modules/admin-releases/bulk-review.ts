/**
 * Bulk approve / reject from the Pending tab (issue 26 finding 9, record 195). Each release goes through
 * `decideRelease`, the single decision, in its OWN transaction: the same row lock, status check in the
 * UPDATE's WHERE, codes and delivery jobs, audit row and artist mail as one click on its card. A release
 * that cannot be decided (already decided, deleted) is reported refused with the single route's message
 * and does not undo the others.
 */
import type {
  BulkReviewInput,
  BulkReviewOutcome,
  BulkReviewResult,
} from '@tunedrop/shared/schemas/admin-releases';
import { inArray } from 'drizzle-orm';
import { releases } from '../../db/schema';
import type { Deps } from '../../deps';
import type { Viewer } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { decideRelease } from './service';

export async function bulkReview(
  deps: Pick<Deps, 'db' | 'config' | 'wakeMail'>,
  viewer: Viewer,
  input: BulkReviewInput,
): Promise<BulkReviewResult> {
  const ids = [...new Set(input.ids)];
  const rows = await deps.db
    .select({ id: releases.id, title: releases.title })
    .from(releases)
    .where(inArray(releases.id, ids));
  const titles = new Map(rows.map((row) => [row.id, row.title]));
  const results: BulkReviewOutcome[] = [];
  // One after another: each decision locks its row, and two cores are plenty busy with delivery planning.
  for (const id of ids) {
    const title = titles.get(id) ?? null;
    try {
      const decided = await decideRelease(deps, viewer, id, input.action, input.reason);
      results.push({ id, title, ok: true, status: decided.status });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      results.push({ id, title, ok: false, code: error.code, message: error.message });
    }
  }
  const done = results.filter((result) => result.ok).length;
  return { done, refused: results.length - done, results };
}
