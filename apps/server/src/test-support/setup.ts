/** Tests fail on any console.error: an unexpected error must never pass silently. */
import { afterEach, vi } from 'vitest';

let errors: unknown[][] = [];
const original = console.error;
console.error = (...args: unknown[]) => {
  errors.push(args);
  original(...args);
};

afterEach(() => {
  const seen = errors;
  errors = [];
  if (seen.length > 0)
    throw new Error(`console.error was called: ${seen.map((a) => a.map(String).join(' ')).join('\n')}`);
  vi.restoreAllMocks();
});
