/**
 * The plan comparison of spec 01 §9, row by row, for the pricing page; the operator's prices, platform
 * figure and, once set, feature lists replace the spec's (record 203).
 */
import { PLAN_DETAILS, type Plan } from '@tunedrop/shared';
import { formatPlanPrice, type SiteBrand } from '@tunedrop/shared/schemas/site-brand';

export type PlanRow = { label: string; value: string; isIncluded: boolean };

export type PlanCard = {
  plan: Plan;
  name: string;
  priceLabel: string;
  tagline: string;
  isPopular: boolean;
  rows: PlanRow[];
  extras: string[];
};

const specPlanCards: PlanCard[] = [
  {
    plan: 'basic',
    name: PLAN_DETAILS.basic.name,
    priceLabel: PLAN_DETAILS.basic.priceLabel,
    tagline: 'Everything a solo artist needs to put music out everywhere.',
    isPopular: false,
    rows: [
      { label: 'Artist profiles', value: '1 artist profile', isIncluded: true },
      { label: 'Uploads', value: 'Unlimited singles, EPs and albums', isIncluded: true },
      { label: 'Platforms', value: '150+ platforms and stores', isIncluded: true },
      {
        label: 'Review and delivery',
        value: `Review and delivery in ${PLAN_DETAILS.basic.reviewEstimate}`,
        isIncluded: true,
      },
      { label: 'Analytics', value: 'No analytics dashboard', isIncluded: false },
    ],
    extras: ['Standard email support, with a reply in 2-3 business days'],
  },
  {
    plan: 'pro',
    name: PLAN_DETAILS.pro.name,
    priceLabel: PLAN_DETAILS.pro.priceLabel,
    tagline: 'For busy artists, labels and teams who release often and want the numbers.',
    isPopular: true,
    rows: [
      { label: 'Artist profiles', value: 'Unlimited artist profiles', isIncluded: true },
      { label: 'Uploads', value: 'Unlimited uploads', isIncluded: true },
      { label: 'Platforms', value: '150+ platforms and stores', isIncluded: true },
      {
        label: 'Review and delivery',
        value: `Priority review and delivery in ${PLAN_DETAILS.pro.reviewEstimate}`,
        isIncluded: true,
      },
      {
        label: 'Analytics',
        value: 'Full analytics dashboard with revenue tracking and real-time reports',
        isIncluded: true,
      },
    ],
    extras: [
      'Custom ISRC and UPC codes',
      'YouTube Content ID protection',
      'Priority email support, with a reply within 1 business day',
    ],
  },
];

/** The cards as this operator sells them: the spec's rows until a feature list is set, at its prices. */
export function planCardsFor(brand: SiteBrand): PlanCard[] {
  return specPlanCards.map((card) => {
    const settings = brand.plans[card.plan];
    const withClaim = (text: string) => text.replace('150+', brand.platformsClaim);
    return {
      ...card,
      priceLabel: formatPlanPrice(settings.priceCents),
      rows: settings.features
        ? settings.features.map((feature) => ({
            label: '',
            value: feature.text,
            isIncluded: feature.isIncluded,
          }))
        : card.rows.map((row) => ({ ...row, value: withClaim(row.value) })),
      extras: settings.features ? [] : card.extras,
    };
  });
}
