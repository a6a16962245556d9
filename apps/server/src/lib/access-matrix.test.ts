/**
 * Black-box access matrix: every route of test-support/route-table.ts, called over HTTP (in-process) as
 * each kind of caller, must answer what its rule says. Refusals are exact (401 / 402 / 403 with the
 * access messages); callers the rule lets through must get past the access check without a server
 * error, and another artist must never reach the owner's resources (404).
 */
import { randomUUID } from 'node:crypto';
import { GATE_MESSAGE } from '@tunedrop/shared';
import { type MemberRole, ROLE_LABELS, roleAllows, TEAM_TEXTS } from '@tunedrop/shared/schemas/team';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableTestFixtures } from '../app';
import { accountMembers } from '../db/schema';
import { testFixturesRoutes } from '../modules/test-fixtures/routes';
import { createTestRelease, createTestUser, signInCookie } from '../test-support/fixtures';
import { createTestSystem, type TestSystem } from '../test-support/harness';
import { addTestCover } from '../test-support/releases-fixtures';
import { type MatrixFixture, ROUTE_TABLE, type RouteRow } from '../test-support/route-table';
import { fundUser, savePaypal } from '../test-support/wallet-fixtures';
import { ACCOUNT_COOKIE, type AccessRule } from './access';

const PERSONAS = [
  'anonymous',
  'unverified',
  'unsubscribed',
  'basic',
  'pro',
  'banned',
  'moderatorWithoutSubscription',
  'moderator',
  'admin',
  'anotherArtist',
  // Team members of the owner (basic) acting for that account (records 202, 325); their own plan is inactive.
  'adminMember',
  'catalogMember',
  'financeMember',
  'viewerMember',
] as const;
type Persona = (typeof PERSONAS)[number];

type MemberPersona = 'adminMember' | 'catalogMember' | 'financeMember' | 'viewerMember';
type ArtistPersona = Exclude<Persona, MemberPersona>;
const MEMBER_ROLE_OF: Partial<Record<Persona, MemberRole>> = {
  adminMember: 'admin',
  catalogMember: 'catalog',
  financeMember: 'finance',
  viewerMember: 'viewer',
};
const roleRefusal = (role: MemberRole) =>
  ({ kind: 'refused', status: 403, message: TEAM_TEXTS.roleRefused(ROLE_LABELS[role]) }) as const;

type Expectation =
  | { kind: 'refused'; status: 401 | 402 | 403; message: string }
  | { kind: 'allowed' }
  | { kind: 'notFound' };

const UNAUTHORIZED = { kind: 'refused', status: 401, message: 'Please sign in.' } as const;
const GATED = { kind: 'refused', status: 402, message: GATE_MESSAGE } as const;
const NOT_STAFF = {
  kind: 'refused',
  status: 403,
  message: "You don't have admin or moderator privileges.",
} as const;
const NOT_ADMIN = {
  kind: 'refused',
  status: 403,
  message: 'You need admin privileges to access this page.',
} as const;
const ALLOWED = { kind: 'allowed' } as const;

/** What each caller must get from a rule (spec 02 §6; staff routes check the role, never the payment). */
const EXPECTED: Record<AccessRule, Record<ArtistPersona, Expectation>> = {
  public: Object.fromEntries(PERSONAS.map((persona) => [persona, ALLOWED])) as Record<
    ArtistPersona,
    Expectation
  >,
  user: {
    anonymous: UNAUTHORIZED,
    unverified: UNAUTHORIZED,
    unsubscribed: ALLOWED,
    basic: ALLOWED,
    pro: ALLOWED,
    banned: ALLOWED,
    moderatorWithoutSubscription: ALLOWED,
    moderator: ALLOWED,
    admin: ALLOWED,
    anotherArtist: ALLOWED,
  },
  subscriber: {
    anonymous: UNAUTHORIZED,
    unverified: UNAUTHORIZED,
    unsubscribed: GATED,
    basic: ALLOWED,
    pro: ALLOWED,
    banned: ALLOWED,
    moderatorWithoutSubscription: GATED,
    moderator: ALLOWED,
    admin: ALLOWED,
    anotherArtist: ALLOWED,
  },
  moderator: {
    anonymous: UNAUTHORIZED,
    unverified: UNAUTHORIZED,
    unsubscribed: NOT_STAFF,
    basic: NOT_STAFF,
    pro: NOT_STAFF,
    banned: NOT_STAFF,
    moderatorWithoutSubscription: ALLOWED,
    moderator: ALLOWED,
    admin: ALLOWED,
    anotherArtist: NOT_STAFF,
  },
  admin: {
    anonymous: UNAUTHORIZED,
    unverified: UNAUTHORIZED,
    unsubscribed: NOT_ADMIN,
    basic: NOT_ADMIN,
    pro: NOT_ADMIN,
    banned: NOT_ADMIN,
    moderatorWithoutSubscription: NOT_ADMIN,
    moderator: NOT_ADMIN,
    admin: ALLOWED,
    anotherArtist: NOT_ADMIN,
  },
};

