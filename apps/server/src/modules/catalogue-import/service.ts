/**
 * Catalogue import (issue 26 finding 10, record 200): brings a label's existing releases in from a
 * folder of ERN 4.3 messages or a catalogue CSV, each release checked with the builder's own schemas and
 * plan rules, its codes kept (never new ones), refused whole or stored whole: files are copied into
 * storage first and removed again unless the release's one transaction commits.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { hasProFeatures, PLATFORM_IDS, type ReleaseStatus, type Role } from '@tunedrop/shared';
import {
  planRuleErrors,
  type ReleaseSubmission,
  type ReleaseSubmissionInput,
  releaseSubmissionSchema,
  sanitizeFileName,
} from '@tunedrop/shared/schemas/builder';
import {
  CATALOGUE_IMPORT_MESSAGES,
  type CatalogueImportFormat,
  type CatalogueImportReleaseReport,
  type CatalogueImportReport,
  type CatalogueImportSummary,
} from '@tunedrop/shared/schemas/catalogue-import';
import { and, desc, eq, inArray, ne } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import {
  catalogueImports,
  producers,
  profiles,
  releases,
  songwriters,
  tracks,
  user,
  userRoles,
} from '../../db/schema';
import type { Storage } from '../../infra/storage/storage';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { THUMB_SIZES } from '../builder/cover';
import { addEvent, queueNewDeliveries } from '../delivery/planning';
import { readCatalogueCsv } from './csv-reader';
import { ErnReadError, readErnMessage } from './ern-reader';
import {
  type CheckedAudio,
  type CheckedCover,
  checkAudioFile,
  checkCoverFile,
  ImportFileError,
} from './files';
import type { SourceRelease } from './source';

export type ImportDeps = { db: Db; storage: Storage; config: Config; logger: Logger };

export type CatalogueImportOptions = {
  /** The folder holding the messages or the CSV with their files. */
  dir: string;
  ownerEmail: string;
  skipReview: boolean;
  actor: { userId: string | null; label: string };
  /** How the report names the folder (the admin page shows the subfolder's name, not a server path). */
  sourceLabel?: string;
  now?: Date;
};

/** Limits on hostile or mistaken input: how much is read before anything is checked. */
export const IMPORT_LIMITS = {
  messageBytes: 20 * 1024 * 1024,
  csvBytes: 20 * 1024 * 1024,
  releasesPerRun: 500,
  folderDepth: 3,
} as const;

type Owner = { id: string; email: string; artistName: string; isPro: boolean; isBanned: boolean };

async function findOwner(db: Db, email: string): Promise<Owner> {
  const [row] = await db
    .select({
      id: user.id,
      email: user.email,
      artistName: profiles.artistName,
      plan: profiles.plan,
      banned: profiles.banned,
    })
    .from(user)
    .innerJoin(profiles, eq(profiles.id, user.id))
    .where(eq(user.email, email.trim().toLowerCase()));
  if (!row)
    throw new AppError('owner_unknown', CATALOGUE_IMPORT_MESSAGES.ownerUnknown(email), 422, {
      ownerEmail: CATALOGUE_IMPORT_MESSAGES.ownerUnknown(email),
    });
  const roles = (
    await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, row.id))
  ).map((r) => r.role as Role);
  return {
    id: row.id,
    email: row.email,
    artistName: row.artistName,
    isPro: hasProFeatures(row.plan, roles),
    isBanned: row.banned,
  };
}

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

const placeholderId = () => randomBytes(16).toString('hex');

/** The builder's submission the source release amounts to; file ids are placeholders for files checked apart. */
function toSubmission(source: SourceRelease): {
  input: ReleaseSubmissionInput;
  coverId: string;
  audioIds: string[];
} {
  const coverId = placeholderId();
  const audioIds = source.tracks.map(() => placeholderId());
  const artists = (names: string[]) => names.map((name) => ({ name }));
  return {
    coverId,
    audioIds,
    input: {
      idempotencyKey: `catalogue-import-${randomUUID()}`,
      release: {
        title: source.title,
        genre: source.genre as ReleaseSubmissionInput['release']['genre'],
        releaseDate: source.releaseDate ?? '',
        coverUploadId: source.cover ? coverId : '',
        copyrightHolder: source.copyrightHolder,
        publishingHolder: source.publishingHolder,
        copyrightYear: source.copyrightYear === null ? '' : source.copyrightYear,
        publishingYear: source.publishingYear === null ? '' : source.publishingYear,
        upc: source.upc,
        labelName: source.labelName ?? undefined,
        originalReleaseDate: source.originalReleaseDate,
      },
      tracks: source.tracks.map((track, index) => ({
        title: track.title,
        audioUploadId: track.audio ? (audioIds[index] ?? '') : '',
        explicit: track.isExplicit,
        isrc: track.isrc,
        primaryArtists: artists(track.primaryArtists),
        featuredArtists: artists(track.featuredArtists),
        songwriters: track.songwriters,
        producers: track.producers,
      })),
      platforms: source.stores ?? [...PLATFORM_IDS],
    },
  };
}

