/**
 * Sharing an amount among lines or payees in whole units (cents, or 10^-s of a report currency) so that
 * the parts add up to the amount exactly: the rules the royalty import and the splits posting follow
 * (decisions 111 and 140), kept here once with their property tests.
 */

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
 * every sub-cent residue (decision 140). The owner's part and the payees' add up to `cents` exactly.
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
