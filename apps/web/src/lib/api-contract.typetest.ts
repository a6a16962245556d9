/**
 * Compile-time proof that the web app and the server agree on the API (record 090): `npm run typecheck`
 * fails when a response shape on the server drifts from the shape declared in packages/shared.
 * Never imported by the app, so Vite never bundles it; tsc -b checks it with every other file.
 */

import type { AppType } from '@tunedrop/server/app-type';
import type { MeResponse } from '@tunedrop/shared';
import type { hc, InferResponseType } from 'hono/client';

type Client = ReturnType<typeof hc<AppType>>;
type Exactly<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** What GET /api/me answers with 200, as hono/client infers it from the server's routes. */
type Me = InferResponseType<Client['api']['me']['$get'], 200>;

export const meIsTheSharedShape: Exactly<Me, MeResponse> = true;
// @ts-expect-error the check above is exact: one field more (or less, or of another type) is an error
export const changedShapeFails: Exactly<Me, MeResponse & { extra: string }> = true;
// @ts-expect-error a status the route does not answer has no body type
export const noTeapot: Exactly<InferResponseType<Client['api']['me']['$get'], 418>, MeResponse> = true;
