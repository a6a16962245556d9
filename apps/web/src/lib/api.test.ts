import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, client, unwrap } from './api';

function answer(status: number, body: string, contentType = 'application/json') {
  const fetchMock = vi.fn(
    async (_input: RequestInfo | URL, _init?: RequestInit) =>
      new Response(body, { status, headers: { 'content-type': contentType } }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe('unwrap(client…)', () => {
  it('returns the 2xx body and calls the typed path with its query', async () => {
    const fetchMock = answer(200, JSON.stringify({ users: [], total: 0, pageSize: 20, counts: {} }));
    const page = await unwrap(client.admin.users.$get({ query: { q: 'ann', tab: 'all', page: '2' } }));
    expect(page.total).toBe(0);
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/admin/users?q=ann&tab=all&page=2');
  });

  it("throws ApiError with the server's code, message and fields", async () => {
    answer(
      422,
      JSON.stringify({
        error: { code: 'validation_error', message: 'Too long', fields: { reason: 'Too long' } },
      }),
    );
    const failure = unwrap(
      client.admin.withdrawals[':id'].reject.$post({ param: { id: 'w1' }, json: { reason: 'x' } }),
    );
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({
      status: 422,
      code: 'validation_error',
      rawCode: 'validation_error',
      message: 'Too long',
      fields: { reason: 'Too long' },
    });
  });

  it('keeps a code this build does not know in rawCode, with code http_error', async () => {
    answer(409, JSON.stringify({ error: { code: 'from_a_newer_server', message: 'Not now' } }));
    await expect(unwrap(client.me.$get())).rejects.toMatchObject({
      status: 409,
      code: 'http_error',
      rawCode: 'from_a_newer_server',
      message: 'Not now',
    });
  });

  it('throws http_error when a failure has no error body', async () => {
    answer(502, '<html>Bad gateway</html>', 'text/html');
    await expect(unwrap(client.me.$get())).rejects.toMatchObject({
      status: 502,
      code: 'http_error',
      message: 'Request failed (502)',
    });
  });
});
