/** Tests fail on any console.error: an unexpected error must never pass silently. */
import { afterEach, vi } from 'vitest';

/**
 * Test files share their worker's modules and globals (isolate: false, vitest.config.ts), and this file
 * runs before each of them: console.error is wrapped once per worker, and each file starts with no errors.
 */
type ErrorLog = { errors: unknown[][] };
const KEY = Symbol.for('tunedrop.test.consoleErrors');
const scope = globalThis as typeof globalThis & { [KEY]?: ErrorLog };
const log: ErrorLog =
  scope[KEY] ??
  (() => {
    const created: ErrorLog = { errors: [] };
    const original = console.error;
    console.error = (...args: unknown[]) => {
      created.errors.push(args);
      original(...args);
    };
    scope[KEY] = created;
    return created;
  })();
log.errors = [];

afterEach(() => {
  const seen = log.errors;
  log.errors = [];
  if (seen.length > 0)
    throw new Error(`console.error was called: ${seen.map((a) => a.map(String).join(' ')).join('\n')}`);
  vi.restoreAllMocks();
});
