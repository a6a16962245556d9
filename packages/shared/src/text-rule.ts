/**
 * The text rule itself (see text.ts), without zod: what the browser's public pages can check without
 * loading the schema library (record 209). text.ts re-exports it and builds the schemas on it.
 */

export const TEXT_MESSAGES = {
  controlCharacters: 'This field cannot contain control characters.',
  lineBreaks: 'This field must be on one line.',
} as const;

/** C0 controls except tab, LF and CR; DEL; C1 controls. NUL (U+0000) is the first of them. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
export const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
export const TAB_OR_LINE_BREAK = /[\t\n\r]/;

/** Why `value` is refused, or null when it is acceptable text. */
export function textError(value: string, options: { isMultiline?: boolean } = {}): string | null {
  if (CONTROL_CHARACTER.test(value)) return TEXT_MESSAGES.controlCharacters;
  if (!options.isMultiline && TAB_OR_LINE_BREAK.test(value)) return TEXT_MESSAGES.lineBreaks;
  return null;
}

export const hasControlCharacters = (value: string, options: { isMultiline?: boolean } = {}) =>
  textError(value, options) !== null;
