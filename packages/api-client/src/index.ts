/**
 * A typed client of the Tunedrop API v1 (issue 40): openapi-fetch over the types openapi-typescript
 * generates from the committed document (src/v1.ts). Paths, parameters, bodies and answers are checked
 * by TypeScript; an error answer comes back as `error` with its closed `code`.
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './v1';

export type { components, operations, paths } from './v1';
export type TunedropClient = Client<paths>;
/** The body of every error answer: `{ error: { code, message, fields? } }`. */
export type ApiErrorBody = components['schemas']['Error'];

export type TunedropClientOptions = Omit<ClientOptions, 'baseUrl' | 'headers'> & {
  /** The server's address, e.g. `https://music.example.com` (the client adds `/api/v1`). */
  server: string;
  /** A key made on Account → API keys or with `cli api-key:create` (`td_live_…`). */
  apiKey: string;
  /** Headers sent with every request besides the key's. */
  headers?: Record<string, string>;
};

export function createTunedropClient({ server, apiKey, headers, ...options }: TunedropClientOptions) {
  return createClient<paths>({
    ...options,
    baseUrl: `${server.replace(/\/+$/, '')}/api/v1`,
    headers: { ...headers, authorization: `Bearer ${apiKey}` },
  });
}

export { UploadError, type UploadKind, uploadFile } from './uploads';