const FIELD_NAMES: Record<string, string> = {
  title: 'title',
  genre: 'genre',
  releaseDate: 'release date',
  coverUploadId: 'cover',
  copyrightHolder: '© holder',
  publishingHolder: '℗ holder',
  copyrightYear: '© year',
  publishingYear: '℗ year',
  upc: 'UPC',
  labelName: 'label',
  originalReleaseDate: 'original release date',
  audioUploadId: 'audio file',
  isrc: 'ISRC',
  primaryArtists: 'primary artists',
  songwriters: 'songwriters',
  producers: 'producers',
  platforms: 'stores',
};

/** `tracks.0.songwriters` → `Track 1 "Title", songwriters`; a rule's message follows. */
function describePath(keys: readonly PropertyKey[], source: SourceRelease): string {
  const [first, second, third] = keys.map(String);
  if (first === 'release') return `Release ${FIELD_NAMES[second ?? ''] ?? second ?? ''}`.trim();
  if (first === 'tracks' && second !== undefined && /^\d+$/.test(second)) {
    const index = Number(second);
    const title = source.tracks[index]?.title;
    const field = third ? `, ${FIELD_NAMES[third] ?? third}` : '';
    return `Track ${index + 1}${title ? ` "${title}"` : ''}${field}`;
  }
  if (first === 'tracks') return 'Tracks';
  return FIELD_NAMES[first ?? ''] ?? first ?? 'Release';
}

/** Every rule the builder applies that the source breaks, as report lines (empty when it passes). */
function ruleReasons(
  source: SourceRelease,
  owner: Owner,
  now: Date,
): { reasons: string[]; submission: ReleaseSubmission | null; coverId: string; audioIds: string[] } {
  const { input, coverId, audioIds } = toSubmission(source);
  const parsed = releaseSubmissionSchema.safeParse(input);
  if (!parsed.success) {
    const reasons = [
      ...new Set(parsed.error.issues.map((issue) => `${describePath(issue.path, source)}: ${issue.message}`)),
    ];
    return { reasons, submission: null, coverId, audioIds };
  }
  const planErrors = planRuleErrors(parsed.data, { isPro: owner.isPro, artistName: owner.artistName, now });
  const reasons = Object.entries(planErrors).map(
    ([key, message]) => `${describePath(key.split('.'), source)}: ${message}`,
  );
  return { reasons, submission: parsed.data, coverId, audioIds };
}

async function codeCollisions(db: Db, submission: ReleaseSubmission): Promise<string[]> {
  const reasons: string[] = [];
  const upc = submission.release.upc;
  if (upc) {
    const [other] = await db
      .select({ id: releases.id, title: releases.title })
      .from(releases)
      .where(and(eq(releases.upc, upc), ne(releases.status, 'deleted')))
      .limit(1);
    if (other) reasons.push(`UPC ${upc} is already used by the release "${other.title}" (${other.id}).`);
  }
  const isrcs = submission.tracks.flatMap((track) => (track.isrc ? [track.isrc] : []));
  if (isrcs.length > 0) {
    const used = await db
      .select({ isrc: tracks.isrc, title: tracks.title, releaseTitle: releases.title })
      .from(tracks)
      .innerJoin(releases, eq(releases.id, tracks.releaseId))
      .where(inArray(tracks.isrc, isrcs));
    for (const row of used)
      reasons.push(`ISRC ${row.isrc} is already used by the track "${row.title}" of "${row.releaseTitle}".`);
  }
  return reasons;
}

function statusFor(
  source: SourceRelease,
  submission: ReleaseSubmission,
  skipReview: boolean,
): { status: ReleaseStatus; note: string | null } {
  if (source.storeState === 'taken_down')
    return {
      status: 'taken_down',
      note: 'Taken down at its source: kept as taken down, nothing is delivered.',
    };
  if (!skipReview) return { status: 'pending', note: 'Waiting for review in Pending.' };
  const missing = [
    ...(submission.release.upc ? [] : ['UPC']),
    ...(submission.tracks.some((track) => !track.isrc) ? ['ISRC'] : []),
  ];
  if (missing.length > 0)
    return {
      status: 'pending',
      note: `Left in Pending although review was skipped: the source has no ${missing.join(' or ')}, and an import never gets new codes without review.`,
    };
  return { status: 'approved', note: null };
}

