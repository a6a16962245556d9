/**
 * One POST to a webhook endpoint (record 291), SSRF-safe: the host's addresses must pass the delivery
 * targets' rule (record 227: no loopback, private, link-local or metadata address unless
 * DELIVERY_ALLOWED_HOSTS names it), checked on the address the socket connects to; no redirects followed;
 * https required with NODE_ENV=production.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { WEBHOOK_TEXTS } from '@tunedrop/shared/schemas/webhooks';
import type { Config } from '../../config';
import { validationError } from '../../lib/errors';
import { allowedAddresses, guardedLookup, TargetAddressRefusedError } from '../delivery';

const TIMEOUT_MS = 15_000;

const bare = (host: string) => host.replace(/^\[|\]$/g, '');

/** The URL rules when an endpoint is saved: 422 on `url` with the admin-facing sentence. */
export async function assertEndpointUrl(config: Config, raw: string): Promise<void> {
  const url = new URL(raw);
  if (url.protocol !== 'https:' && (config.NODE_ENV === 'production' || url.protocol !== 'http:'))
    throw validationError(WEBHOOK_TEXTS.httpsRequired, { url: WEBHOOK_TEXTS.httpsRequired });
  try {
    await allowedAddresses(config, bare(url.hostname));
  } catch (error) {
    if (error instanceof TargetAddressRefusedError)
      throw validationError(error.message, { url: error.message });
    // A name that does not resolve now is left to the delivery, which checks it again.
  }
}

export type PostResult = { status: number; body: string } | { error: string };

export async function postWebhook(
  config: Config,
  raw: string,
  headers: Record<string, string>,
  body: string,
): Promise<PostResult> {
  const url = new URL(raw);
  if (url.protocol !== 'https:' && (config.NODE_ENV === 'production' || url.protocol !== 'http:'))
    return { error: WEBHOOK_TEXTS.httpsRequired };
  try {
    // An address in the URL connects without a lookup: checked here; a name is checked by the lookup.
    if (net.isIP(bare(url.hostname))) await allowedAddresses(config, bare(url.hostname));
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<PostResult>((resolve) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(config),
        timeout: TIMEOUT_MS,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (text.length < 1000) text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text.slice(0, 1000) }));
        response.on('error', (error) => resolve({ error: error.message }));
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} seconds`)));
    request.on('error', (error) => resolve({ error: error.message }));
    request.end(body);
  });
}
