/**
 * useZodForm for the prerendered sign-in and sign-up pages (record 209): the same react-hook-form checked by
 * the same shared zod schema, but the schema (and zod with it, about 25 KB gzip) is not part of the page's
 * first load. It starts loading when the visitor first focuses the form (`prefetch`, on the form's
 * onFocusCapture), so it is normally there before the first submit; a submit before that waits for it.
 */
import type { FieldValues, UseFormProps } from 'react-hook-form';
import { type Resolver, useForm } from 'react-hook-form';
import type { z } from 'zod';

/** A form's resolver that loads its schema on first use, and a way to start loading it earlier. */
export type LazyZodResolver<Input extends FieldValues, Output extends FieldValues> = {
  resolver: Resolver<Input, unknown, Output>;
  prefetch: () => void;
};

/** A resolver that loads `loadSchema` (and the zod resolver) once, on first use or on `prefetch`. */
export function lazyZodResolver<Schema extends z.ZodType<FieldValues, FieldValues>>(
  loadSchema: () => Promise<Schema>,
): LazyZodResolver<z.input<Schema>, z.output<Schema>> {
  type SchemaResolver = Resolver<z.input<Schema>, unknown, z.output<Schema>>;
  let loaded: Promise<SchemaResolver> | undefined;
  const load = () => {
    loaded ??= Promise.all([import('@hookform/resolvers/zod'), loadSchema()]).then(
      ([{ zodResolver }, schema]) => zodResolver(schema) as unknown as SchemaResolver,
    );
    return loaded;
  };
  return {
    resolver: async (values, context, options) => (await load())(values, context, options),
    prefetch: () => void load(),
  };
}

export function useLazyZodForm<Input extends FieldValues, Output extends FieldValues>(
  lazy: LazyZodResolver<Input, Output>,
  options: Omit<UseFormProps<Input, unknown, Output>, 'resolver'> = {},
) {
  return useForm<Input, unknown, Output>({
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    ...options,
    resolver: lazy.resolver,
  });
}
