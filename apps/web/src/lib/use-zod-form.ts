/**
 * Every form of the web app: react-hook-form checked by the shared zod schema of its rule (record 097).
 * Errors show after the first submit and then update as the user types, like the sign-up form.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { type FieldErrors, type FieldValues, type UseFormProps, useForm } from 'react-hook-form';
import type { z } from 'zod';

export function useZodForm<Schema extends z.ZodType<FieldValues, FieldValues>>(
  schema: Schema,
  options: Omit<UseFormProps<z.input<Schema>, unknown, z.output<Schema>>, 'resolver'> = {},
) {
  return useForm<z.input<Schema>, unknown, z.output<Schema>>({
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    ...options,
    resolver: zodResolver(schema),
  });
}

/** The first error message in field order (the schema's order), for forms that show one toast. */
export function firstErrorMessage(errors: FieldErrors | object): string | undefined {
  for (const [key, value] of Object.entries(errors)) {
    // `ref` is the field's DOM element and `types` the other messages of the same field.
    if (key === 'ref' || key === 'types' || !value || typeof value !== 'object') continue;
    if ('message' in value && typeof value.message === 'string' && value.message) return value.message;
    const nested = firstErrorMessage(value);
    if (nested) return nested;
  }
  return undefined;
}
