/**
 * What every page of the web app reads of the operator's brand (record 203), without zod (record 209): the
 * public pages' bundle parses the `<meta name="site-brand">` JSON with this, and the schema library stays out
 * of it. brand.ts (the settings' zod schemas) re-exports everything here.
 */
import { PLAN_DETAILS, type Plan } from '../constants';
import { centsToDecimal, decimalToUnits, trimScale, unitsToDecimal } from '../money';
import { hasControlCharacters } from '../text-rule';

export const DEFAULT_PRODUCT_NAME = 'Tunedrop';
/** Tailwind's violet-600: the web app's `--color-brand-600`. */
export const DEFAULT_ACCENT_COLOR = '#7c3aed';
/** The spec's marketing figure (spec 01 §1, §9). */
export const DEFAULT_PLATFORMS_CLAIM = '150+';
export const HEX_COLOR = /^#[0-9a-f]{6}$/;

/** "$9.99" */
export const formatPlanPrice = (cents: number): string => `$${centsToDecimal(cents)}`;

/**
 * What every page of the web app reads of the brand (public values only), sent in the HTML as a
 * `<meta name="site-brand">` so the first render already has it. `null` plans: the spec's pricing page.
 */
export type SiteBrand = {
  productName: string;
  accentColor: string;
  logoUrl: string | null;
  platformsClaim: string;
  plans: Record<Plan, { priceCents: number; features: { text: string; isIncluded: boolean }[] | null }>;
  /**
   * The operator's distribution fee per plan as saved ("15", "12.5"), null while both are 0 (issue 44): the
   * public pages then say what an artist keeps after it instead of the spec's "100%".
   */
  fees: Record<Plan, string> | null;
};

export const DEFAULT_SITE_BRAND: SiteBrand = {
  productName: DEFAULT_PRODUCT_NAME,
  accentColor: DEFAULT_ACCENT_COLOR,
  logoUrl: null,
  platformsClaim: DEFAULT_PLATFORMS_CLAIM,
  plans: {
    basic: { priceCents: PLAN_DETAILS.basic.priceCents, features: null },
    pro: { priceCents: PLAN_DETAILS.pro.priceCents, features: null },
  },
  fees: null,
};

export const isSiteBrandDefault = (brand: SiteBrand): boolean =>
  JSON.stringify(brand) === JSON.stringify(DEFAULT_SITE_BRAND);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** One line of text under the shared text rule (no control characters, tab or line break). */
const isLine = (value: unknown): value is string => typeof value === 'string' && !hasControlCharacters(value);

function isSitePlan(value: unknown): value is SiteBrand['plans'][Plan] {
  if (!isRecord(value) || !Number.isInteger(value.priceCents)) return false;
  return (
    value.features === null ||
    (Array.isArray(value.features) &&
      value.features.every(
        (feature) => isRecord(feature) && isLine(feature.text) && typeof feature.isIncluded === 'boolean',
      ))
  );
}

/** A fee percentage as saved: 0 to 100 with at most 4 decimals. */
const FEE_PERCENT = /^\d{1,3}(\.\d{1,4})?$/;
const isFee = (value: unknown): value is string =>
  typeof value === 'string' && FEE_PERCENT.test(value) && Number(value) <= 100;

function isSiteBrand(value: unknown): value is Omit<SiteBrand, 'fees'> {
  return (
    isRecord(value) &&
    isLine(value.productName) &&
    value.productName.length > 0 &&
    isLine(value.accentColor) &&
    HEX_COLOR.test(value.accentColor) &&
    (value.logoUrl === null || isLine(value.logoUrl)) &&
    isLine(value.platformsClaim) &&
    value.platformsClaim.length > 0 &&
    isRecord(value.plans) &&
    isSitePlan(value.plans.basic) &&
    isSitePlan(value.plans.pro)
  );
}

/** Parses the meta tag's JSON; anything unreadable is the default brand. Extra keys are dropped. */
export function parseSiteBrand(json: string | null | undefined): SiteBrand {
  if (!json) return DEFAULT_SITE_BRAND;
  try {
    const parsed: unknown = JSON.parse(json);
    if (!isSiteBrand(parsed)) return DEFAULT_SITE_BRAND;
    const plan = ({ priceCents, features }: SiteBrand['plans'][Plan]) => ({
      priceCents,
      features: features?.map(({ text, isIncluded }) => ({ text, isIncluded })) ?? null,
    });
    return {
      productName: parsed.productName,
      accentColor: parsed.accentColor,
      logoUrl: parsed.logoUrl,
      platformsClaim: parsed.platformsClaim,
      plans: { basic: plan(parsed.plans.basic), pro: plan(parsed.plans.pro) },
      // Fees the tag does not carry readably are no fees: the spec's texts.
      fees: feesOf((parsed as { fees?: unknown }).fees),
    };
  } catch {
    return DEFAULT_SITE_BRAND;
  }
}

function feesOf(value: unknown): SiteBrand['fees'] {
  if (!isRecord(value) || !isFee(value.basic) || !isFee(value.pro)) return null;
  return { basic: value.basic, pro: value.pro };
}

/** A percentage in ten-thousandths ("12.5" -> 125000), exact. */
const tenThousandths = (percent: string): number => Number(decimalToUnits(percent, 4) ?? 0n);
const percentText = (units: number): string => trimScale(unitsToDecimal(units, 4));
/** "15%" or, when the plans differ, "15-20%". */
const rangeText = (a: number, b: number): string =>
  a === b ? `${percentText(a)}%` : `${percentText(Math.min(a, b))}-${percentText(Math.max(a, b))}%`;

/**
 * The pricing page's line under a plan's price (issue 44): its distribution fee and what the artist keeps;
 * null while the operator takes no fee on either plan (the spec's page, unchanged).
 */
export function planFeeNote(brand: Pick<SiteBrand, 'fees'>, plan: 'basic' | 'pro'): string | null {
  if (!brand.fees) return null;
  const fee = tenThousandths(brand.fees[plan]);
  return fee === 0
    ? 'No distribution fee: you keep 100% of your earnings'
    : `Plus a ${percentText(fee)}% distribution fee: you keep ${percentText(1_000_000 - fee)}% of your earnings`;
}

/**
 * What an artist keeps of the revenue after the operator's fee (issue 44), for the public pages: the share
 * kept ("85%", "80-85%" when the plans' fees differ) and the fee ("15%", "15-20%"); null without a fee.
 */
export function revenueKept(brand: Pick<SiteBrand, 'fees'>): { kept: string; fee: string } | null {
  if (!brand.fees) return null;
  const basic = tenThousandths(brand.fees.basic);
  const pro = tenThousandths(brand.fees.pro);
  return { kept: rangeText(1_000_000 - basic, 1_000_000 - pro), fee: rangeText(basic, pro) };
}
