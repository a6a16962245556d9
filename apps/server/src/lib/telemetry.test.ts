/**
 * OpenTelemetry traces (record 225) seen by a local OTLP/HTTP receiver: a request's server span, and the
 * span of the job it enqueued, a child in the same trace. Without the endpoint nothing is traced.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allJobs } from '../job-registry';
import { createTestSystem, type TestSystem } from '../test-support/harness';
import { createJobEngine, type JobEngine } from './jobs';
import { createLogger } from './logger';
import { isTracing, traceCalls, traceJob } from './telemetry';

type ReceivedSpan = { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number };

/** Collects the spans of every OTLP/HTTP JSON export it is sent. */
function startReceiver() {
  const spans: ReceivedSpan[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans: { scopeSpans: { spans: ReceivedSpan[] }[] }[];
        };
        for (const resource of body.resourceSpans)
          for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return {
    spans,
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
        ),
      ),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function waitFor<T>(find: () => T | undefined, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('OpenTelemetry traces', () => {
  const receiver = startReceiver();
  let system: TestSystem;
  let worker: JobEngine;

  beforeAll(async () => {
    const endpoint = await receiver.listen();
    system = await createTestSystem({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint });
    // A working engine beside the harness's (which only enqueues), running the mail job.
    worker = createJobEngine({
      role: 'all',
      jobs: allJobs.filter((job) => job.name === 'mail.send'),
      deps: system,
      logger: createLogger('silent'),
      database: system.database,
      databaseUrl: system.config.DATABASE_URL,
      pollingIntervalSeconds: 0.5,
    });
    await worker.start();
  }, 60_000);

  afterAll(async () => {
    await worker?.stop({ timeoutMs: 1000 });
    await system?.close();
    await receiver.close();
  });

  it('exports the span of a request and, in the same trace, the span of the job it enqueued', async () => {
    expect(isTracing()).toBe(true);
    const response = await system.request('/api/contact', {
      method: 'POST',
      json: { name: 'Ada Tracer', companyName: 'Trace Co', email: 'ada@example.com', links: [] },
    });
    expect(response.status).toBe(201);
    const requestSpan = await waitFor(() => receiver.spans.find((span) => span.name === 'POST /api/contact'));
    const jobSpan = await waitFor(() =>
      receiver.spans.find((span) => span.name === 'job mail.send' && span.traceId === requestSpan.traceId),
    );
    expect(jobSpan.parentSpanId).toBe(requestSpan.spanId);
    // Server and consumer spans (OTLP's SpanKind numbers).
    expect([requestSpan.kind, jobSpan.kind]).toEqual([2, 5]);
  });

  it("puts a transport's calls in client spans under the job that makes them", async () => {
    const transport = traceCalls(
      'transport',
      {
        putText: async (name: string) => name.length,
        failing: async () => {
          throw new Error('connection refused');
        },
      },
      { 'tunedrop.target.id': 'target-1' },
    );
    await traceJob('delivery.send', undefined, async () => {
      expect(await transport.putText('message.xml')).toBe(11);
      await expect(transport.failing()).rejects.toThrow('connection refused');
    });
    const job = await waitFor(() => receiver.spans.find((span) => span.name === 'job delivery.send'));
    const put = await waitFor(() => receiver.spans.find((span) => span.name === 'transport.putText'));
    const failed = await waitFor(() => receiver.spans.find((span) => span.name === 'transport.failing'));
    expect([put.parentSpanId, failed.parentSpanId]).toEqual([job.spanId, job.spanId]);
    // OTLP's status code 2: error.
    expect((failed as ReceivedSpan & { status?: { code?: number } }).status?.code).toBe(2);
  });
});
