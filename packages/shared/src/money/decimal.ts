/**
 * Exact decimal text (report amounts, exchange rates, USD sums from the database) as scaled BigInt:
 * the value is `units / 10^scale`. The one decimal arithmetic of server and web (decision 165); money
 * kept in the database and balances stays integer cents.
 */

/** A decimal as an integer number of 10^-scale units. */
export type ScaledDecimal = { units: bigint; scale: number };

/** The zero a running exact sum starts from (a plain value: it crosses worker threads). */
export const DECIMAL_ZERO: ScaledDecimal = { units: 0n, scale: 0 };

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

/**
 * A decimal's text without trailing fraction zeros, as PostgreSQL's `trim_scale(x)::text` writes it
 * ("1.2500" → "1.25", "3.000" → "3", "-0.00" → "0"). Text only: it never rounds or re-parses.
 */
export function trimScale(text: string): string {
  if (!text.includes('.')) return text;
  const trimmed = text.replace(/0+$/, '').replace(/\.$/, '');
  return trimmed === '-0' ? '0' : trimmed;
}

/**
 * The exact sum of decimal texts, written as `trim_scale(sum(x))::text` would write it ("0.1" + "0.2"
 * → "0.3", none → "0"). Throws on text that is not a plain decimal rather than counting it as zero.
 */
export function sumDecimals(values: readonly string[]): string {
  let total: ScaledDecimal = { units: 0n, scale: 0 };
  for (const value of values) {
    const parsed = parseScaled(value);
    if (!parsed) throw new RangeError(`not a decimal: ${JSON.stringify(value)}`);
    total = addScaled(total, parsed);
  }
  return trimScale(formatScaled(total));
}

/**
 * The exact sum written at the largest scale of its terms ("1.50" + "2" → "3.50", none → "0"), as numeric
 * addition keeps it: the journal's legs are stored as written. Throws on text that is not a plain decimal.
 */
export function sumDecimalsAtScale(values: readonly string[]): string {
  let total: ScaledDecimal = DECIMAL_ZERO;
  for (const value of values) {
    const parsed = parseScaled(value);
    if (!parsed) throw new RangeError(`not a decimal: ${JSON.stringify(value)}`);
    total = addScaled(total, parsed);
  }
  return formatScaled(total);
}

/** a + b, exact, without trailing fraction zeros (see sumDecimals). */
export function addDecimal(a: string, b: string): string {
  return sumDecimals([a, b]);
}

/** Whether the text is a decimal equal to zero ("0", "-0.000"); false for anything else, non-decimals included. */
export function isZeroDecimal(text: string): boolean {
  return parseScaled(text)?.units === 0n;
}

/** −a, exact, keeping its scale ("12.50" → "-12.50", "-0.5" → "0.5", "0.00" → "0"); throws on text that is not a decimal. */
export function negateDecimal(text: string): string {
  const parsed = parseScaled(text);
  if (!parsed) throw new RangeError(`not a decimal: ${JSON.stringify(text)}`);
  return parsed.units === 0n ? '0' : formatScaled({ units: -parsed.units, scale: parsed.scale });
}

/** Whether the decimal is a whole number of cents ("1.50", "2", "1.2300" yes; "0.005" no; non-decimals no). */
export function isWholeCents(text: string): boolean {
  const parsed = parseScaled(text);
  if (!parsed) return false;
  return parsed.scale <= 2 || parsed.units % 10n ** BigInt(parsed.scale - 2) === 0n;
}

/** The decimals as integers at their largest scale (["1.5", "0.25"] → [150n, 25n]), for weights; a non-decimal is 0. */
export function unitsAtCommonScale(texts: readonly string[]): bigint[] {
  const values = texts.map((text) => parseScaled(text) ?? DECIMAL_ZERO);
  const scale = Math.max(0, ...values.map((value) => value.scale));
  return values.map((value) => rescale(value, scale).units);
}

/**
 * A running exact sum plus one decimal text, in scaled units (no text round trip: a per-line sum over
 * millions of lines); the sum unchanged when the text is not a decimal.
 */
export function addToSum(sum: ScaledDecimal, text: string): ScaledDecimal {
  const parsed = parseScaled(text);
  return parsed ? addScaled(sum, parsed) : sum;
}

/** a − b, exact, without trailing fraction zeros (see sumDecimals). */
export function subtractDecimal(a: string, b: string): string {
  const negative = parseScaled(b);
  if (!negative) throw new RangeError(`not a decimal: ${JSON.stringify(b)}`);
  return sumDecimals([a, formatScaled({ units: -negative.units, scale: negative.scale })]);
}

/**
 * Exact decimal text → an integer number of 10^-places units ("12.5", 2 → 1250n); null when it is not a
 * plain decimal or has more than `places` decimals (it never rounds).
 */
export function decimalToUnits(text: string, places: number): bigint | null {
  const parsed = parseScaled(text);
  if (!parsed || parsed.scale > places) return null;
  return rescale(parsed, places).units;
}

/** An integer number of 10^-places units → decimal text with `places` decimals (1250, 2 → "12.50"). */
export function unitsToDecimal(units: number | bigint, places: number): string {
  return formatScaled({ units: BigInt(units), scale: places });
}

/** cents × percent / 100, rounded half away from zero to the cent (a rate applied to an amount); null when the percent is not a decimal. */
export function percentOfCents(cents: number | bigint, percent: string): bigint | null {
  const rate = parseScaled(percent);
  if (!rate) return null;
  return roundScaled({ units: BigInt(cents) * rate.units, scale: rate.scale + 2 }, 0).units;
}

/** Whole cents → decimal USD text with two decimals (1234 → "12.34", -5 → "-0.05"), for CSV and form fields. */
export function centsToDecimal(cents: number | bigint): string {
  return formatScaled({ units: BigInt(cents), scale: 2 });
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