/** The access check's own refusals, told apart from a route's own 403s (ownership, ban, plan). */
const ACCESS_MESSAGES = new Set<string>([
  UNAUTHORIZED.message,
  GATED.message,
  NOT_STAFF.message,
  NOT_ADMIN.message,
  ...Object.values(MEMBER_ROLE_OF).map((role) => roleRefusal(role).message),
]);

/**
 * A member acting for the owner's account: staff and public rules as for any artist; on the account's
 * routes the owner's subscription counts, then the role: allowed, it reaches the owner's resources; a
 * personal route acts for the member, so the owner's resource stays out of reach (404).
 */
function memberExpectation(row: RouteRow, role: MemberRole): Expectation {
  if (row.rule !== 'user' && row.rule !== 'subscriber') return EXPECTED[row.rule].basic;
  if (!roleAllows(role, row.account)) return roleRefusal(role);
  if (row.account === 'personal' && row.owned) return { kind: 'notFound' };
  return ALLOWED;
}

function expectationFor(row: RouteRow, persona: Persona): Expectation {
  const memberRole = MEMBER_ROLE_OF[persona];
  if (memberRole) return memberExpectation(row, memberRole);
  const expected = EXPECTED[row.rule][persona as ArtistPersona];
  // Another artist passes the rule but must never reach the owner's (basic's) resource.
  if (persona === 'anotherArtist' && row.owned && expected.kind === 'allowed') return { kind: 'notFound' };
  return expected;
}

let system: TestSystem;
const cookies = new Map<Persona, string>();
let fixtures: Record<MatrixFixture, string>;

beforeAll(async () => {
  // The test-only seeding routes are in the table too; mount them as the e2e server does.
  enableTestFixtures(testFixturesRoutes);
  system = await createTestSystem({ E2E_FIXTURES_TOKEN: 'matrix-token' });
  const make = async (persona: Persona, options: Parameters<typeof createTestUser>[1]) => {
    const user = await createTestUser(system, options);
    if (persona !== 'unverified') cookies.set(persona, await signInCookie(system, user.email, user.password));
    return user;
  };
  const inactive = { subscription: 'inactive' } as const;
  const [owner] = await Promise.all([
    make('basic', { plan: 'basic' }),
    make('unsubscribed', inactive),
    make('pro', { plan: 'pro' }),
    make('banned', { banReason: 'Spam uploads' }),
    make('moderatorWithoutSubscription', { roles: ['moderator'], ...inactive }),
    make('moderator', { roles: ['moderator'] }),
    make('admin', { roles: ['admin'], ...inactive }),
    make('anotherArtist', { plan: 'pro' }),
  ]);
  // The unverified user has a correct password but no session: sign-in is refused until the email is confirmed.
  const unverified = await createTestUser(system, { isEmailVerified: false });
  const attempt = await system.request('/api/auth/sign-in/email', {
    method: 'POST',
    json: { email: unverified.email, password: unverified.password },
  });
  expect(attempt.status).toBe(403);
  cookies.set(
    'unverified',
    attempt.headers
      .getSetCookie()
      .map((line) => line.split(';')[0] ?? '')
      .join('; '),
  );

  if (!owner) throw new Error('no owner');
  await Promise.all(
    (Object.entries(MEMBER_ROLE_OF) as [Persona, MemberRole][]).map(async ([persona, role]) => {
      const member = await make(persona, inactive);
      await system.db.insert(accountMembers).values({ accountId: owner.userId, userId: member.userId, role });
      cookies.set(persona, `${cookies.get(persona)}; ${ACCOUNT_COOKIE}=${owner.userId}`);
    }),
  );
  const created = await createTestRelease(system, owner.userId, { trackCount: 1 });
  await addTestCover(system, owner.userId, created.releaseId);
  await fundUser(system, owner.userId, 100_00);
  await savePaypal(system, owner.userId);
  const requested = await system.request('/api/wallet/withdrawals', {
    method: 'POST',
    cookie: cookies.get('basic') ?? '',
    json: { amount: 60 },
  });
  expect(requested.status).toBe(201);
  const withdrawal = (await requested.json()) as { id: string };
  const wrote = await system.request('/api/support/messages', {
    method: 'POST',
    cookie: cookies.get('basic') ?? '',
    json: { subject: 'Where is my release?', body: 'It has been a week.' },
  });
  expect(wrote.status).toBe(201);
  const supportMessage = (await wrote.json()) as { id: string };
  fixtures = {
    release: created.releaseId,
    track: created.trackIds[0] ?? randomUUID(),
    withdrawal: withdrawal?.id ?? randomUUID(),
    user: owner.userId,
    coverSize: 'small',
    role: 'free_access',
    supportMessage: supportMessage.id,
  };
  // Sixteen callers signed in on a shared machine: more than the default minute.
}, 240_000);

