/** Money is integer cents everywhere; these are the only conversions to and from display. */

export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}

/** Parses a decimal amount such as "12.5" or "12.34" into cents; null when it is not a valid amount. */
export function parseAmountToCents(input: string | number): number | null {
  const text = typeof input === 'number' ? String(input) : input.trim();
  if (!/^-?\d+(\.\d{1,2})?$/.test(text)) {
    if (typeof input === 'number' && Number.isFinite(input)) return Math.round(input * 100);
    return null;
  }
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) return null;
  return negative ? -cents : cents;
}

export function centsToAmount(cents: number): number {
  return cents / 100;
}

/** "$1.2k" for chart axes (one decimal, so rounded); full amounts (formatCents) everywhere else. */
export function formatCompactCents(cents: number): string {
  const dollars = centsToAmount(cents);
  if (Math.abs(dollars) >= 1_000_000) return `$${(dollars / 1_000_000).toFixed(1)}M`;
  if (Math.abs(dollars) >= 1000) return `$${(dollars / 1000).toFixed(1)}k`;
  return `$${dollars.toFixed(0)}`;
}
