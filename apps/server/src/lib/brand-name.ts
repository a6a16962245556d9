/**
 * The product's name as the operator set it (issue 27, record 328): the `productName` of the BRAND setting,
 * 'Tunedrop' when unset. lib, so the outbox (infra/mail) and every module can name the product without
 * reaching the brand module. Texts written with the built-in name get the operator's by `withProductName`.
 */
import { brandSchema, DEFAULT_PRODUCT_NAME } from '@tunedrop/shared/schemas/brand';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { settings } from '../db/schema';

export const BRAND_SETTING = 'BRAND';

export async function readProductName(db: DbOrTx): Promise<string> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, BRAND_SETTING));
  if (!row?.value) return DEFAULT_PRODUCT_NAME;
  try {
    const parsed = brandSchema.shape.productName.safeParse(
      (JSON.parse(row.value) as { productName?: unknown }).productName,
    );
    return parsed.success ? parsed.data : DEFAULT_PRODUCT_NAME;
  } catch {
    return DEFAULT_PRODUCT_NAME;
  }
}

/**
 * `text` with the built-in product name, as a word, replaced by `name`. Lower-case host names
 * (tunedrop.local) are left alone: only the capitalised word is the product's name.
 */
export const withProductName = (text: string, name: string): string =>
  name === DEFAULT_PRODUCT_NAME ? text : text.replace(/\bTunedrop\b/g, () => name);
