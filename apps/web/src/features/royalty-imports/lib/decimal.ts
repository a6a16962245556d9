/**
 * Exact decimal text from the server (report amounts, exchange rates) shown without binary floating
 * point: scaled BigInt arithmetic, rounded half away from zero only for display.
 */
const pattern = /^(-?)(\d+)(?:\.(\d+))?$/;

type Scaled = { value: bigint; scale: number };

function parse(text: string): Scaled | null {
  const match = pattern.exec(text.trim());
  if (!match) return null;
  const fraction = match[3] ?? '';
  const value = BigInt(`${match[2]}${fraction}`);
  return { value: match[1] ? -value : value, scale: fraction.length };
}

function toText({ value, scale }: Scaled): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = scale > 0 ? digits.slice(digits.length - scale) : '';
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Rounds to `places` decimals, half away from zero. */
export function roundDecimal(text: string, places: number): string {
  const scaled = parse(text);
  if (!scaled) return text;
  if (scaled.scale <= places)
    return toText({ value: scaled.value * 10n ** BigInt(places - scaled.scale), scale: places });
  const divisor = 10n ** BigInt(scaled.scale - places);
  const negative = scaled.value < 0n;
  const magnitude = negative ? -scaled.value : scaled.value;
  let rounded = magnitude / divisor;
  if ((magnitude % divisor) * 2n >= divisor) rounded += 1n;
  return toText({ value: negative ? -rounded : rounded, scale: places });
}

/** a × b, exact. */
export function multiplyDecimal(a: string, b: string): string {
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return '0';
  return toText({ value: x.value * y.value, scale: x.scale + y.scale });
}

/** "1,234.57 GBP" (to the cent; the exact value is in the title where callers show it). */
export function formatDecimal(text: string, currency: string): string {
  const rounded = roundDecimal(text, 2);
  const [whole = '0', fraction = '00'] = rounded.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${grouped}.${fraction}${currency ? ` ${currency}` : ''}`;
}

/** Units are decimal text too (usages can be fractional); shown grouped. */
export function formatUnits(text: string): string {
  const [whole = '0', fraction] = text.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction ? `${grouped}.${fraction}` : grouped;
}
