/**
 * What every page of the web app reads of the operator's brand (record 203), without zod (record 209): the
 * public pages' bundle parses the `<meta name="site-brand">` JSON with this, and the schema library stays out
 * of it. brand.ts (the settings' zod schemas) re-exports everything here.
 */
import { PLAN_DETAILS, type Plan } from '../constants';
import { hasControlCharacters } from '../text-rule';

export const DEFAULT_PRODUCT_NAME = 'Tunedrop';
/** Tailwind's violet-600: the web app's `--color-brand-600`. */
export const DEFAULT_ACCENT_COLOR = '#7c3aed';
/** The spec's marketing figure (spec 01 §1, §9). */
export const DEFAULT_PLATFORMS_CLAIM = '150+';
export const HEX_COLOR = /^#[0-9a-f]{6}$/;

/** "$9.99" */
export const formatPlanPrice = (cents: number): string => `$${(cents / 100).toFixed(2)}`;

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

function isSiteBrand(value: unknown): value is SiteBrand {
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
    };
  } catch {
    return DEFAULT_SITE_BRAND;
  }
}
