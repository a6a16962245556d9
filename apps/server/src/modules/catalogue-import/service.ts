/**
 * Catalogue import (issue 26 finding 10, record 200; as a job, record 232): brings a label's existing
 * releases in from a folder of ERN 4.3 messages or a catalogue CSV. An import is recorded first (queued),
 * then run (by the `catalogue.import` job for the admin page, inline for the CLI): each message is read
 * with limits and refused alone when it cannot be, each release checked and stored whole or refused
 * whole (release-import.ts), and the report grows one release at a time with the progress, so a run
 * resumed after a crash carries on where the last one stopped.
 */
import { randomUUID } from 'node:crypto';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  CATALOGUE_IMPORT_MESSAGES,
  type CatalogueImportFormat,
  type CatalogueImportReleaseReport,
  type CatalogueImportReport,
  type CatalogueImportSummary,
} from '@tunedrop/shared/schemas/catalogue-import';
import { desc, eq, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import { catalogueImports } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { readCatalogueCsv } from './csv-reader';
import { readErnFile } from './ern-parse';
import { findOwner, profileNamed } from './owner';
import { type ImportDeps, importedReleaseId, importOne, refusedWhole } from './release-import';
import type { SourceRelease } from './source';

export type { ImportDeps } from './release-import';

export type CatalogueImportOptions = {
  /** The folder holding the messages or the CSV with their files. */
  dir: string;
  ownerEmail: string;
  skipReview: boolean;
  actor: { userId: string | null; label: string };
  /** How the report names the folder (never a server path: the folder's own name by default). */
  sourceLabel?: string;
  /** One of the owner's artist profiles (its name) for every release; empty: each release's artist decides. */
  artistProfile?: string | null;
  now?: Date;
};

/** Limits on hostile or mistaken input: how much is read before anything is checked. */
export const IMPORT_LIMITS = {
  csvBytes: 20 * 1024 * 1024,
  releasesPerRun: 500,
  folderDepth: 3,
} as const;

/** Where operators put each export (one subfolder per delivery from the old distributor). */
export const catalogueImportRoot = (config: Pick<Config, 'dataDir'>) =>
  path.join(config.dataDir, 'catalogue-import');

/** The messages (every .xml, a few folders deep) and the CSVs of a folder, skipping hidden entries. */
async function findSources(dir: string): Promise<{ messages: string[]; csvs: string[] }> {
  const messages: string[] = [];
  const csvs: string[] = [];
  const walk = async (folder: string, depth: number) => {
    const entries = (await readdir(folder, { withFileTypes: true })).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory() && depth < IMPORT_LIMITS.folderDepth) await walk(full, depth + 1);
      else if (entry.isFile() && /\.xml$/i.test(entry.name)) messages.push(full);
      else if (entry.isFile() && depth === 0 && /\.csv$/i.test(entry.name)) csvs.push(full);
    }
  };
  await walk(dir, 0);
  return { messages, csvs };
}

export async function describeFolder(dir: string): Promise<{ format: CatalogueImportFormat; files: number }> {
  const { messages, csvs } = await findSources(dir);
  if (csvs.length > 0 && messages.length === 0) return { format: 'csv', files: csvs.length };
  if (messages.length > 0 && csvs.length === 0) return { format: 'ern', files: messages.length };
  return { format: 'none', files: messages.length + csvs.length };
}

/**
 * Records a new import after checking its owner (and the chosen profile): a 422 with the field when
 * either is wrong, nothing recorded. The import is then run by its job or inline.
 */