/** Unique violations by constraint name (both drivers), as the builder reads them. */
function uniqueConstraint(error: unknown): string | null {
  for (
    let current: unknown = error;
    current && typeof current === 'object';
    current = (current as { cause?: unknown }).cause
  ) {
    const record = current as { code?: unknown; constraint?: unknown; message?: unknown };
    if (record.code === '23505')
      return typeof record.constraint === 'string'
        ? record.constraint
        : (/"([^"]+)"/.exec(String(record.message))?.[1] ?? 'unknown');
  }
  return null;
}

async function importOne(
  deps: ImportDeps,
  source: SourceRelease,
  context: { root: string; base: string; owner: Owner; skipReview: boolean; now: Date },
): Promise<CatalogueImportReleaseReport> {
  const report: CatalogueImportReleaseReport = {
    source: source.source,
    title: source.title || null,
    upc: source.upc,
    outcome: 'refused',
    status: null,
    releaseId: null,
    storeState: source.storeState,
    tracks: source.tracks.map((track) => ({ title: track.title, isrc: track.isrc })),
    reasons: [...source.problems],
    notes: [...source.notes],
  };
  const { owner } = context;
  if (owner.isBanned)
    report.reasons.push(`The account ${owner.email} is banned: nothing is imported for it.`);
  const rules = ruleReasons(source, owner, context.now);
  report.reasons.push(...rules.reasons);

  // Files: checked by content even when a rule already refused the release, so the report is complete.
  let cover: CheckedCover | null = null;
  const audio: (CheckedAudio | null)[] = [];
  if (source.cover) {
    try {
      cover = await checkCoverFile(context.root, context.base, source.cover);
    } catch (error) {
      if (!(error instanceof ImportFileError)) throw error;
      report.reasons.push(`Cover: ${error.message}`);
    }
  }
  for (const [index, track] of source.tracks.entries()) {
    if (!track.audio) {
      audio.push(null);
      continue;
    }
    try {
      audio.push(
        await checkAudioFile(context.root, context.base, track.audio, deps.config.UPLOAD_MAX_WAV_BYTES),
      );
    } catch (error) {
      if (!(error instanceof ImportFileError)) throw error;
      report.reasons.push(`Track ${index + 1} "${track.title}": ${error.message}`);
      audio.push(null);
    }
  }
  const submission = rules.submission;
  if (submission) report.reasons.push(...(await codeCollisions(deps.db, submission)));
  if (report.reasons.length > 0 || !submission || !cover || audio.some((file) => file === null)) {
    if (report.reasons.length === 0) report.reasons.push('A file could not be checked.');
    return report;
  }

  const { status, note } = statusFor(source, submission, context.skipReview);
  const releaseId = randomUUID();
  const prefix = `${owner.id}/${releaseId}/`;
  const written: string[] = [];
  try {
    const coverName = sanitizeFileName(cover.name) || 'cover';
    const stem = coverName.replace(/\.[^.]*$/, '');
    const coverKey = `${prefix}cover-${coverName}`;
    const thumbSmallKey = `${prefix}cover-${stem}-thumb-${THUMB_SIZES.small}.jpg`;
    const thumbMediumKey = `${prefix}cover-${stem}-thumb-${THUMB_SIZES.medium}.jpg`;
    written.push(coverKey);
    await deps.storage.copyFile(
      coverKey,
      cover.path,
      cover.cover.format === 'png' ? 'image/png' : 'image/jpeg',
    );
    written.push(thumbSmallKey);
    await deps.storage.putBuffer(thumbSmallKey, cover.cover.thumbSmall, 'image/jpeg');
    written.push(thumbMediumKey);
    await deps.storage.putBuffer(thumbMediumKey, cover.cover.thumbMedium, 'image/jpeg');
    const audioKeys: string[] = [];
    for (const [index, file] of audio.entries()) {
      if (!file) throw new Error('unchecked audio');
      // Streamed copy (never read whole): the local store copies, S3 uploads in parts.
      const key = `${prefix}${String(index + 1).padStart(2, '0')}-${sanitizeFileName(file.name) || 'audio.wav'}`;
      written.push(key);
      await deps.storage.copyFile(key, file.path, 'audio/wav');
      audioKeys.push(key);
    }

    const release = submission.release;
    const uniqueNames = (names: string[]) => [
      ...new Map(names.map((n) => [n.trim().toLowerCase(), n])).values(),
    ];
    const primary = uniqueNames(submission.tracks.flatMap((t) => t.primaryArtists.map((a) => a.name)));
    const featured = uniqueNames(submission.tracks.flatMap((t) => t.featuredArtists.map((a) => a.name)));
    const queued = await deps.db.transaction(async (tx) => {
      await tx.insert(releases).values({
        id: releaseId,
        userId: owner.id,
        title: release.title,
        primaryArtists: primary,
        featuredArtists: featured,
        primaryArtistsData: primary.map((name) => ({ name })),
        featuredArtistsData: featured.map((name) => ({ name })),
        genre: release.genre,
        releaseDate: release.releaseDate,
        originalReleaseDate: release.originalReleaseDate ?? null,
        labelName: release.labelName ?? null,
        upc: release.upc ?? null,
        copyrightHolder: release.copyrightHolder,
        publishingHolder: release.publishingHolder,
        copyrightYear: release.copyrightYear,
        publishingYear: release.publishingYear,
        distributionStores: submission.platforms,
        status,
        coverArtKey: coverKey,
        coverThumbSmallKey: thumbSmallKey,
        coverThumbMediumKey: thumbMediumKey,
      });
      const trackRows = await tx
        .insert(tracks)
        .values(
          submission.tracks.map((track, index) => {
            const file = audio[index];
            if (!file) throw new Error('unchecked audio');
            return {
              releaseId,
              position: index + 1,
              title: track.title,
              isrc: track.isrc ?? null,
              explicit: track.explicit,
              durationMs: file.wav.durationMs,
              fileKey: audioKeys[index] ?? '',
              originalFileName: file.name,
              fileSizeBytes: file.sizeBytes,
              sampleRate: file.wav.sampleRate,
              bitDepth: file.wav.bitDepth,
              channels: file.wav.channels,
              primaryArtistsData: track.primaryArtists,
              featuredArtistsData: track.featuredArtists,
            };
          }),
        )
        .returning({ id: tracks.id, position: tracks.position });
      const trackId = new Map(trackRows.map((row) => [row.position, row.id]));
      const writerRows = submission.tracks.flatMap((track, index) =>
        track.songwriters.map((w) => ({
          trackId: trackId.get(index + 1) ?? '',
          firstName: w.firstName,
          middleName: w.middleName ?? null,
          lastName: w.lastName,
          role: w.role,
        })),
      );
      if (writerRows.length > 0) await tx.insert(songwriters).values(writerRows);
      const producerRows = submission.tracks.flatMap((track, index) =>
        track.producers.map((p) => ({
          trackId: trackId.get(index + 1) ?? '',
          firstName: p.firstName,
          middleName: p.middleName ?? null,
          lastName: p.lastName,
        })),
      );
      if (producerRows.length > 0) await tx.insert(producers).values(producerRows);
      const origin = `Imported from the catalogue (${source.source}).`;
      if (status === 'approved') {
        // Review skipped: approved with the source's codes, and queued like an approval (no codes assigned).
        await addEvent(tx, releaseId, 'approved', `${origin} Review skipped; codes kept.`);
        return queueNewDeliveries(tx, releaseId);
      }
      await addEvent(tx, releaseId, status, note ? `${origin} ${note}` : origin);
      return 0;
    });
    written.length = 0;
    report.outcome = 'imported';
    report.status = status;
    report.releaseId = releaseId;
    if (note) report.notes.push(note);
    if (status === 'approved')
      report.notes.push(
        queued > 0
          ? `Approved with its codes; queued for delivery to ${queued} target${queued === 1 ? '' : 's'}.`
          : 'Approved with its codes; no enabled delivery target serves its stores yet.',
      );
    return report;
  } catch (error) {
    const constraint = uniqueConstraint(error);
    if (constraint === 'tracks_isrc_unique') {
      report.reasons.push('One of its ISRCs was taken by another release meanwhile.');
      return report;
    }
    throw error;
  } finally {
    // Not committed: nothing it copied stays in storage.
    for (const key of written) await deps.storage.delete(key).catch(() => undefined);
  }
}

