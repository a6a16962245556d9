/**
 * Exact decimal text (report amounts, exchange rates, USD sums from the database) as scaled BigInt:
 * the value is `units / 10^scale`. The one decimal arithmetic of server and web (decision 165); money
 * kept in the database and balances stays integer cents.
 */

/** A decimal as an integer number of 10^-scale units. */
export type ScaledDecimal = { units: bigint; scale: number };

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/** "12.50" → { units: 1250n, scale: 2 }; "-.5", "+3", "5." are read too; null for anything else (no exponent, no grouping). */
export function parseScaled(text: string): ScaledDecimal | null {
  const match = DECIMAL.exec(text.trim());
  if (!match) return null;
  const [, sign, whole = '', fraction = ''] = match;
  if (whole === '' && fraction === '') return null;
  const units = BigInt(`${whole || '0'}${fraction}`);
  return { units: sign === '-' ? -units : units, scale: fraction.length };
}

/** Decimal text of a scaled value: "-0.05", "1200", "3.10" (the scale's digits, never an exponent). */
export function formatScaled({ units, scale }: ScaledDecimal): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = scale > 0 ? `.${digits.slice(digits.length - scale)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/**
 * An exact decimal as canonical text ("5." → "5", "+0.50" → "0.50", "-.5" → "-0.5", "-0" → "0"): the
 * digits as written, no leading zeros, no sign on zero; null when the text is not a plain decimal.
 */
export function canonicalDecimal(text: string): string | null {
  // Text operations, not BigInt: every amount and quantity of a report passes here.
  const match = DECIMAL.exec(text.trim());
  if (!match) return null;
  const [, sign, whole = '', fraction = ''] = match;
  if (whole === '' && fraction === '') return null;
  const wholeDigits = whole.replace(/^0+(?=\d)/, '') || '0';
  const body = fraction === '' ? wholeDigits : `${wholeDigits}.${fraction}`;
  return sign === '-' && /[1-9]/.test(body) ? `-${body}` : body;
}

/** The same value with `scale` decimals (more digits only: it never rounds). */
export function rescale(value: ScaledDecimal, scale: number): ScaledDecimal {
  if (scale < value.scale) throw new RangeError('rescale would drop digits; use roundScaled');
  return { units: value.units * 10n ** BigInt(scale - value.scale), scale };
}

/** Rounds to `places` decimals, half away from zero. */
export function roundScaled(value: ScaledDecimal, places: number): ScaledDecimal {
  if (value.scale <= places) return rescale(value, places);
  const divisor = 10n ** BigInt(value.scale - places);
  const negative = value.units < 0n;
  const magnitude = negative ? -value.units : value.units;
  let rounded = magnitude / divisor;
  if ((magnitude % divisor) * 2n >= divisor) rounded += 1n;
  return { units: negative ? -rounded : rounded, scale: places };
}

/** Decimal text rounded to `places` decimals, half away from zero ("2.345", 2 → "2.35"); text that is not a decimal comes back as it was. */
export function roundDecimal(text: string, places: number): string {
  const parsed = parseScaled(text);
  return parsed ? formatScaled(roundScaled(parsed, places)) : text;
}

/** a × b, exact (the scales add up); "0" when either is not a decimal. */
export function multiplyDecimal(a: string, b: string): string {
  const x = parseScaled(a);
  const y = parseScaled(b);
  if (!x || !y) return '0';
  return formatScaled({ units: x.units * y.units, scale: x.scale + y.scale });
}

/** a + b, exact (the larger scale). */
export function addScaled(a: ScaledDecimal, b: ScaledDecimal): ScaledDecimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale).units + rescale(b, scale).units, scale };
}

/** Decimal text → whole cents, half away from zero ("12.345" → 1235n); null when it is not a decimal. */
export function decimalToCents(text: string): bigint | null {
  const parsed = parseScaled(text);
  return parsed ? roundScaled(parsed, 2).units : null;
}

/** "1234567" → "1,234,567" (digits only; signs and fractions are the caller's). */
export function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Exact decimal USD text → "$1,234.56", rounded half away from zero at the cent; "-$0.50" below zero. */
export function formatUsdDecimal(text: string): string {
  const cents = decimalToCents(text) ?? 0n;
  const negative = cents < 0n;
  const magnitude = negative ? -cents : cents;
  const dollars = groupThousands((magnitude / 100n).toString());
  return `${negative ? '-' : ''}$${dollars}.${(magnitude % 100n).toString().padStart(2, '0')}`;
}
