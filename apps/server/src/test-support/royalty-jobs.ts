/**
 * Runs the royalty jobs the test system queued (the test harness starts no workers): every import still
 * being read, then every posting claimed, with the same functions the job handlers call.
 */
import { eq, inArray } from 'drizzle-orm';
import { royaltyImports } from '../db/schema';
import { runPosting } from '../modules/royalties/posting';
import { runImport } from '../modules/royalties/service';
import { readLimitsOf } from '../modules/royalties/source';
import type { TestSystem } from './harness';

export async function runRoyaltyJobs(system: TestSystem): Promise<void> {
  const reading = await system.db
    .select({ id: royaltyImports.id })
    .from(royaltyImports)
    .where(eq(royaltyImports.status, 'staging'));
  for (const row of reading) await runImport(system, row.id, readLimitsOf(system.config));
  const posting = await system.db
    .select({ id: royaltyImports.id, postedBy: royaltyImports.postedBy })
    .from(royaltyImports)
    .where(inArray(royaltyImports.phase, ['posting']));
  for (const row of posting) await runPosting(system.db, row.id, { admin: null }).catch(() => undefined);
}

/** The upload's 202 followed by its job: the answer carries the import as the admin page then reads it. */
export async function afterJobs(system: TestSystem, response: Response, cookie: string): Promise<Response> {
  if (response.status !== 202) return response;
  const accepted = (await response.json()) as { id?: string; importId?: string };
  await runRoyaltyJobs(system);
  const id = accepted.id ?? accepted.importId;
  const summary = await system.request(`/api/admin/royalties/imports/${id}`, { cookie });
  return new Response(await summary.text(), {
    status: 202,
    headers: { 'content-type': 'application/json' },
  });
}