function refusedWhole(source: string, reason: string): CatalogueImportReleaseReport {
  return {
    source,
    title: null,
    upc: null,
    outcome: 'refused',
    status: null,
    releaseId: null,
    storeState: 'unknown',
    tracks: [],
    reasons: [reason],
    notes: [],
  };
}

/** Runs one import of a folder and keeps its report; answers the report. */
export async function importCatalogue(
  deps: ImportDeps,
  options: CatalogueImportOptions,
): Promise<CatalogueImportReport> {
  const now = options.now ?? new Date();
  const info = await stat(options.dir).catch(() => null);
  if (!info?.isDirectory()) throw new AppError('folder_missing', `No folder at ${options.dir}`, 422);
  const root = await realpath(options.dir);
  const owner = await findOwner(deps.db, options.ownerEmail);
  const { messages, csvs } = await findSources(root);
  const problems: string[] = [];
  const results: CatalogueImportReleaseReport[] = [];
  let format: CatalogueImportFormat = 'none';
  const context = { root, owner, skipReview: options.skipReview, now };

  if (messages.length > 0 && csvs.length > 0) problems.push(CATALOGUE_IMPORT_MESSAGES.bothSources);
  else if (messages.length === 0 && csvs.length === 0) problems.push(CATALOGUE_IMPORT_MESSAGES.noSource);
  else if (messages.length > 0) {
    format = 'ern';
    if (messages.length > IMPORT_LIMITS.releasesPerRun)
      problems.push(`More than ${IMPORT_LIMITS.releasesPerRun} messages: import the folder in parts.`);
    for (const file of messages.slice(0, IMPORT_LIMITS.releasesPerRun)) {
      const name = path.relative(root, file);
      const { size } = await stat(file);
      if (size > IMPORT_LIMITS.messageBytes) {
        results.push(
          refusedWhole(name, `The message is larger than ${IMPORT_LIMITS.messageBytes / 1024 ** 2} MB.`),
        );
        continue;
      }
      let source: SourceRelease;
      try {
        source = readErnMessage(await readFile(file, 'utf8'), name, now);
      } catch (error) {
        if (!(error instanceof ErnReadError)) throw error;
        results.push(refusedWhole(name, error.message));
        continue;
      }
      results.push(await importOne(deps, source, { ...context, base: path.dirname(file) }));
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
        results.push(await importOne(deps, source, { ...context, base: path.dirname(file) }));
    }
  }

  const importedCount = results.filter((r) => r.outcome === 'imported').length;
  const refusedCount = results.length - importedCount;
  const id = randomUUID();
  const report: CatalogueImportReport = {
    id,
    createdAt: now.toISOString(),
    actor: options.actor.label,
    source: options.sourceLabel ?? options.dir,
    format,
    ownerEmail: owner.email,
    skipReview: options.skipReview,
    importedCount,
    refusedCount,
    problems,
    releases: results,
  };
  await deps.db.insert(catalogueImports).values({
    id,
    actorUserId: options.actor.userId,
    actorLabel: options.actor.label,
    source: report.source,
    format,
    ownerUserId: owner.id,
    ownerEmail: owner.email,
    skipReview: options.skipReview,
    importedCount,
    refusedCount,
    report,
    createdAt: now,
  });
  deps.logger.info({ importId: id, importedCount, refusedCount }, 'catalogue import');
  return report;
}

