/**
 * Catalogue import (issue 26 finding 10, record 200): the request the admin page sends, the per-release
 * report the CLI prints and the page shows, and the CSV layout the page documents. One copy for both sides.
 */
import { z } from 'zod';
import type { ReleaseStatus } from '../constants';
import { safeText } from '../text';

export const CATALOGUE_IMPORT_FORMATS = ['ern', 'csv', 'none'] as const;
export type CatalogueImportFormat = (typeof CATALOGUE_IMPORT_FORMATS)[number];

/** Where a release stands at its source: live at stores, taken down, or the source does not say. */
export type SourceStoreState = 'live' | 'taken_down' | 'unknown';

export type CatalogueImportReleaseReport = {
  /** The message file (ERN) or the CSV's release key, as the admin knows it. */
  source: string;
  title: string | null;
  upc: string | null;
  outcome: 'imported' | 'refused';
  /** The status the release got (imported only). */
  status: ReleaseStatus | null;
  releaseId: string | null;
  storeState: SourceStoreState;
  tracks: { title: string; isrc: string | null }[];
  /** Why it was refused: one line per broken rule, with the field it is about. */
  reasons: string[];
  /** What happened besides (left in Pending, deliveries queued, credits not kept). */
  notes: string[];
};

/** An import runs as a job (record 232): queued, running (with its progress), then done or failed. */
export const CATALOGUE_IMPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type CatalogueImportStatus = (typeof CATALOGUE_IMPORT_STATUSES)[number];

export type CatalogueImportReport = {
  id: string;
  status: CatalogueImportStatus;
  /** Messages (or CSV releases) gone through, of `total` (0 until the folder is read). */
  processed: number;
  total: number;
  /** The artist profile chosen for every release of the folder; null: each release's own artist decides. */
  artistProfile: string | null;
  createdAt: string;
  actor: string;
  source: string;
  format: CatalogueImportFormat;
  ownerEmail: string;
  skipReview: boolean;
  importedCount: number;
  refusedCount: number;
  /** Problems with the folder as a whole (no message or CSV found, unreadable CSV). */
  problems: string[];
  releases: CatalogueImportReleaseReport[];
};

export type CatalogueImportSummary = Omit<CatalogueImportReport, 'releases' | 'problems'>;

export type CatalogueImportFolder = { name: string; format: CatalogueImportFormat; files: number };

export type CatalogueImportOverview = {
  folders: CatalogueImportFolder[];
  imports: CatalogueImportSummary[];
};

export const CATALOGUE_IMPORT_MESSAGES = {
  folderRequired: 'Choose a folder to import',
  folderInvalid: 'Choose one of the folders listed',
  ownerRequired: 'Enter the email of the artist account the releases belong to',
  ownerUnknown: (email: string) => `No account with the email ${email}`,
  noSource: 'No ERN message (.xml) or catalogue CSV (.csv) in this folder',
  bothSources: 'The folder holds both ERN messages and a CSV: keep one kind per import',
  profileUnknown: (name: string, email: string, names: readonly string[]) =>
    `${email} has no artist profile named ${name} (its profiles: ${names.join(', ') || 'none'})`,
  profileNoMatch: (artists: readonly string[], names: readonly string[]) =>
    `No artist profile of the account is named like the release's artist (${artists.join(', ') || 'none given'}); choose one of its profiles for the folder: ${names.join(', ')}.`,
  started: 'Import started: the report fills in as each release is checked.',
} as const;

/** The admin page's request: a subfolder of the import folder, the owner, and whether to skip review. */
export const catalogueImportRequestSchema = z.object({
  folder: safeText({ message: CATALOGUE_IMPORT_MESSAGES.folderRequired })
    .trim()
    .min(1, CATALOGUE_IMPORT_MESSAGES.folderRequired)
    .max(200)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._ -]*$/, CATALOGUE_IMPORT_MESSAGES.folderInvalid),
  ownerEmail: safeText({ message: CATALOGUE_IMPORT_MESSAGES.ownerRequired })
    .trim()
    .min(1, CATALOGUE_IMPORT_MESSAGES.ownerRequired)
    .max(320)
    .email(CATALOGUE_IMPORT_MESSAGES.ownerRequired),
  skipReview: z.boolean().default(false),
  /** One of the owner's artist profiles for every release; empty: each release's main artist chooses. */
  artistProfile: safeText().trim().max(200).optional().default(''),
});
export type CatalogueImportRequest = z.infer<typeof catalogueImportRequestSchema>;

/**
 * The catalogue CSV: one row per track, rows of one release share `release_key` (or, left empty, the
 * UPC, or else the release title). Lists inside a cell are separated by `;`. Files are paths relative to
 * the folder of the CSV. The page shows this table; record 323 names its rules.
 */
export const CATALOGUE_CSV_COLUMNS: readonly { name: string; isRequired: boolean; meaning: string }[] = [
  {
    name: 'release_key',
    isRequired: false,
    meaning: 'Groups the rows of one release (default: upc, else release_title)',
  },
  { name: 'release_title', isRequired: true, meaning: 'Release title' },
  { name: 'genre', isRequired: true, meaning: 'One of the builder’s genres' },
  { name: 'release_date', isRequired: true, meaning: 'YYYY-MM-DD' },
  { name: 'original_release_date', isRequired: false, meaning: 'YYYY-MM-DD' },
  { name: 'label', isRequired: false, meaning: 'Label name' },
  { name: 'upc', isRequired: false, meaning: 'UPC or EAN (12 or 13 digits); kept as the release’s code' },
  { name: 'c_line_holder', isRequired: true, meaning: '© who owns the release’s copyright' },
  { name: 'c_line_year', isRequired: true, meaning: '© year' },
  { name: 'p_line_holder', isRequired: true, meaning: '℗ who owns the sound recording' },
  { name: 'p_line_year', isRequired: true, meaning: '℗ year' },
  { name: 'cover_file', isRequired: true, meaning: 'JPEG or PNG, 3000x3000 (same file on every row)' },
  { name: 'stores', isRequired: false, meaning: 'Platform ids separated by ; (default: all stores)' },
  { name: 'store_state', isRequired: false, meaning: 'live or taken_down (default: live)' },
  { name: 'track_number', isRequired: true, meaning: '1 to 20, the order on the release' },
  { name: 'track_title', isRequired: true, meaning: 'Track title' },
  { name: 'isrc', isRequired: false, meaning: 'ISRC; kept as the track’s code' },
  { name: 'explicit', isRequired: false, meaning: 'yes or no (default: no)' },
  { name: 'audio_file', isRequired: true, meaning: 'WAV file (16 or 24 bit, 44.1 to 96 kHz)' },
  { name: 'artists', isRequired: true, meaning: 'Primary artists, separated by ;' },
  { name: 'featured_artists', isRequired: false, meaning: 'Featured artists, separated by ;' },
  { name: 'songwriters', isRequired: true, meaning: 'First Last, separated by ; (the builder asks for one)' },
  { name: 'producers', isRequired: true, meaning: 'First Last, separated by ; (the builder asks for one)' },
];
