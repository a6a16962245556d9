/**
 * The text of an acknowledgement file (record 226): XML may come as UTF-8 (with or without a byte order
 * mark) or UTF-16 (little or big endian, with a mark or recognisable by its `<?xml` start), or in the
 * encoding its declaration names. Text that still holds a NUL (a truncated or binary file) is refused with
 * the reason, and what is kept for the admin never holds one (PostgreSQL refuses NUL in text).
 */

export type AckText = { text: string } | { text: string; unreadable: string };

const startsWith = (bytes: Buffer, ...prefix: number[]) => prefix.every((byte, i) => bytes[i] === byte);

/** The encoding named by an XML declaration in ASCII-compatible bytes, lower-cased; null without one. */
function declaredEncoding(bytes: Buffer): string | null {
  const head = bytes.subarray(0, 200).toString('latin1');
  return /^<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1]?.toLowerCase() ?? null;
}

function decode(bytes: Buffer): { text: string; encoding: string } {
  if (startsWith(bytes, 0xef, 0xbb, 0xbf))
    return { text: bytes.subarray(3).toString('utf8'), encoding: 'UTF-8' };
  if (startsWith(bytes, 0xff, 0xfe))
    return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'UTF-16LE' };
  if (startsWith(bytes, 0xfe, 0xff))
    return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'UTF-16BE' };
  // XML 1.0 appendix F: `<?` in UTF-16 without a byte order mark.
  if (startsWith(bytes, 0x3c, 0x00, 0x3f, 0x00))
    return { text: new TextDecoder('utf-16le').decode(bytes), encoding: 'UTF-16LE' };
  if (startsWith(bytes, 0x00, 0x3c, 0x00, 0x3f))
    return { text: new TextDecoder('utf-16be').decode(bytes), encoding: 'UTF-16BE' };
  const declared = declaredEncoding(bytes);
  // Bytes that read `<?xml` one byte a character are not UTF-16 or UTF-32 whatever they declare (appendix
  // F): such a file (a UTF-8 copy that kept its declaration, or one cut short) is read as UTF-8, not as
  // characters made of byte pairs.
  const isWide = declared !== null && /^(utf-?(16|32)|ucs-?[24])/.test(declared);
  if (declared && !isWide && !['utf-8', 'utf8', 'us-ascii', 'ascii'].includes(declared)) {
    try {
      return { text: new TextDecoder(declared).decode(bytes), encoding: declared };
    } catch {
      // An encoding TextDecoder does not know: read as UTF-8, and the parser says what is wrong.
    }
  }
  return { text: bytes.toString('utf8'), encoding: 'UTF-8' };
}

/** Decodes an acknowledgement; `unreadable` says why one cannot be an acknowledgement at all. */
export function decodeAck(bytes: Buffer): AckText {
  const { text, encoding } = decode(bytes);
  const nul = text.indexOf('\u0000');
  if (nul === -1) return { text };
  return {
    text: text.replaceAll('\u0000', ''),
    unreadable: `Unreadable: the file holds a NUL character at position ${nul} (read as ${encoding}); it may be truncated or not text.`,
  };
}
