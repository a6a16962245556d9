/**
 * The journeys' `test`: seeds users and releases through the test-only fixtures route and signs a
 * browser context in by writing its session cookie (no clicking through the sign-in form).
 */
import AxeBuilder from '@axe-core/playwright';
import { type BrowserContext, test as base, expect, type Page } from '@playwright/test';
import { e2eEnv } from './env';

export type SeedUserOptions = {
  email?: string;
  password?: string;
  fullName?: string;
  artistName?: string;
  plan?: 'basic' | 'pro';
  roles?: ('admin' | 'moderator' | 'free_access')[];
  subscription?: 'active' | 'canceled' | 'past_due' | 'inactive';
  subscriptionEnd?: string | null;
  isEmailVerified?: boolean;
  banReason?: string;
  balanceCents?: number;
  totalEarningsCents?: number;
  isSignedIn?: boolean;
};

export type SeededUser = {
  userId: string;
  email: string;
  password: string;
  artistName: string;
  cookie: string | null;
};

async function fixture<T>(pathName: string, body: unknown): Promise<T> {
  const response = await fetch(`${e2eEnv.baseUrl}/api/test-fixtures${pathName}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-fixtures-token': e2eEnv.fixturesToken },
    body: JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`fixture ${pathName} failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export const seed = {
  user: (options: SeedUserOptions = {}) => fixture<SeededUser>('/users', options),
  release: (options: {
    userId: string;
    title?: string;
    status?: string;
    trackCount?: number;
    takedownRequested?: boolean;
    rejectionReason?: string | null;
    /** `YYYY-MM-DD`; default December 1st of this year. */
    releaseDate?: string;
    /** `YYYY-MM-DD` or null; default 2000-01-01 (sales of any past month raise no warning). */
    originalReleaseDate?: string | null;
    /** Platform ids; default Spotify and Apple Music. */
    distributionStores?: string[];
    /** One ISRC (or null) per track, in order. */
    isrcs?: (string | null)[];
    /** An artist-supplied UPC (12 or 13 digits with a valid check digit). */
    upc?: string;
    /** One of the owner's artist profiles (record 201); default the first. */
    artistProfileId?: string;
  }) => fixture<{ releaseId: string; trackIds: string[] }>('/releases', options),
  /** A signed tax form (issue 38), as the interview signs it; `form` is a TaxFormInput. */
  taxForm: (options: { userId: string; form: unknown }) =>
    fixture<{ id: string; sha256: string }>('/tax-form', options),
  /** A payout run of this account alone (issue 38), as the monthly run would pay it. */
  payoutRun: (options: { userId: string }) =>
    fixture<{ runId: string; totals: { payees: number; blocked: number } }>('/payouts/run', options),
  /** A payout run of this account alone, killed after the provider answered (issue 38): resumed by the admin. */
  killedPayoutRun: (options: { userId: string }) =>
    fixture<{ runId: string }>('/payouts/run-killed', options),
  /** An uploaded royalty import whose job was lost: it stays staging until an admin retries it. */
  stuckRoyaltyImport: (options: { fileName: string; content: string }) =>
    fixture<{ id: string }>('/royalty-imports/stuck', options),
};

/** Calls the API as a seeded user (their session cookie), outside any page: what another person does meanwhile. */
export async function apiAs(
  user: SeededUser,
  method: 'GET' | 'POST' | 'PUT',
  pathName: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${e2eEnv.baseUrl}${pathName}`, {
    method,
    headers: {
      cookie: user.cookie ?? '',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as unknown) : null };
}

/** Adds the seeded user's session cookie to the context. */
export async function signIn(context: BrowserContext, user: SeededUser): Promise<void> {
  if (!user.cookie) throw new Error('the seeded user has no session (isSignedIn: false)');
  const url = new URL(e2eEnv.baseUrl);
  await context.addCookies(
    user.cookie.split('; ').map((pair) => {
      const index = pair.indexOf('=');
      return {
        name: pair.slice(0, index),
        value: pair.slice(index + 1),
        domain: url.hostname,
        path: '/',
        httpOnly: true,
        sameSite: 'Lax' as const,
      };
    }),
  );
}

/** Seeds a user and returns a signed-in page of a fresh context. */
export async function pageAs(
  browser: import('@playwright/test').Browser,
  options: SeedUserOptions = {},
): Promise<{ page: Page; context: BrowserContext; user: SeededUser }> {
  const user = await seed.user(options);
  const context = await browser.newContext({ baseURL: e2eEnv.baseUrl });
  await signIn(context, user);
  const page = await context.newPage();
  return { page, context, user };
}

/**
 * Waits until no toast is fading in or out, then runs axe. sonner fades a toast and, apart, its children
 * (title, description, buttons), so each must be fully shown or fully hidden. A toast beyond the Toaster's
 * `visibleToasts` stays hidden at opacity 0 while a pointer rests over the toasts (it pauses their timers,
 * as Playwright's does after clicking a button at the bottom of a phone screen).
 */
async function analyzeSettled(page: Page) {
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll('[data-sonner-toast]')).every(
      (toast) =>
        toast.getAttribute('data-mounted') === 'true' &&
        toast.getAttribute('data-removed') !== 'true' &&
        getComputedStyle(toast).opacity === (toast.getAttribute('data-visible') === 'false' ? '0' : '1') &&
        Array.from(toast.children).every((child) => ['0', '1'].includes(getComputedStyle(child).opacity)),
    ),
  );
  return new AxeBuilder({ page }).analyze();
}

/** Serious or critical accessibility violations on the page as it is now. */
export async function seriousA11yViolations(page: Page) {
  // A toast fading in or out passes through low contrast: check once entering toasts are fully shown and
  // leaving ones are gone, and again if a toast came or went while axe was reading the page (an answer
  // that raises a toast can arrive at any moment). Toasts on screen are still checked.
  const toastsNow = () =>
    page.evaluate(() =>
      Array.from(document.querySelectorAll('[data-sonner-toast]'))
        .map((toast) => toast.textContent ?? '')
        .join('|'),
    );
  let attempt = 1;
  let before = await toastsNow();
  let results = await analyzeSettled(page);
  while (attempt < 3 && (await toastsNow()) !== before) {
    attempt += 1;
    before = await toastsNow();
    results = await analyzeSettled(page);
  }
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    );
}

/** Mails written by the server's outbox (no SMTP_URL in e2e), newest last. */
export async function outboxMails(recipient?: string): Promise<{ file: string; text: string }[]> {
  const fs = await import('node:fs/promises');
  const path = await import('node:path');
  const dir = path.join(e2eEnv.dataDir, 'outbox');
  const files = (await fs.readdir(dir).catch(() => [] as string[]))
    .filter((file) => file.endsWith('.eml'))
    .sort();
  const mails = await Promise.all(
    files.map(async (file) => ({ file, text: await fs.readFile(path.join(dir, file), 'utf8') })),
  );
  return recipient
    ? mails.filter((mail) => mail.text.toLowerCase().includes(recipient.toLowerCase()))
    : mails;
}

export const test = base;
export { expect };
