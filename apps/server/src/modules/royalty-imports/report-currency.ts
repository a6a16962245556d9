/**
 * The currency a report file declares, read before it is imported (issue 25 finding 4, record 187): the
 * DSR's summary record, a statement's currency column or its layout's currency (DistroKid: USD), up to the
 * first sales line. The admin form asks for the rate with it; the CLI refuses a non-USD file without --rate.
 */

import type { RoyaltyFormat } from '@tunedrop/shared/schemas/royalties';
import type { CurrencyInspection } from '@tunedrop/shared/schemas/royalty-checks';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { royaltyCsvPresets } from '../../db/schema';
import type { CsvPresetLayout } from './detect';
import { parseFile } from './parse';
import type { ReadLimits } from './source';

export async function presetLayout(
  db: DbOrTx,
  presetId: string | undefined,
): Promise<CsvPresetLayout | null> {
  if (!presetId) return null;
  const [row] = await db.select().from(royaltyCsvPresets).where(eq(royaltyCsvPresets.id, presetId));
  return row ? { mapping: row.mapping, delimiter: row.delimiter, currency: row.currency } : null;
}

/**
 * Reads the file up to its first sales line. `currency` is what the import will use (the file's own, else
 * the one given, else the preset's); null when nothing says. An unreadable file says nothing (the import
 * itself reports why).
 */
export async function detectCurrency(
  filePath: string,
  options: {
    format: RoyaltyFormat;
    preset: CsvPresetLayout | null;
    currency?: string | undefined;
    limits?: ReadLimits | undefined;
  },
): Promise<CurrencyInspection> {
  try {
    const parsed = await parseFile(filePath, {
      format: options.format,
      preset: options.preset,
      ...(options.limits ? { limits: options.limits } : {}),
    });
    try {
      await parsed.lines.next();
    } catch {
      // A cut-off head (the form sends the first bytes only) may end mid-line: what was read stands.
    } finally {
      await parsed.lines.return(undefined);
    }
    const currency = parsed.report.currency ?? options.currency ?? options.preset?.currency ?? null;
    return { format: parsed.report.format, currency: currency ? currency.toUpperCase() : null };
  } catch {
    return { format: null, currency: options.currency?.toUpperCase() ?? null };
  }
}
