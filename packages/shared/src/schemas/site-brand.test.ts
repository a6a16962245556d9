/** The meta tag's brand as the public pages parse it without zod (record 209). */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_BRAND, parseSiteBrand, planFeeNote, revenueKept, type SiteBrand } from './site-brand';

const saved: SiteBrand = {
  productName: 'Beatline',
  accentColor: '#1d4ed8',
  logoUrl: '/api/brand/logo/abc.png',
  platformsClaim: '40+',
  plans: {
    basic: { priceCents: 500, features: [{ text: 'Unlimited releases', isIncluded: true }] },
    pro: { priceCents: 1500, features: null },
  },
  fees: { basic: '20', pro: '15' },
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

  it('reads unreadable fees as none, keeping the rest of the brand', () => {
    for (const fees of [
      undefined,
      null,
      { basic: '15' },
      { basic: '15', pro: '101' },
      { basic: 15, pro: 15 },
    ]) {
      expect(parseSiteBrand(JSON.stringify({ ...saved, fees }))).toEqual({ ...saved, fees: null });
    }
  });
});

describe('revenueKept (issue 44)', () => {
  it('says what an artist keeps after the fee, as a range when the plans differ', () => {
    expect(revenueKept({ fees: null })).toBeNull();
    expect(revenueKept({ fees: { basic: '15', pro: '15' } })).toEqual({ kept: '85%', fee: '15%' });
    expect(revenueKept({ fees: { basic: '20', pro: '15' } })).toEqual({ kept: '80-85%', fee: '15-20%' });
    expect(revenueKept({ fees: { basic: '12.5', pro: '0' } })).toEqual({ kept: '87.5-100%', fee: '0-12.5%' });
  });
});

describe('planFeeNote (issue 44)', () => {
  it("names each plan's own fee on the pricing page, and nothing while there is no fee", () => {
    expect(planFeeNote({ fees: null }, 'basic')).toBeNull();
    const fees = { basic: '20', pro: '12.5' };
    expect(planFeeNote({ fees }, 'basic')).toBe('Plus a 20% distribution fee: you keep 80% of your earnings');
    expect(planFeeNote({ fees }, 'pro')).toBe(
      'Plus a 12.5% distribution fee: you keep 87.5% of your earnings',
    );
    expect(planFeeNote({ fees: { basic: '15', pro: '0' } }, 'pro')).toBe(
      'No distribution fee: you keep 100% of your earnings',
    );
  });
});
