/** Codes (IDENTIFIERS.md): ISRC, UPC/EAN check digits, DDEX Party IDs. */
const ISRC_RE = /^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$/;

/** Strips display hyphens/spaces and an `ISRC` prefix, upper-cases (IDENTIFIERS.md). */
export function normaliseIsrc(s: string): string {
  return s.toUpperCase().replace(/^ISRC/, '').replace(/[\s-]/g, '');
}
export const isIsrc = (s: string): boolean => ISRC_RE.test(normaliseIsrc(s));
/** `QZABC2600001` → `QZ-ABC-26-00001`. */
export function formatIsrc(s: string): string {
  const n = normaliseIsrc(s);
  return ISRC_RE.test(n) ? `${n.slice(0, 2)}-${n.slice(2, 5)}-${n.slice(5, 7)}-${n.slice(7)}` : s;
}

/** GS1 mod-10 check digit over every digit except the check digit. */
export function gtinCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const d = body.charCodeAt(body.length - 1 - i) - 48;
    sum += d * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}
/** UPC-A (12) or EAN-13 with a correct check digit. */
export const isUpc = (s: string): boolean =>
  /^\d{12,13}$/.test(s) && gtinCheckDigit(s.slice(0, -1)) === Number(s.slice(-1));

/** DDEX Party ID: `PADPIDA` + 10 + check char (ISO 7064 MOD 37,36), dashes allowed on input. */
const MOD_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export function mod3736Check(s: string): string {
  let p = 36;
  for (const ch of s) {
    const v = MOD_ALPHABET.indexOf(ch);
    if (v < 0) return '?';
    let sum = (p + v) % 36;
    if (sum === 0) sum = 36;
    p = (sum * 2) % 37;
  }
  return MOD_ALPHABET[(37 - p) % 36] ?? '?';
}
export const normaliseDpid = (s: string): string => s.toUpperCase().replace(/[\s-]/g, '');
export const isDpid = (s: string): boolean => {
  const n = normaliseDpid(s);
  return /^PADPIDA[A-Z0-9]{11}$/.test(n) && mod3736Check(n.slice(0, 17)) === n[17];
};
