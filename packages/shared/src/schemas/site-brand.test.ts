/** The meta tag's brand as the public pages parse it without zod (record 209). */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_BRAND, parseSiteBrand, type SiteBrand } from './site-brand';

const saved: SiteBrand = {
  productName: 'Beatline',
  accentColor: '#1d4ed8',
  logoUrl: '/api/brand/logo/abc.png',
  platformsClaim: '40+',
  plans: {
    basic: { priceCents: 500, features: [{ text: 'Unlimited releases', isIncluded: true }] },
    pro: { priceCents: 1500, features: null },
  },
};

describe('parseSiteBrand', () => {
  it('reads a saved brand, dropping keys it does not know', () => {
    expect(parseSiteBrand(JSON.stringify({ ...saved, priceId: 'price_1' }))).toEqual(saved);
  });

  it('falls back to the default brand for a missing, unreadable or malformed tag', () => {
    const malformed = [
      undefined,
      '',
      '{not json',
      JSON.stringify({ ...saved, productName: '' }),
      JSON.stringify({ ...saved, accentColor: 'blue' }),
      JSON.stringify({ ...saved, productName: 'Beat\u0000line' }),
      JSON.stringify({ ...saved, plans: { basic: saved.plans.basic } }),
      JSON.stringify({ ...saved, plans: { ...saved.plans, pro: { priceCents: 9.5, features: null } } }),
      JSON.stringify({
        ...saved,
        plans: { ...saved.plans, pro: { priceCents: 900, features: [{ text: 1 }] } },
      }),
    ];
    for (const json of malformed) expect(parseSiteBrand(json), String(json)).toEqual(DEFAULT_SITE_BRAND);
  });
});
