/** zod validation for request parts; failures become 422 with the first message per field. */
import type { Context, ValidationTargets } from 'hono';
import { validator } from 'hono/validator';
import type { z } from 'zod';
import { validationError } from './errors';

export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    if (!(key in fields)) fields[key] = issue.message;
  }
  return fields;
}

/** What `validate()` checks, kept on its middleware so the v1 OpenAPI document reads it (record 290). */
export const VALIDATED = Symbol.for('tunedrop.validated');
export type Validated = { target: keyof ValidationTargets; schema: z.ZodType };

export function validate<Target extends keyof ValidationTargets, Schema extends z.ZodType>(
  target: Target,
  schema: Schema,
) {
  // The explicit types make a JSON body's input type the schema's input (what a caller may send, before
  // defaults and transforms), so hono/client accepts exactly that; handlers still read the output.
  const middleware = validator<
    z.input<Schema>,
    string,
    string,
    Target,
    string,
    (value: unknown, c: Context) => Promise<z.output<Schema>>
  >(target, async (value): Promise<z.output<Schema>> => {
    const result = await schema.safeParseAsync(value);
    if (!result.success) {
      const fields = fieldErrors(result.error);
      throw validationError(Object.values(fields)[0] ?? 'Invalid request', fields);
    }
    return result.data;
  });
  return Object.assign(middleware, { [VALIDATED]: { target, schema } satisfies Validated });
}
