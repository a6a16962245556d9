/**
 * The operator's brand as every page reads it (issue 27, record 327): the server writes it into each HTML
 * page as `<meta name="site-brand" content="{json}">` (no inline script: the CSP allows none), main.tsx
 * reads it once before the first render, and the build-time or serve-time prerender sets it before
 * rendering, so the prerendered markup and the hydrating client agree. Without the tag: the spec's brand.
 */

import { PLAN_DETAILS, type Plan } from '@tunedrop/shared';
import {
  DEFAULT_SITE_BRAND,
  formatPlanPrice,
  parseSiteBrand,
  type SiteBrand,
} from '@tunedrop/shared/schemas/site-brand';

let current: SiteBrand = DEFAULT_SITE_BRAND;

/** Called before a render: main.tsx with the page's meta tag, the prerender with the saved settings. */
export function setSiteBrand(brand: SiteBrand): void {
  current = brand;
}

/** The brand of the page's `<meta name="site-brand">`; the default when it has none. */
export function readSiteBrandFromDocument(): SiteBrand {
  return parseSiteBrand(document.querySelector('meta[name="site-brand"]')?.getAttribute('content'));
}

/** The brand is fixed for the life of the page (a change shows after a reload), so a plain read. */
export const useSiteBrand = (): SiteBrand => current;
/** The same, where a hook's rules do not fit (after an early return). */
export const currentSiteBrand = (): SiteBrand => current;

/** "$9.99": a plan's price as the operator set it. */
export const planPriceLabel = (brand: SiteBrand, plan: Plan): string =>
  formatPlanPrice(brand.plans[plan].priceCents);

/** PLAN_DETAILS with the operator's prices (record 203): every page that names a plan's price reads this. */
export function usePlanDetails(): Record<Plan, (typeof PLAN_DETAILS)[Plan] & { priceLabel: string }> {
  const brand = useSiteBrand();
  return {
    basic: {
      ...PLAN_DETAILS.basic,
      priceCents: brand.plans.basic.priceCents,
      priceLabel: planPriceLabel(brand, 'basic'),
    },
    pro: {
      ...PLAN_DETAILS.pro,
      priceCents: brand.plans.pro.priceCents,
      priceLabel: planPriceLabel(brand, 'pro'),
    },
  } as Record<Plan, (typeof PLAN_DETAILS)[Plan] & { priceLabel: string }>;
}
