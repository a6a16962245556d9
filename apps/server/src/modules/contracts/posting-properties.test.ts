/**
 * The contract step's arithmetic for any contract and report (fast-check, record 285): the artist is
 * credited trunc(Σ basis × rate) of the lines' first matching terms, the label trunc(net − royalty), the
 * operator trunc(gross) − trunc(net), and the rest is the report's residue, never negative, below a cent
 * per payee; `ledger:verify` and `audit:balances` hold after every posting. The model is computed with the shared money module.
 */
import {
  isZeroDecimal,
  multiplyDecimal,
  subtractDecimal,
  sumDecimals,
  truncateToCents,
  unitsToDecimal,
} from '@tunedrop/shared/money';
import type { ContractChannel, ContractInput, ContractTermInput } from '@tunedrop/shared/schemas/contracts';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommands } from '../../cli-commands';
import { profiles, settings } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { uploadReport } from '../../test-support/royalty-jobs';
import { postImport } from '../royalty-posting';

const FUGA =
  'Sale ID,Sale Start date,DSP,Territory,Sale Type,Asset ISRC,Product UPC,Asset Quantity,Reported Royalty,Currency,Asset Title,Asset Artist';
const SALE_TYPES: Record<'stream' | 'download' | 'physical', string> = {
  stream: 'Stream',
  download: 'Download',
  physical: 'Physical',
};
const FEE_PERCENT = '10';

let system: TestSystem;
let adminCookie: string;
let run = 0;

beforeAll(async () => {
  system = await createTestSystem();
  adminCookie = (await staff(system)).admin.cookie;
  await system.db.insert(settings).values({ key: 'FEE_PERCENT_PRO', value: FEE_PERCENT });
});
afterAll(async () => system?.close());

const channel = fc.constantFrom<keyof typeof SALE_TYPES>('stream', 'download', 'physical');
const percent = (max: number) =>
  fc.integer({ min: 0, max: max * 100 }).map((hundredths) => unitsToDecimal(hundredths, 2));
/**
 * Up to 100% of net; of gross, up to 100% less the operator's fee: above it the label's share of a line is
 * negative, which a label without the balance to cover it cannot post (posting-test covers that refusal).
 */
const basisAndRate = fc.oneof(
  fc.record({ basis: fc.constant<'net'>('net'), rate: percent(100) }),
  fc.record({ basis: fc.constant<'gross'>('gross'), rate: percent(90) }),
);
const term = fc
  .tuple(fc.option(channel, { nil: null }), basisAndRate)
  .map(([sold, applied]) => ({ channel: sold, ...applied }));
const line = fc.record({
  channel,
  // Up to $1,000.0000 with four decimals, as stores report.
  amount: fc.integer({ min: 1, max: 10_000_000 }).map((units) => unitsToDecimal(units, 4)),
});

type Term = { channel: ContractChannel | null; basis: 'gross' | 'net'; rate: string };

/** The model: each line's first matching term (else the default), its basis, and the exact royalty. */
function expected(lines: { channel: string; amount: string }[], terms: Term[], fallback: Term) {
  const net = (amount: string) =>
    subtractDecimal(amount, multiplyDecimal(amount, multiplyDecimal(FEE_PERCENT, '0.01')));
  const royalties = lines.map((sale) => {
    const found = terms.find((candidate) => candidate.channel === null || candidate.channel === sale.channel);
    const applied = found ?? fallback;
    const base = applied.basis === 'net' ? net(sale.amount) : sale.amount;
    return multiplyDecimal(base, multiplyDecimal(applied.rate, '0.01'));
  });
  const gross = sumDecimals(lines.map((sale) => sale.amount));
  const netTotal = sumDecimals(lines.map((sale) => net(sale.amount)));
  const royalty = sumDecimals(royalties);
  const artist = truncateToCents(royalty);
  const label = truncateToCents(subtractDecimal(netTotal, royalty));
  const fee = truncateToCents(gross) - truncateToCents(netTotal);
  return { gross, artist, label, fee };
}

describe('the contract step, for any contract and report', () => {
  it('credits artist, label and operator exactly as the model, and the books hold', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(term, { minLength: 0, maxLength: 3 }),
        basisAndRate,
        fc.array(line, { minLength: 1, maxLength: 8 }),
        async (terms, fallback, lines) => {
          run += 1;
          const isrc = `QZPRP26${String(run).padStart(5, '0')}`;
          const label = await system.signedInUser({ plan: 'pro' });
          const artist = await system.signedInUser({ plan: 'basic' });
          const { releaseId } = await createTestRelease(system, label.userId, {
            status: 'live',
            isrcs: [isrc],
          });
          const contract: ContractInput = {
            name: `Property ${run}`,
            labelEmail: label.email,
            payeeEmail: artist.email,
            startsOn: '2025-01-01',
            defaultBasis: fallback.basis,
            defaultRate: fallback.rate,
            releaseIds: [releaseId],
            terms: terms.map((item): ContractTermInput => ({ ...item })),
          };
          const saved = await system.request('/api/admin/contracts', {
            method: 'POST',
            cookie: adminCookie,
            json: contract,
          });
          expect(saved.status).toBe(201);
          const body = [
            FUGA,
            ...lines.map(
              (sale, index) =>
                `${run}-${index},2025-10-01,Shop,GB,${SALE_TYPES[sale.channel]},${isrc},,1,${sale.amount},USD,Song,A`,
            ),
          ].join('\n');
          const summary = await readJson(
            await uploadReport(system, adminCookie, `filename=property-${run}.csv`, `${body}\n`),
          );
          expect(summary.status).toBe('staged');
          const result = await postImport(system.db, summary.id, { admin: null });

          const model = expected(lines, terms, { channel: null, ...fallback });
          const cents = async (userId: string) =>
            (
              await system.db
                .select({ cents: profiles.balanceCents })
                .from(profiles)
                .where(eq(profiles.id, userId))
            )[0]?.cents;
          expect(await cents(artist.userId)).toBe(Number(model.artist));
          expect(await cents(label.userId)).toBe(Number(model.label));
          expect(result.feeCents).toBe(Number(model.fee));
          const paid = unitsToDecimal(model.artist + model.label + model.fee, 2);
          const residue = subtractDecimal(model.gross, paid);
          expect(isZeroDecimal(subtractDecimal(result.residue, residue))).toBe(true);
          // The residue is what truncation left: at least nothing, less than a cent per share paid.
          expect(residue.startsWith('-')).toBe(false);
          expect(truncateToCents(residue)).toBeLessThan(3n);
          for (const name of ['ledger:verify', 'audit:balances']) {
            const command = cliCommands[name];
            if (!command) throw new Error(`${name} is not registered`);
            expect(String(await command.run(system, [], {}))).not.toMatch(/differ|mismatch/i);
          }
        },
      ),
      { numRuns: 12 },
    );
    // Twelve postings, each with its own accounts, release and report.
  }, 240_000);
});
