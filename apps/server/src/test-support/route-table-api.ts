/**
 * The /api/v1 rows of the route table (record 290): one per v1 route, made from the app route it runs
 * (same rule, same matrix call under /api/v1).
 */
import { V1_ROUTES, v1Path } from '../modules/public-api';

type Row = { method: string; path: string; call?: { path?: string } };

const toV1 = (path: string) => (path.startsWith('/api/') ? v1Path(path.slice('/api'.length)) : path);

export function v1Rows<R extends Row>(app: readonly R[]): R[] {
  return V1_ROUTES.map((entry): R => {
    const base = app.find((row) => row.method === entry.method && row.path === `/api${entry.path}`);
    if (!base) throw new Error(`v1 route ${entry.method} ${entry.path} has no row in the route table`);
    return {
      ...base,
      path: toV1(base.path),
      ...(base.call
        ? { call: { ...base.call, ...(base.call.path ? { path: toV1(base.call.path) } : {}) } }
        : {}),
    };
  });
}
