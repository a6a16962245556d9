/**
 * Set-up of the web's route tests (project web-dom, happy-dom): the API mock and a clean DOM per test. A
 * request that no handler of the test answered fails the test, naming it.
 */
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { server } from './api-mock';

const unhandled: string[] = [];
beforeAll(() =>
  server.listen({
    onUnhandledRequest: (request) => {
      unhandled.push(`${request.method} ${new URL(request.url).pathname}`);
    },
  }),
);
afterEach(() => {
  cleanup();
  server.resetHandlers();
  const requests = unhandled.splice(0);
  if (requests.length > 0) throw new Error(`requests no handler answered: ${requests.join(', ')}`);
});
afterAll(() => server.close());
