/** The JSON error shape every API answer uses, shared so the web client can read it. */

export type ApiErrorBody = {
  error: { code: string; message: string; fields?: Record<string, string> };
};

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    'error' in value &&
    typeof (value as { error: unknown }).error === 'object' &&
    (value as { error: { message?: unknown } }).error !== null &&
    typeof (value as { error: { message?: unknown } }).error.message === 'string'
  );
}