export async function createCatalogueImport(
  db: DbOrTx,
  options: Omit<CatalogueImportOptions, 'dir'> & { sourceLabel: string },
): Promise<CatalogueImportReport> {
  const now = options.now ?? new Date();
  const owner = await findOwner(db as Db, options.ownerEmail, now);
  const artistProfile = options.artistProfile?.trim()
    ? profileNamed(owner, options.artistProfile.trim()).name
    : null;
  const id = randomUUID();
  const report: CatalogueImportReport = {
    id,
    status: 'queued',
    processed: 0,
    total: 0,
    artistProfile,
    createdAt: now.toISOString(),
    actor: options.actor.label,
    source: options.sourceLabel,
    format: 'none',
    ownerEmail: owner.email,
    skipReview: options.skipReview,
    importedCount: 0,
    refusedCount: 0,
    problems: [],
    releases: [],
  };
  await db.insert(catalogueImports).values({
    id,
    actorUserId: options.actor.userId,
    actorLabel: options.actor.label,
    source: report.source,
    format: 'none',
    ownerUserId: owner.id,
    ownerEmail: owner.email,
    skipReview: options.skipReview,
    importedCount: 0,
    refusedCount: 0,
    report,
    status: 'queued',
    artistProfile,
    createdAt: now,
  });
  return report;
}

/** One release's report appended with the progress, in one statement (what a resumed run reads back). */
async function appendResult(db: Db, id: string, entry: CatalogueImportReleaseReport): Promise<void> {
  const imported = entry.outcome === 'imported' ? 1 : 0;
  await db
    .update(catalogueImports)
    .set({
      report: sql`jsonb_set(${catalogueImports.report}, '{releases}', coalesce(${catalogueImports.report}->'releases', '[]'::jsonb) || jsonb_build_array(${JSON.stringify(entry)}::jsonb))`,
      processed: sql`${catalogueImports.processed} + 1`,
      importedCount: sql`${catalogueImports.importedCount} + ${imported}`,
      refusedCount: sql`${catalogueImports.refusedCount} + ${1 - imported}`,
    })
    .where(eq(catalogueImports.id, id));
}

async function finish(db: Db, id: string, status: 'done' | 'failed', problems: string[]): Promise<void> {
  await db
    .update(catalogueImports)
    .set({
      status,
      report: sql`jsonb_set(${catalogueImports.report}, '{problems}', ${JSON.stringify(problems)}::jsonb)`,
    })
    .where(eq(catalogueImports.id, id));
}

/** Marks an import failed with the reason (its job gave up after its last retry). */
export async function failCatalogueImport(db: Db, id: string, reason: string): Promise<void> {
  const report = await readCatalogueImport(db, id);
  if (!report || report.status === 'done') return;
  await finish(db, id, 'failed', [...report.problems, reason]);
}

type Unit = { source: string; base: string; read: () => Promise<SourceRelease | string> };

/**
 * Runs a recorded import over its folder: what its report holds already is skipped (a resumed run),
 * every other release is read, checked and stored or refused, one report line at a time.
 */
