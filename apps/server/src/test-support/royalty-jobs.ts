/**
 * Runs the royalty jobs the test system queued (the test harness starts no workers): every import still
 * being read, then every posting claimed, with the same functions the job handlers call.
 */
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { royaltyImports } from '../db/schema';
import type { Deps } from '../deps';
import { queueImport, readLimitsOf, runImport } from '../modules/royalty-imports';
import { runPosting } from '../modules/royalty-posting';
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

/** Uploads a report as `cookie`'s user and runs the royalty jobs it queued (afterJobs' answer). */
export async function uploadReport(
  system: TestSystem,
  cookie: string,
  query: URLSearchParams | string,
  body: string | Uint8Array,
): Promise<Response> {
  const response = await system.request(`/api/admin/royalties/imports?${query}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/octet-stream' },
    cookie,
  });
  return afterJobs(system, response, cookie);
}

/** An uploaded royalty import whose job was lost (record 220): it waits staging until an admin retries it. */
export async function createStuckImport(
  deps: Pick<Deps, 'db' | 'storage'>,
  input: { fileName: string; content: string },
): Promise<{ id: string }> {
  const file = path.join(os.tmpdir(), `tunedrop-stuck-${randomUUID()}`);
  await writeFile(file, input.content);
  try {
    const accepted = await queueImport(
      deps,
      { filePath: file, fileName: input.fileName, format: 'auto' },
      { queueJob: false },
    );
    return { id: accepted.id };
  } finally {
    await rm(file, { force: true });
  }
}
