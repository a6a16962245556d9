/**
 * Sharing an amount among lines or payees in whole units (cents, or 10^-s of a report currency) so that
 * the parts add up to the amount exactly: the rules the royalty import and the splits posting follow
 * (decisions 111 and 317), kept here once with their property tests.
 */

import { formatScaled, parseScaled, rescale, roundScaled } from './decimal';

/**
 * Largest-remainder allocation: `total` units shared by `weights` (each ≥ 0, at least one > 0). Each part
 * is floor(total × w / Σw), and the units left over go one each to the largest remainders, ties to the
 * earlier weight. The parts add up to `total` and each is within one unit of its exact share. A
 * negative total is shared as its magnitude, every part negative.
 */
export function allocateLargestRemainder(total: bigint, weights: readonly bigint[]): bigint[] {
  const sum = weights.reduce((a, b) => a + b, 0n);
  if (sum <= 0n || weights.some((weight) => weight < 0n)) {
    throw new RangeError('weights must be ≥ 0 with a positive sum');
  }
  const sign = total < 0n ? -1n : 1n;
  const magnitude = total * sign;
  const parts = weights.map((weight) => (magnitude * weight) / sum);
  let left = magnitude - parts.reduce((a, b) => a + b, 0n);
  const order = weights
    .map((weight, index) => ({ index, remainder: (magnitude * weight) % sum }))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of order) {
    if (left === 0n) break;
    parts[index] = (parts[index] as bigint) + 1n;
    left -= 1n;
  }
  return parts.map((part) => part * sign);
}

/**
 * The single-pass rule for lines that arrive one by one (decision 111): with a known total weight
 * `totalWeight`, line i gets round(N × C_i / W) − round(N × C_(i−1) / W), C_i the running sum of
 * weights. The shares telescope to exactly N once the weights reach W, each within one unit of its
 * exact share, with O(1) memory. `magnitude` is N ≥ 0 (the caller applies the sign).
 */
export class RunningShare {
  private cumulative = 0n;
  private previous = 0n;

  constructor(
    private readonly magnitude: bigint,
    private readonly totalWeight: bigint,
  ) {
    if (magnitude < 0n || totalWeight <= 0n) throw new RangeError('a running share needs N ≥ 0 and W > 0');
  }

  /** The next line's units; null once the weights go past the total (the rule no longer holds). */
  next(weight: bigint): bigint | null {
    this.cumulative += weight;
    if (weight < 0n || this.cumulative > this.totalWeight) return null;
    const rounded = (2n * this.magnitude * this.cumulative + this.totalWeight) / (2n * this.totalWeight);
    const share = rounded - this.previous;
    this.previous = rounded;
    return share;
  }

  /** Whether the weights seen add up to exactly the total, so the shares add up to N. */
  get isComplete(): boolean {
    return this.cumulative === this.totalWeight;
  }

  get weightSeen(): bigint {
    return this.cumulative;
  }
}

/**
 * A group's amount in cents split by percentages in hundredths (10000 = 100%; together at most 100%):
 * each payee gets their exact share truncated toward zero to the cent, the owner keeps the rest with
 * every sub-cent residue (decision 317). The owner's part and the payees' add up to `cents` exactly.
 */
export function splitByPercent(
  cents: bigint,
  hundredthsOfPercent: readonly bigint[],
): { owner: bigint; payees: bigint[] } {
  const sum = hundredthsOfPercent.reduce((a, b) => a + b, 0n);
  if (sum > 10000n || hundredthsOfPercent.some((share) => share < 0n)) {
    throw new RangeError('percentages must be ≥ 0 and add up to at most 100');
  }
  // BigInt division truncates toward zero, as the posting's trunc() does.
  const payees = hundredthsOfPercent.map((share) => (cents * share) / 10000n);
  return { owner: cents - payees.reduce((a, b) => a + b, 0n), payees };
}

/**
 * The single-pass rule (RunningShare) over a decimal total (decision 111): `total` (decimal text, e.g. a
 * DSR summary's NetRevenue) shared in units of 10^-s, s = max(2, its decimals), by weights adding up to
 * `totalWeight`; each share comes back as decimal text with the total's sign.
 */
export class RunningDecimalShare {
  private readonly running: RunningShare;
  private readonly negative: boolean;
  private readonly scale: number;

  constructor(total: string, totalWeight: bigint) {
    const parsed = parseScaled(total) ?? { units: 0n, scale: 0 };
    const scaled = rescale(parsed, Math.max(2, parsed.scale));
    this.negative = scaled.units < 0n;
    this.scale = scaled.scale;
    this.running = new RunningShare(this.negative ? -scaled.units : scaled.units, totalWeight);
  }

  /** The next line's share as decimal text; null once the weights go past the total. */
  next(weight: bigint): string | null {
    const share = this.running.next(weight);
    if (share === null) return null;
    return formatScaled({ units: this.negative ? -share : share, scale: this.scale });
  }

  get isComplete(): boolean {
    return this.running.isComplete;
  }

  get weightSeen(): bigint {
    return this.running.weightSeen;
  }
}

/**
 * Whole cents for exact amounts that must add up to `totalCents` (record 190, a statement's rows): each
 * amount rounded to the cent (half away from zero), then nudged one cent at a time, the amounts whose
 * rounding lost the most first, until they add up. [] for no amounts (then the total must be 0).
 */
export function centsAddingUpTo(exacts: readonly string[], totalCents: bigint): bigint[] {
  if (exacts.length === 0) {
    if (totalCents !== 0n) throw new RangeError('no rows to carry a non-zero total');
    return [];
  }
  const values = exacts.map((text) => parseScaled(text) ?? { units: 0n, scale: 0 });
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
