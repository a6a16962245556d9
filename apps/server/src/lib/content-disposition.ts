/**
 * `Content-Disposition: attachment` for every download (RFC 6266): a sanitised ASCII `filename` for old
 * clients and an RFC 5987 `filename*` carrying the UTF-8 name. Names come from users (original upload
 * names, release titles), so path parts, control characters, quotes and separators never reach the header.
 */

const FALLBACK_NAME = 'download';
const MAX_NAME_LENGTH = 200;

/** The last path segment without control characters, trimmed of leading dots and spaces; never empty. */
export function safeFileName(name: string): string {
  const lastSegment = name.split(/[/\\]/).pop() ?? '';
  const cleaned = lastSegment
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we remove
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .replace(/^[.\s]+/, '')
    .trim();
  const bounded = Array.from(cleaned).slice(0, MAX_NAME_LENGTH).join('');
  return bounded === '' ? FALLBACK_NAME : bounded;
}

/** RFC 5987 value characters: encodeURIComponent leaves ' ( ) * and ! unescaped; attr-char does not allow the first four. */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The ASCII fallback: letters, digits and `._-()+ ` kept, anything else becomes `_`. */
export function asciiFileName(name: string): string {
  const ascii = safeFileName(name).replace(/[^A-Za-z0-9._\-()+ ]/g, '_');
  return ascii.replace(/^[._ ]+/, '') === '' ? FALLBACK_NAME : ascii;
}

export function attachmentDisposition(name: string): string {
  const safe = safeFileName(name);
  return `attachment; filename="${asciiFileName(safe)}"; filename*=UTF-8''${encodeRfc5987(safe)}`;
}
