/**
 * The suspense account (issue 25 finding 2, decision 188): money of posted reports' lines that matched no
 * track or release, held line by line in USD at the report's rate until an admin assigns the code (the
 * money is posted to that artist through their splits) or releases it to operator revenue with a reason.
 *
 * Routes served (apps/server/src/modules/royalty-posting/routes.ts), access('admin'):
 *   GET  /api/admin/royalties/suspense           suspenseQuerySchema → SuspenseResponse (open lines by code)
 *   POST /api/admin/royalties/suspense/assign    suspenseAssignSchema → SuspenseAssignResult
 *   POST /api/admin/royalties/suspense/release   suspenseReleaseSchema → SuspenseReleaseResult
 */
import { z } from 'zod';
import { safeText } from '../text';
import { codeMappingSchema, type DecimalAmount } from './royalties';

export const SUSPENSE_PAGE_SIZE = 20;
/** Lines shown under one code on the page (the code's totals always count every line). */
export const SUSPENSE_LINES_PER_CODE = 25;

export const SUSPENSE_TEXTS = {
  alreadyResolved: 'This code’s suspense was already assigned or released; nothing is held for it now.',
  nothingHeld: 'Nothing is held in suspense for this code.',
  reasonRequired: 'Give the reason for releasing this money to operator revenue',
} as const;

export const suspenseQuerySchema = z.object({
  /** Code, title or artist as the report gave them. */
  q: safeText().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type SuspenseQuery = z.infer<typeof suspenseQuerySchema>;

/** Assigning held money is assigning the code: the same choice of one track or one release. */
export const suspenseAssignSchema = codeMappingSchema;
export type SuspenseAssignInput = z.infer<typeof suspenseAssignSchema>;

/** Lines whose report gave neither an ISRC nor a UPC are held under kind 'none' (code ''): release only. */
export const SUSPENSE_KINDS = ['isrc', 'upc', 'none'] as const;
export type SuspenseKind = (typeof SUSPENSE_KINDS)[number];

export const suspenseReleaseSchema = z
  .object({
    code: safeText().trim().max(40, 'Enter the code'),
    kind: z.enum(SUSPENSE_KINDS),
    reason: safeText()
      .trim()
      .min(1, SUSPENSE_TEXTS.reasonRequired)
      .max(500, 'Keep the reason under 500 characters'),
  })
  .refine((input) => input.kind === 'none' || input.code.length > 0, {
    message: 'Enter the code',
    path: ['code'],
  });
export type SuspenseReleaseInput = z.infer<typeof suspenseReleaseSchema>;

export type SuspenseLine = {
  id: string;
  importId: string;
  fileName: string;
  period: string;
  store: string | null;
  country: string | null;
  title: string | null;
  artist: string | null;
  /** In the report currency (exact). */
  amount: DecimalAmount;
  currency: string | null;
  /** In USD at the report's rate (exact). */
  amountUsd: DecimalAmount;
};

export type SuspenseCode = {
  /** 'none' (code '') for lines that came without any code. */
  kind: SuspenseKind;
  code: string;
  lines: number;
  reports: number;
  amountUsd: DecimalAmount;
  sampleTitle: string | null;
  sampleArtist: string | null;
  /** The first SUSPENSE_LINES_PER_CODE lines, largest first. */
  items: SuspenseLine[];
};

export type SuspenseResponse = {
  /** Every open line, whatever the search (exact USD). */
  totalUsd: DecimalAmount;
  totalLines: number;
  /** Codes matching the search, and this page of them. */
  codes: number;
  page: number;
  pageSize: number;
  items: SuspenseCode[];
};

export type SuspenseAssignResult = {
  kind: 'isrc' | 'upc';
  code: string;
  lines: number;
  amountUsd: DecimalAmount;
  /** Cents put on balances (artist and accepted split payees). */
  creditedCents: number;
  /** One posting per original report the money came from. */
  postings: { importId: string; reportImportId: string; fileName: string; period: string }[];
  /** Lines of unposted imports the remembered mapping now matches. */
  rematchedLines: number;
};

export type SuspenseReleaseResult = {
  kind: SuspenseKind;
  code: string;
  lines: number;
  amountUsd: DecimalAmount;
};
