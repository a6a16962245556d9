/**
 * Exact decimal text from the server (report amounts, exchange rates) shown without binary floating
 * point: the arithmetic is the shared money module's (decision 165); this file only lays it out.
 */
import { groupThousands, roundDecimal } from '@tunedrop/shared/money';

/** "1,234.57 GBP" (to the cent, half away from zero; the exact value is in the title where callers show it). */
export function formatDecimal(text: string, currency: string): string {
  const rounded = roundDecimal(text, 2);
  const negative = rounded.startsWith('-');
  const [whole = '0', fraction = '00'] = rounded.replace('-', '').split('.');
  return `${negative ? '-' : ''}${groupThousands(whole)}.${fraction}${currency ? ` ${currency}` : ''}`;
}

/** Units are decimal text too (usages can be fractional); shown grouped. */
export function formatUnits(text: string): string {
  const negative = text.startsWith('-');
  const [whole = '0', fraction] = text.replace('-', '').split('.');
  return `${negative ? '-' : ''}${groupThousands(whole)}${fraction ? `.${fraction}` : ''}`;
}
