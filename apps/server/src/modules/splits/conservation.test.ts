/**
 * Posting with splits conserves every cent, for any amounts and any shares adding up to 100% (fast-check,
 * on the test database: PGlite by default, PostgreSQL with DATABASE_URL). Each run saves a split of the
 * release between its owner and two invited payees (their shares held until they accept), imports and
 * posts a report of random lines, and checks the posting against the rules of packages/shared/src/money:
 * the owner's and the payees' cents add up to the report's total truncated to the cent, each payee's
 * cents are their exact share truncated, and the residue is what is left below the cent.
 */
import { formatScaled, parseScaled } from '@tunedrop/shared/money';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rows } from '../../lib/sql';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { afterJobs } from '../../test-support/royalty-jobs';
import { postImport } from '../royalty-posting';
import { auditBalances } from '../wallet';

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
let owner: { userId: string; cookie: string; email: string };
let releaseId: string;
const ISRCS = ['QZCNS2500001', 'QZCNS2500002'] as const;
const PAYEES = ['first.payee@example.com', 'second.payee@example.com'] as const;

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
  owner = await system.signedInUser({ plan: 'basic', email: 'owner.conserve@example.com' });
  const release = await createTestRelease(system, owner.userId, {
    status: 'live',
    trackCount: 2,
    isrcs: [...ISRCS],
  });
  releaseId = release.releaseId;
});
afterAll(async () => {
  await system.close();
});

const HEADER =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';

/** Shares in hundredths of a percent: owner and two payees, each at least 0.01%, adding up to 100%. */
const shares = fc
  .uniqueArray(fc.integer({ min: 1, max: 9999 }), { minLength: 2, maxLength: 2 })
  .map((cuts) => {
    const [a, b] = cuts.sort((x, y) => x - y) as [number, number];
    return [a, b - a, 10000 - b].map(BigInt) as [bigint, bigint, bigint];
  });
/** Sales lines: a track and an amount of up to four decimals (0.0001 to 9,999.9999 USD). */
const sales = fc.array(
  fc.record({
    track: fc.integer({ min: 0, max: 1 }),
    units: fc.integer({ min: 1, max: 99_999_999 }),
  }),
  { minLength: 1, maxLength: 6 },
);

const percentText = (hundredths: bigint) => formatScaled({ units: hundredths, scale: 2 });
let run = 0;

it('credits or holds every cent of a split report, each payee their exact share truncated', async () => {
  await fc.assert(
    fc.asyncProperty(shares, sales, async ([ownerShare, ...payeeShares], lines) => {
      run += 1;
      const saved = await system.request(`/api/releases/${releaseId}/splits`, {
        method: 'PUT',
        cookie: owner.cookie,
        json: {
          trackId: null,
          ownerPercent: percentText(ownerShare),
          payees: PAYEES.map((email, index) => ({
            email,
            percent: percentText(payeeShares[index] ?? 0n),
          })),
        },
      });
      expect(saved.status).toBe(200);
      const amounts = lines.map((line) => formatScaled({ units: BigInt(line.units), scale: 4 }));
      const body = `${[
        HEADER,
        ...lines.map(
          (line, index) =>
            `2025-12-10\t2025-11\tStore${run}\tArtist\tSong\t${ISRCS[line.track]}\t\t1\t100\tSong\tUS\t0\t${amounts[index]}`,
        ),
      ].join('\r\n')}\r\n`;
      const upload = await system.request(`/api/admin/royalties/imports?filename=conserve-${run}.tsv`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/octet-stream' },
        cookie: people.admin.cookie,
      });
      const summary = await readJson(await afterJobs(system, upload, people.admin.cookie));
      expect(summary.status).toBe('staged');
      const posted = await postImport(system.db, summary.id, { admin: null });

      // The report's total in 10^-4 USD, and truncated to the cent.
      const total = amounts.reduce((sum, amount) => sum + (parseScaled(amount)?.units ?? 0n), 0n);
      const totalCents = total / 100n;
      expect(BigInt(posted.postedCents + posted.heldCents)).toBe(totalCents);
      // The residue stays below the cent: the report's total less the cents credited or held.
      const residue = parseScaled(posted.residue) ?? { units: -1n, scale: 0 };
      expect(residue.units * 10n ** BigInt(4 - residue.scale)).toBe(total - totalCents * 100n);
      const settlements = await rows<{ email: string; cents: number | string }>(
        system.db,
        sql`select p.email, s.cents from split_settlements s join split_payees p on p.id = s.payee_id
             where s.import_id = ${summary.id}`,
      );
      PAYEES.forEach((email, index) => {
        // total × share / 10000 in 10^-4 USD, truncated to whole cents (10^-2 USD).
        const expected = (total * (payeeShares[index] ?? 0n)) / 10000n / 100n;
        const found = settlements.find((settlement) => settlement.email === email);
        expect(BigInt(found?.cents ?? 0)).toBe(expected);
      });
    }),
    { numRuns: 12 },
  );
  expect((await auditBalances(system.db)).mismatches).toEqual([]);
}, 120_000);