afterAll(async () => {
  await system?.close();
});

function requestFor(row: RouteRow): {
  method: string;
  path: string;
  json?: unknown;
  headers: Record<string, string>;
} {
  const method = row.call?.method ?? row.method;
  const path =
    row.call?.path ??
    row.path.replace(/:(\w+)\??/g, (_, name: string) => {
      const fixture = row.params?.[name];
      return fixture ? fixtures[fixture] : randomUUID();
    });
  const hasBody = ['POST', 'PUT', 'PATCH'].includes(method);
  return {
    method,
    path,
    ...(hasBody ? { json: row.call?.json ?? {} } : {}),
    headers: { 'x-test-client-ip': '10.9.9.9', ...row.call?.headers },
  };
}

/** Status, and the error message when the answer is JSON; never waits for a streaming body. */
async function call(row: RouteRow, persona: Persona): Promise<{ status: number; message?: string }> {
  const request = requestFor(row);
  const cookie = cookies.get(persona);
  const response = await system.request(request.path, {
    method: request.method,
    headers: request.headers,
    ...(cookie ? { cookie } : {}),
    ...(request.json !== undefined ? { json: request.json } : {}),
  });
  const isJson = response.headers.get('content-type')?.includes('application/json') ?? false;
  if (!isJson) {
    await response.body?.cancel();
    return { status: response.status };
  }
  const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  return { status: response.status, ...(body?.error?.message ? { message: body.error.message } : {}) };
}

// Callers who must be refused go first, so a mutation by an allowed caller never changes their answer;
// another artist goes before the owner (basic) and the staff.
const ORDER: Persona[] = [
  'anonymous',
  'unverified',
  'unsubscribed',
  'anotherArtist',
  'banned',
  'viewerMember',
  'financeMember',
  'catalogMember',
  'adminMember',
  'pro',
  'moderatorWithoutSubscription',
  'moderator',
  'basic',
  'admin',
];

describe('access matrix: every route as every caller', () => {
  it('covers every persona and every route of the table', () => {
    expect(new Set(ORDER)).toEqual(new Set(PERSONAS));
    expect(ROUTE_TABLE.length).toBeGreaterThan(70);
  });

  it.each(ROUTE_TABLE.map((row) => [`${row.method} ${row.path} (${row.rule})`, row] as const))(
    '%s',
    async (_, row) => {
      const failures: string[] = [];
      for (const persona of ORDER) {
        const expected = expectationFor(row, persona);
        const { status, message } = await call(row, persona);
        const got = `${status}${message ? ` "${message}"` : ''}`;
        if (expected.kind === 'refused') {
          if (status !== expected.status || message !== expected.message) {
            failures.push(`${persona}: expected ${expected.status} "${expected.message}", got ${got}`);
          }
        } else if (expected.kind === 'notFound') {
          if (status !== 404) failures.push(`${persona}: expected 404 (not the owner), got ${got}`);
        } else {
          const isAccessRefusal = [401, 402, 403].includes(status) && ACCESS_MESSAGES.has(message ?? '');
          if (isAccessRefusal || status >= 500)
            failures.push(`${persona}: expected to pass access, got ${got}`);
        }
      }
      expect(failures).toEqual([]);
    },
  );
});