export async function listCatalogueImports(db: Db, limit = 50): Promise<CatalogueImportSummary[]> {
  const rows = await db
    .select()
    .from(catalogueImports)
    .orderBy(desc(catalogueImports.createdAt))
    .limit(limit);
  return rows.map(({ report }) => {
    const { releases: _releases, problems: _problems, ...summary } = report;
    return summary;
  });
}

export async function readCatalogueImport(db: Db, id: string): Promise<CatalogueImportReport | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await db
    .select({ report: catalogueImports.report })
    .from(catalogueImports)
    .where(eq(catalogueImports.id, id));
  return row?.report ?? null;
}

/** The report as text: what the CLI prints and the page's download offers. */
export function formatCatalogueReport(report: CatalogueImportReport): string {
  const lines = [
    `Catalogue import ${report.id} of ${report.source} (${report.format.toUpperCase()}) for ${report.ownerEmail}${
      report.skipReview ? ', review skipped' : ''
    }: ${report.importedCount} imported, ${report.refusedCount} refused.`,
    ...report.problems.map((problem) => `! ${problem}`),
  ];
  for (const release of report.releases) {
    const name = `${release.title ? `"${release.title}"` : '(untitled)'}${release.upc ? ` UPC ${release.upc}` : ''} [${release.source}]`;
    if (release.outcome === 'imported') {
      lines.push(
        `IMPORTED ${name}: ${release.status}, ${release.tracks.length} track(s), release ${release.releaseId}`,
      );
    } else {
      lines.push(`REFUSED  ${name}`);
      for (const reason of release.reasons) lines.push(`  - ${reason}`);
    }
    for (const note of release.notes) lines.push(`  · ${note}`);
  }
  return lines.join('\n');
}
