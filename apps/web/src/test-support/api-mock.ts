/**
 * The web's route tests answer the API with Mock Service Worker (issue 37): `server` intercepts every
 * request the page makes, and a request no test answered fails the test (setup-dom.ts), so a test lists
 * exactly what its screen reads. Answers are typed with the shared response types.
 */
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';

export const server = setupServer();

/** Answers GET `/api<path>` with `body` (status 200 unless given). */
export const getJson = <T>(path: string, body: T, status = 200) =>
  http.get(`*/api${path}`, () => HttpResponse.json(body as never, { status }));

/** Answers GET `/api<path>` with the API's error body. */
export const getError = (path: string, status: number, code: string, message: string) =>
  http.get(`*/api${path}`, () => HttpResponse.json({ error: { code, message } }, { status }));