export async function runCatalogueImport(
  deps: ImportDeps,
  importId: string,
  dir: string,
  now = new Date(),
): Promise<CatalogueImportReport> {
  const started = await readCatalogueImport(deps.db, importId);
  if (!started) throw new AppError('not_found', 'No such import', 404);
  if (started.status === 'done' || started.status === 'failed') return started;
  await deps.db.update(catalogueImports).set({ status: 'running' }).where(eq(catalogueImports.id, importId));
  const info = await stat(dir).catch(() => null);
  if (!info?.isDirectory()) {
    await finish(deps.db, importId, 'failed', ['The folder is no longer there.']);
    return (await readCatalogueImport(deps.db, importId)) ?? started;
  }
  const root = await realpath(dir);
  let owner: Awaited<ReturnType<typeof findOwner>>;
  try {
    owner = await findOwner(deps.db, started.ownerEmail, now);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    await finish(deps.db, importId, 'failed', [error.message]);
    return (await readCatalogueImport(deps.db, importId)) ?? started;
  }
  const { messages, csvs } = await findSources(root);
  const problems: string[] = [];
  const units: Unit[] = [];
  let format: CatalogueImportFormat = 'none';
  if (messages.length > 0 && csvs.length > 0) problems.push(CATALOGUE_IMPORT_MESSAGES.bothSources);
  else if (messages.length === 0 && csvs.length === 0) problems.push(CATALOGUE_IMPORT_MESSAGES.noSource);
  else if (messages.length > 0) {
    format = 'ern';
    if (messages.length > IMPORT_LIMITS.releasesPerRun)
      problems.push(`More than ${IMPORT_LIMITS.releasesPerRun} messages: import the folder in parts.`);
    for (const file of messages.slice(0, IMPORT_LIMITS.releasesPerRun)) {
      const name = path.relative(root, file);
      units.push({
        source: name,
        base: path.dirname(file),
        read: async () => {
          const read = await readErnFile(file, name, now);
          return read.ok ? read.release : read.reason;
        },
      });
    }
  } else {
    format = 'csv';
    for (const file of csvs) {
      const { size } = await stat(file);
      if (size > IMPORT_LIMITS.csvBytes) {
        problems.push(`${path.basename(file)} is larger than ${IMPORT_LIMITS.csvBytes / 1024 ** 2} MB.`);
        continue;
      }
      const read = await readCatalogueCsv(file, path.basename(file));
      problems.push(...read.problems);
      for (const source of read.releases.slice(0, IMPORT_LIMITS.releasesPerRun))
        units.push({ source: source.source, base: path.dirname(file), read: async () => source });
    }
  }
  await deps.db
    .update(catalogueImports)
    .set({
      format,
      total: units.length,
      report: sql`jsonb_set(jsonb_set(${catalogueImports.report}, '{format}', ${JSON.stringify(format)}::jsonb), '{problems}', ${JSON.stringify(problems)}::jsonb)`,
    })
    .where(eq(catalogueImports.id, importId));

  const done = new Set(started.releases.map((entry) => entry.source));
  const context = {
    root,
    owner,
    skipReview: started.skipReview,
    now,
    artistProfile: started.artistProfile,
  };
  for (const unit of units) {
    if (done.has(unit.source)) continue;
    const source = await unit.read();
    const entry =
      typeof source === 'string'
        ? refusedWhole(unit.source, source)
        : await importOne(deps, source, {
            ...context,
            base: unit.base,
            releaseId: importedReleaseId(importId, unit.source),
          });
    await appendResult(deps.db, importId, entry);
    done.add(unit.source);
  }
  await finish(deps.db, importId, 'done', problems);
  const report = (await readCatalogueImport(deps.db, importId)) ?? started;
  deps.logger.info(
    { importId, importedCount: report.importedCount, refusedCount: report.refusedCount },
    'catalogue import',
  );
  return report;
}

/** Records an import and runs it here (the CLI, and tests): the report when it is done. */
export async function importCatalogue(
  deps: ImportDeps,
  options: CatalogueImportOptions,
): Promise<CatalogueImportReport> {
  const info = await stat(options.dir).catch(() => null);
  if (!info?.isDirectory()) throw new AppError('folder_missing', `No folder at ${options.dir}`, 422);
  const created = await createCatalogueImport(deps.db, {
    ...options,
    sourceLabel: options.sourceLabel ?? path.basename(path.resolve(options.dir)),
  });
  return runCatalogueImport(deps, created.id, options.dir, options.now);
}

type Row = typeof catalogueImports.$inferSelect;

/** The report with the row's own progress and counts (the columns are the truth while it runs). */
function reportOf(row: Row): CatalogueImportReport {
  return {
    ...row.report,
    status: row.status,
    processed: row.processed,
    total: row.total,
    artistProfile: row.artistProfile,
    format: row.format,
    importedCount: row.importedCount,
    refusedCount: row.refusedCount,
    problems: row.report.problems ?? [],
    releases: row.report.releases ?? [],
  };
}

export async function listCatalogueImports(db: Db, limit = 50): Promise<CatalogueImportSummary[]> {
  const rows = await db
    .select()
    .from(catalogueImports)
    .orderBy(desc(catalogueImports.createdAt))
    .limit(limit);
  return rows.map((row) => {
    const { releases: _releases, problems: _problems, ...summary } = reportOf(row);
    return summary;
  });
}

export async function readCatalogueImport(db: Db, id: string): Promise<CatalogueImportReport | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await db.select().from(catalogueImports).where(eq(catalogueImports.id, id));
  return row ? reportOf(row) : null;
}
