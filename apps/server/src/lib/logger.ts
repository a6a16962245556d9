/**
 * One pino logger for the process; every line written while serving a request carries its `reqId`.
 * No line carries a query's parameters or a secret of the environment (record 226): a failed query's
 * error (drizzle puts `params: …` in its message and stack, pg a row's values in `detail`) is written
 * without them, and the values of secret-looking variables are blanked wherever they appear in errors.
 */
import pino, { type Logger } from 'pino';
import { currentRequestContext } from './request-context';

const REDACTED = '[redacted]';
/** Properties of query errors that hold values of the query or of a row (drizzle, pg). */
const VALUE_FIELDS = ['params', 'parameters', 'detail', 'where', 'internalQuery', 'values'];
const SECRET_NAME = /SECRET|PASSWORD|PASSWD|TOKEN|KEY|CREDENTIAL|DATABASE_URL|DSN/i;

/** Values of the environment no log line may show (short ones would blank ordinary words). */
export function secretValues(env: NodeJS.ProcessEnv = process.env): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (!value || !SECRET_NAME.test(name)) continue;
    if (value.length >= 8) values.add(value);
    try {
      const password = decodeURIComponent(new URL(value).password);
      if (password.length >= 6) values.add(password);
    } catch {
      // Not a URL.
    }
  }
  return [...values].sort((a, b) => b.length - a.length);
}

/** A text without a failed query's parameters and without any secret of the environment. */
export function scrubText(text: string, secrets: readonly string[]): string {
  // drizzle: "Failed query: <sql>\nparams: <values>" (its stack repeats the message before "    at").
  let out = text.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/g, `\nparams: ${REDACTED}`);
  for (const secret of secrets) if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
  return out;
}

function scrubError(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (depth > 5 || typeof value !== 'object' || value === null) {
    return typeof value === 'string' ? scrubText(value, secrets) : value;
  }
  if (!(value instanceof Error)) return value;
  const serialized: Record<string, unknown> = { ...pino.stdSerializers.err(value) };
  for (const field of VALUE_FIELDS) if (field in serialized) serialized[field] = REDACTED;
  for (const [key, field] of Object.entries(serialized)) {
    if (typeof field === 'string') serialized[key] = scrubText(field, secrets);
  }
  if (value.cause !== undefined) serialized.cause = scrubError(value.cause, secrets, depth + 1);
  return serialized;
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const secrets = secretValues();
  const errorSerializer = (value: unknown) => scrubError(value, secrets);
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    // Child loggers inherit the mixin, so service and job loggers made from this one carry it too.
    mixin: () => {
      const context = currentRequestContext();
      return context ? { reqId: context.requestId } : {};
    },
    serializers: { err: errorSerializer, error: errorSerializer, cause: errorSerializer },
    hooks: {
      // A message built from an error's text (`${error.message}`) is scrubbed like the error itself.
      logMethod(args, method) {
        const [first, ...rest] = args;
        // A bare error: pino would take its message as the line's message, unscrubbed.
        const head =
          first instanceof Error && typeof rest[0] !== 'string'
            ? [{ err: first }, scrubText(first.message, secrets)]
            : [first];
        const scrubbed = [...head, ...rest].map((arg) =>
          typeof arg === 'string' ? scrubText(arg, secrets) : arg instanceof Error ? { err: arg } : arg,
        ) as Parameters<typeof method>;
        method.apply(this, scrubbed);
      },
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
export type { Logger };
