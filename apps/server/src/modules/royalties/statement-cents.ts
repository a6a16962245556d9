/**
 * Whole cents for a statement's rows (record 190): each row's exact decimal sum rounded to the cent, then
 * nudged one cent at a time (the rows whose rounding lost the most first) until the rows add up to the
 * total that was really credited. A statement's total is then the sum of its rows, and no row is more than
 * a cent or so from its exact figure, which the CSV keeps in a column of its own.
 */
import {
  addScaled,
  formatScaled,
  parseScaled,
  rescale,
  roundScaled,
  type ScaledDecimal,
} from '@tunedrop/shared/money';

const ZERO: ScaledDecimal = { units: 0n, scale: 0 };

function scaled(text: string): ScaledDecimal {
  return parseScaled(text) ?? ZERO;
}

/** Exact decimal sum of decimal texts ("0" for none). */
export function sumDecimals(texts: readonly string[]): string {
  return formatScaled(texts.reduce<ScaledDecimal>((sum, text) => addScaled(sum, scaled(text)), ZERO));
}

/** Cents for each exact amount, adding up to `totalCents`; [] for no amounts (then the total must be 0). */
export function centsAddingUpTo(exacts: readonly string[], totalCents: bigint): bigint[] {
  if (exacts.length === 0) {
    if (totalCents !== 0n) throw new RangeError('no rows to carry a non-zero total');
    return [];
  }
  const values = exacts.map(scaled);
  const scale = Math.max(2, ...values.map((value) => value.scale));
  const cents = values.map((value) => roundScaled(value, 2).units);
  // How far each exact amount lies above its rounded cents, in units of 10^-scale.
  const unit = 10n ** BigInt(scale - 2);
  const error = values.map((value, index) => rescale(value, scale).units - (cents[index] as bigint) * unit);
  let left = totalCents - cents.reduce((a, b) => a + b, 0n);
  const step = left > 0n ? 1n : -1n;
  const order = error
    .map((value, index) => ({ value, index }))
    .sort((a, b) =>
      a.value === b.value ? a.index - b.index : (step > 0n ? a.value < b.value : a.value > b.value) ? 1 : -1,
    );
  while (left !== 0n) {
    for (const { index } of order) {
      if (left === 0n) break;
      cents[index] = (cents[index] as bigint) + step;
      left -= step;
    }
  }
  return cents;
}
