/**
 * The one rule for text people type: no NUL and no control characters (issue 13; decision 082).
 * Single-line fields (names, titles, emails, searches) refuse tab and line breaks too; multi-line
 * fields (reasons, messages, keys pasted as text) allow tab, line feed and carriage return only.
 * Every input schema in `schemas/*` builds its strings from `safeText()` / `multilineText()`, and
 * the server refuses the same characters in any JSON body, query or path before a route runs.
 */
import { z } from 'zod';
import { CONTROL_CHARACTER, TAB_OR_LINE_BREAK, TEXT_MESSAGES, textError } from './text-rule';

// In the browser, zod 4 probes for eval (`new Function` in a try) when it builds an object schema; the web
// app's Content Security Policy forbids eval, so every page with a schema logged a violation. Jitless
// parsing skips the probe. Every schema module builds on this one, so this runs before any is built. The
// server keeps zod's compiled parsers.
if ('document' in globalThis) z.config({ jitless: true });

export { hasControlCharacters, TEXT_MESSAGES, textError } from './text-rule';

/**
 * A single-line string: no control characters, no tab, no line break. `message` replaces both
 * messages where a form words the rule its own way.
 */
export const safeText = (params?: Parameters<typeof z.string>[0], message?: string) =>
  z
    .string(params)
    .refine((value) => !CONTROL_CHARACTER.test(value), message ?? TEXT_MESSAGES.controlCharacters)
    .refine((value) => !TAB_OR_LINE_BREAK.test(value), message ?? TEXT_MESSAGES.lineBreaks);

/** A multi-line string (reasons, messages): tab, LF and CR allowed; other control characters refused. */
export const multilineText = (params?: Parameters<typeof z.string>[0], message?: string) =>
  z
    .string(params)
    .refine((value) => !CONTROL_CHARACTER.test(value), message ?? TEXT_MESSAGES.controlCharacters);

/**
 * The first string anywhere in a parsed JSON value (or a query object) that breaks the rule, with
 * its dotted path; null when there is none. Keys are checked like values.
 */
export function findControlCharacters(
  value: unknown,
  options: { isMultiline?: boolean } = {},
  path: string[] = [],
): { path: string; message: string } | null {
  if (typeof value === 'string') {
    const message = textError(value, options);
    return message ? { path: path.join('.') || '_', message } : null;
  }
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = findControlCharacters(value[index], options, [...path, String(index)]);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const keyMessage = textError(key);
      if (keyMessage) return { path: [...path, key].join('.'), message: keyMessage };
      const found = findControlCharacters(item, options, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}
