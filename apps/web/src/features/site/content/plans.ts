/** The plan comparison of spec 01 §9, row by row, for the pricing page. */
import { PLAN_DETAILS, type Plan } from '@tunedrop/shared';

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

export const planCards: PlanCard[] = [
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
