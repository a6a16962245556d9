/** fetch for our JSON API: same-origin cookies, JSON bodies, and ApiError for every non-2xx answer. */
import { isApiErrorBody } from '@tunedrop/shared';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Options = Omit<RequestInit, 'body'> & {
  body?: unknown;
  query?: Record<string, string | number | undefined>;
};

export async function api<T>(path: string, options: Options = {}): Promise<T> {
  const { body, query, headers, ...rest } = options;
  let url = path;
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query))
      if (value !== undefined && value !== '') params.set(key, String(value));
    const text = params.toString();
    if (text) url += `${url.includes('?') ? '&' : '?'}${text}`;
  }
  const isJson = body !== undefined && !(body instanceof FormData) && !(body instanceof Blob);
  const response = await fetch(url, {
    credentials: 'same-origin',
    ...rest,
    headers: { ...(isJson ? { 'content-type': 'application/json' } : {}), ...headers },
    body: isJson ? JSON.stringify(body) : (body as BodyInit | undefined),
  });
  const text = await response.text();
  const data: unknown = text ? safeJson(text) : null;
  if (!response.ok) {
    if (isApiErrorBody(data))
      throw new ApiError(response.status, data.error.code, data.error.message, data.error.fields);
    throw new ApiError(response.status, 'http_error', `Request failed (${response.status})`);
  }
  return data as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.message) return error.message;
  return fallback;
}
