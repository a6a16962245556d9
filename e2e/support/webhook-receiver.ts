/**
 * A local webhook receiver for the journeys (issue 40): it keeps every request it gets, answers the next
 * status queued in `answers` (200 when none), and verifies a message with the `standardwebhooks` package.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export type Received = { headers: http.IncomingHttpHeaders; body: string };
export type WebhookEvent = { type: string; data: Record<string, unknown> };

export async function startWebhookReceiver() {
  const received: Received[] = [];
  const answers: number[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.statusCode = answers.shift() ?? 200;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    received,
    answers,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    /** The message's event, when its signature verifies with `secret` (throws otherwise). */
    verify: (secret: string, message: Received) =>
      new Webhook(secret).verify(message.body, {
        'webhook-id': String(message.headers['webhook-id']),
        'webhook-timestamp': String(message.headers['webhook-timestamp']),
        'webhook-signature': String(message.headers['webhook-signature']),
      }) as WebhookEvent,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
