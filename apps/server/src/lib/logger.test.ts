/**
 * Record 226: no log line carries a failed query's parameters (drizzle writes them into its message and
 * stack, pg a row's values into `detail`) or a secret of the environment, whatever the error.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deliveryAcks } from '../db/schema';
import { createTestSystem, type TestSystem } from '../test-support/harness';
import { createLogger } from './logger';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
}, 60_000);
afterAll(async () => {
  await system?.close();
});

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk));
      callback();
    },
  });
  return { lines, destination };
}

it('a failed insert is logged with its query but without its parameters or the environment', async () => {
  const parameter = `APP_SECRET=param-${randomUUID()}`;
  const secret = `sk_live_${randomUUID()}`;
  process.env.STRIPE_SECRET_KEY_LOGGER_TEST = secret;
  try {
    const { lines, destination } = capture();
    const logger = createLogger('warn', destination);
    // A target that does not exist: the insert fails on its foreign key, with the text as a parameter.
    const error = await system.db
      .insert(deliveryAcks)
      .values({
        targetId: randomUUID(),
        remotePath: 'p',
        fileName: 'f',
        outcome: 'malformed',
        text: parameter,
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toContain(parameter);
    logger.warn({ err: error, targetId: 't' }, 'acknowledgement not recorded');
    logger.warn({ error: new Error(`wrapped: ${(error as Error).message} ${secret}`) }, 'second form');
    logger.error(`a message built from it: ${(error as Error).message}`);
    logger.error(new Error(`bare ${secret}`));
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(4);
    const all = lines.join('\n');
    expect(all).toContain('Failed query: insert into \\"delivery_acks\\"');
    expect(all).toContain('params: [redacted]');
    expect(all).not.toContain(parameter);
    expect(all).not.toContain(secret);
    expect(all).not.toMatch(/is not present in table/);
  } finally {
    delete process.env.STRIPE_SECRET_KEY_LOGGER_TEST;
  }
});
