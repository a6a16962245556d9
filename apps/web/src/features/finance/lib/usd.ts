/** Exact USD text from the server shown to the cent (half away from zero), without binary floating point. */
import { groupThousands, roundDecimal } from '@tunedrop/shared/money';

export function formatUsd(text: string): string {
  const rounded = roundDecimal(text, 2);
  const negative = rounded.startsWith('-');
  const [whole = '0', fraction = '00'] = rounded.replace('-', '').split('.');
  return `${negative ? '-' : ''}$${groupThousands(whole)}.${fraction}`;
}
