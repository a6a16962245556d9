/**
 * The operator's brand and plans (issue 27, record 203): the product's name, logo, accent colour, contact
 * addresses and the platform count the site claims; each plan's price, the payment provider's price id and
 * the features the pricing page lists. Unset, every value is the spec's, and the public pages render as
 * they were built. The settings page, the server and the web app read these schemas and defaults.
 */
import { z } from 'zod';
import { PLAN_DETAILS, type Plan } from '../constants';
import { safeText } from '../text';
import { DEFAULT_ACCENT_COLOR, DEFAULT_PLATFORMS_CLAIM, DEFAULT_PRODUCT_NAME, HEX_COLOR } from './site-brand';

// What the public pages read of the brand lives without zod in site-brand.ts (record 209).
export * from './site-brand';

/** The most a logo upload may weigh. */
export const BRAND_LOGO_MAX_BYTES = 1024 * 1024;

export const BRAND_TEXTS = {
  productNameRequired: 'Enter the product name.',
  productNameTooLong: 'The product name can be at most 40 characters.',
  accentInvalid: 'Enter a colour as #rrggbb.',
  accentTooLight: 'Pick a darker colour: white text on it must reach a contrast of 4.5:1.',
  emailInvalid: 'Enter a valid email address, or leave it empty.',
  platformsClaimInvalid: 'Enter a number of platforms, such as 150+ or 25.',
  priceInvalid: 'Enter a price from $0.50 to $999.99.',
  priceIdInvalid: 'A price id is letters, digits, _ and -, at most 100 characters.',
  featuresRequired: 'List at least one feature.',
  featureTooLong: 'A feature can be at most 120 characters.',
  featuresTooMany: 'List at most 12 features.',
  logoInvalid: 'The logo must be a PNG or JPEG image.',
  logoTooLarge: 'The logo can be at most 1 MB.',
  logoTooBig: 'The logo can be at most 1000 by 1000 pixels.',
  brandSaved: 'Brand saved.',
  plansSaved: 'Plans saved.',
  logoSaved: 'Logo saved.',
  logoRemoved: 'Logo removed.',
} as const;

/** WCAG relative luminance of #rrggbb. */
function luminance(hex: string): number {
  const channel = (index: number) => {
    const value = Number.parseInt(hex.slice(1 + index * 2, 3 + index * 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** Contrast of white text on `hex` (1 to 21). */
export const whiteContrastOn = (hex: string): number => 1.05 / (luminance(hex) + 0.05);

const optionalEmail = safeText().refine(
  (value) => value === '' || z.email().safeParse(value).success,
  BRAND_TEXTS.emailInvalid,
);

export const brandSchema = z.object({
  productName: safeText()
    .trim()
    .min(1, BRAND_TEXTS.productNameRequired)
    .max(40, BRAND_TEXTS.productNameTooLong),
  accentColor: safeText()
    .trim()
    .toLowerCase()
    .regex(HEX_COLOR, BRAND_TEXTS.accentInvalid)
    // Buttons put white text on the accent: keep the public pages' accessibility score.
    .refine((value) => !HEX_COLOR.test(value) || whiteContrastOn(value) >= 4.5, BRAND_TEXTS.accentTooLight),
  /** Empty: the server's SUPPORT_EMAIL / PRIVACY_EMAIL. */
  supportEmail: optionalEmail.transform((value) => value.trim()),
  privacyEmail: optionalEmail.transform((value) => value.trim()),
  platformsClaim: safeText()
    .trim()
    .regex(/^[1-9]\d{0,3}\+?$/, BRAND_TEXTS.platformsClaimInvalid),
});
export type BrandInput = z.input<typeof brandSchema>;
export type Brand = z.infer<typeof brandSchema>;

export const DEFAULT_BRAND: Brand = {
  productName: DEFAULT_PRODUCT_NAME,
  accentColor: DEFAULT_ACCENT_COLOR,
  supportEmail: '',
  privacyEmail: '',
  platformsClaim: DEFAULT_PLATFORMS_CLAIM,
};

/** What the settings page shows: the saved brand and whether a logo is stored. */
export type BrandView = Brand & { logoUrl: string | null; isDefault: boolean };

/** One line of a plan's feature list; not included lines show a cross. */
export const planFeatureSchema = z.object({
  text: safeText().trim().min(1, BRAND_TEXTS.featuresRequired).max(120, BRAND_TEXTS.featureTooLong),
  isIncluded: z.boolean(),
});
export type PlanFeature = z.infer<typeof planFeatureSchema>;

export const planSettingsSchema = z.object({
  priceCents: z
    .number({ error: BRAND_TEXTS.priceInvalid })
    .int(BRAND_TEXTS.priceInvalid)
    .min(50, BRAND_TEXTS.priceInvalid)
    .max(99_999, BRAND_TEXTS.priceInvalid),
  /** The payment provider's price id; empty: STRIPE_PRICE_BASIC / STRIPE_PRICE_PRO. */
  priceId: safeText()
    .trim()
    .regex(/^[A-Za-z0-9_-]{0,100}$/, BRAND_TEXTS.priceIdInvalid),
  features: z
    .array(planFeatureSchema)
    .min(1, BRAND_TEXTS.featuresRequired)
    .max(12, BRAND_TEXTS.featuresTooMany),
});
export type PlanSettings = z.infer<typeof planSettingsSchema>;

export const plansSchema = z.object({ basic: planSettingsSchema, pro: planSettingsSchema });
export type PlansSettings = z.infer<typeof plansSchema>;

/** The pricing page's feature lines (spec 01 §9), with the site's platform claim. */
export function defaultPlanFeatures(plan: Plan, platformsClaim = DEFAULT_PLATFORMS_CLAIM): PlanFeature[] {
  const included = (text: string) => ({ text, isIncluded: true });
  if (plan === 'basic') {
    return [
      included('1 artist profile'),
      included('Unlimited singles, EPs and albums'),
      included(`${platformsClaim} platforms and stores`),
      included(`Review and delivery in ${PLAN_DETAILS.basic.reviewEstimate}`),
      { text: 'No analytics dashboard', isIncluded: false },
      included('Standard email support, with a reply in 2-3 business days'),
    ];
  }
  return [
    included('Unlimited artist profiles'),
    included('Unlimited uploads'),
    included(`${platformsClaim} platforms and stores`),
    included(`Priority review and delivery in ${PLAN_DETAILS.pro.reviewEstimate}`),
    included('Full analytics dashboard with revenue tracking and real-time reports'),
    included('Custom ISRC and UPC codes'),
    included('YouTube Content ID protection'),
    included('Priority email support, with a reply within 1 business day'),
  ];
}

export const DEFAULT_PLANS: PlansSettings = {
  basic: { priceCents: PLAN_DETAILS.basic.priceCents, priceId: '', features: defaultPlanFeatures('basic') },
  pro: { priceCents: PLAN_DETAILS.pro.priceCents, priceId: '', features: defaultPlanFeatures('pro') },
};

/** What the settings page shows: the saved plans, or the defaults. */
export type PlansView = PlansSettings & { isDefault: boolean };

/** A claim on the public pages that the operator's setup does not back (record 328). */
export type BrandWarning = { claim: string; message: string };

/** The number a claim such as "150+" stands for. */
export const claimedPlatformCount = (claim: string): number => Number.parseInt(claim, 10) || 0;
