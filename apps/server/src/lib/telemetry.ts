/**
 * OpenTelemetry traces (record 225): a request's span, the spans of the jobs it enqueued (their trace
 * context travels in the job's data) and of the delivery transport's calls, exported over OTLP/HTTP when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set. Unset, the SDK is never imported (its packages stay outside the
 * bundle, build.mjs) and every helper here returns at once: only `@opentelemetry/api`'s no-op is loaded.
 *
 * Spans carry no query, no request body and no job payload: names, routes, statuses, queue names, ids.
 */
import {
  type Attributes,
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { Logger } from './logger';

const TRACER = 'tunedrop';
/** The key of the trace context in a job's data (beside the request id of record 217). */
export const TRACE_KEY = '__trace';

let isOn = false;

/** Whether traces are being recorded and exported (OTEL_EXPORTER_OTLP_ENDPOINT set and started). */
export function isTracing(): boolean {
  return isOn;
}

export type Telemetry = { shutdown: () => Promise<void> };

/**
 * Starts the SDK when `endpoint` is set: spans batched to `<endpoint>/v1/traces` (OTLP/HTTP, JSON),
 * W3C trace context, AsyncLocalStorage for the active span. Returns how to flush and stop it.
 */
export async function startTelemetry(options: {
  endpoint: string | undefined;
  serviceName: string;
  role: string;
  logger: Logger;
}): Promise<Telemetry> {
  if (!options.endpoint) return { shutdown: async () => undefined };
  const [{ BasicTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, hooks, core, resources] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/core'),
      import('@opentelemetry/resources'),
    ]);
  const exporter = new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/$/, '')}/v1/traces` });
  const provider = new BasicTracerProvider({
    resource: resources.resourceFromAttributes({
      'service.name': options.serviceName,
      'service.instance.id': `${process.pid}`,
      'tunedrop.role': options.role,
    }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 })],
  });
  context.setGlobalContextManager(new hooks.AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  isOn = true;
  options.logger.info({ endpoint: options.endpoint }, 'OpenTelemetry traces are exported over OTLP/HTTP');
  return {
    async shutdown() {
      isOn = false;
      await provider.shutdown().catch((error: unknown) => {
        options.logger.warn({ err: error }, 'OpenTelemetry: the last spans could not be exported');
      });
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** Runs `fn` in a new active span, ended (with an error status when it throws) when `fn` settles. */
async function inSpan<T>(
  name: string,
  options: { kind: SpanKind; attributes?: Attributes },
  parent: Context,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const span = trace.getTracer(TRACER).startSpan(name, options, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (error) {
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message : String(error),
    });
    throw error;
  } finally {
    span.end();
  }
}

/**
 * A request's server span (`GET /api/releases/:id`), continuing the caller's `traceparent` when it sends
 * one. `route()` is read after the handler ran (the matched pattern, never the raw path).
 */
export async function traceRequest(
  request: { method: string; header: (name: string) => string | undefined },
  route: () => string,
  status: () => number,
  next: () => Promise<void>,
): Promise<void> {
  if (!isOn) return next();
  const traceparent = request.header('traceparent');
  const parent = traceparent
    ? propagation.extract(ROOT_CONTEXT, { traceparent, tracestate: request.header('tracestate') ?? '' })
    : ROOT_CONTEXT;
  await inSpan(
    request.method,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method } },
    parent,
    async (span) => {
      await next();
      const code = status();
      span.updateName(`${request.method} ${route()}`);
      span.setAttributes({ 'http.route': route(), 'http.response.status_code': code });
      if (code >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    },
  );
}

/** The active span's W3C context for a job's data (undefined when not tracing or outside any span). */
export function traceCarrier(): Record<string, string> | undefined {
  if (!isOn || !trace.getSpan(context.active())) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? carrier : undefined;
}

/** A job's data with the active span's context under TRACE_KEY (as it is when not tracing). */
export function withTraceContext(data: unknown): unknown {
  const carrier = traceCarrier();
  if (!carrier || !data || typeof data !== 'object' || Array.isArray(data)) return data;
  return { ...data, [TRACE_KEY]: carrier };
}

/** A job's stored data without its trace context, and that context. */
export function splitTraceContext(stored: unknown): { data: unknown; carrier: unknown } {
  if (!stored || typeof stored !== 'object' || !(TRACE_KEY in stored))
    return { data: stored, carrier: undefined };
  const { [TRACE_KEY]: carrier, ...data } = stored as Record<string, unknown>;
  return { data, carrier };
}

/** Runs a job in a consumer span, a child of the span that enqueued it when its data carried one. */
export function traceJob<T>(queue: string, carrier: unknown, fn: () => Promise<T>): Promise<T> {
  if (!isOn) return fn();
  const parent =
    carrier && typeof carrier === 'object'
      ? propagation.extract(ROOT_CONTEXT, carrier as Record<string, string>)
      : ROOT_CONTEXT;
  return inSpan(
    `job ${queue}`,
    { kind: SpanKind.CONSUMER, attributes: { 'messaging.destination.name': queue } },
    parent,
    () => fn(),
  );
}

/**
 * `target` with a client span around each call of its methods (`transport.putFile`), for the delivery
 * transports; the object itself when not tracing.
 */
export function traceCalls<T extends object>(prefix: string, target: T, attributes: Attributes): T {
  if (!isOn) return target;
  return new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      return (...args: unknown[]) => {
        const parent = context.active();
        const span = trace
          .getTracer(TRACER)
          .startSpan(`${prefix}.${property}`, { kind: SpanKind.CLIENT, attributes }, parent);
        try {
          const result: unknown = Reflect.apply(value as (...rest: unknown[]) => unknown, object, args);
          if (result instanceof Promise) {
            return result.then(
              (settled) => {
                span.end();
                return settled;
              },
              (error: unknown) => {
                span.setStatus({
                  code: SpanStatusCode.ERROR,
                  message: error instanceof Error ? error.message : String(error),
                });
                span.end();
                throw error;
              },
            );
          }
          span.end();
          return result;
        } catch (error) {
          span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
          throw error;
        }
      };
    },
  });
}
