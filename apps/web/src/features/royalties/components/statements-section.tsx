/**
 * Statements per month of balance changes (record 190, every plan): each with its opening and closing balance,
 * viewable on the page (one column on a phone, the amounts never cut off) and downloadable as CSV and PDF.
 */
import type { RoyaltyStatement, StatementMonth } from '@tunedrop/shared/schemas/royalty-statements';
import { STATEMENT_TEXTS } from '@tunedrop/shared/schemas/royalty-statements';
import { ChevronDown, FileText } from 'lucide-react';
import { useId, useState } from 'react';
import { Button, buttonClass } from '../../../components/ui/button';
import { Card, Spinner } from '../../../components/ui/card';
import { profileQuery, useChosenArtistProfile } from '../../../lib/artist-profiles';
import { formatCents, formatPeriod } from '../../../lib/format';
import { statementUrl, useStatement, useStatements } from '../api/statements';

const periodLabel = (period: string) => formatPeriod(`${period}-01`, 'month');

export function StatementsSection() {
  const statements = useStatements();
  // The dashboard's artist profile switcher (record 201): a statement's earnings for one profile, or all.
  const { profile } = useChosenArtistProfile();
  const artistProfileId = profileQuery(profile).artistProfileId;
  const items = statements.data?.items ?? [];
  return (
    <section aria-labelledby="statements-title" className="space-y-3">
      <div>
        <h2 id="statements-title" className="text-xl font-semibold text-white">
          Statements
        </h2>
        <p className="text-sm text-zinc-400">{STATEMENT_TEXTS.periodNote}</p>
        <p className="text-sm text-zinc-400" data-testid="statements-profile">
          {profile
            ? `Earnings of ${profile.name} only; the balance is one for all your artist profiles.`
            : 'All profiles.'}
        </p>
      </div>
      {statements.isPending ? (
        <Spinner className="text-brand-400" />
      ) : statements.isError ? (
        <p role="alert" className="text-sm text-red-400">
          Your statements could not be loaded.
        </p>
      ) : items.length === 0 ? (
        <Card className="flex items-start gap-3 text-sm text-zinc-300" data-testid="statements-empty">
          <FileText aria-hidden className="mt-0.5 size-5 shrink-0 text-zinc-500" />
          <p>
            No statements yet. A statement for each month appears here, as CSV and PDF, once the first store
            report with your music has been posted.
          </p>
        </Card>
      ) : (
        <ul className="divide-y divide-ink-800 rounded-xl border border-ink-700 bg-ink-900">
          {items.map((item) => (
            <StatementItem key={item.period} item={item} artistProfileId={artistProfileId} />
          ))}
        </ul>
      )}
    </section>
  );
}

function StatementItem({
  item,
  artistProfileId,
}: {
  item: StatementMonth;
  artistProfileId?: string | undefined;
}) {
  const [isOpen, setIsOpen] = useState(false);
  const panelId = useId();
  const label = periodLabel(item.period);
  return (
    <li className="px-4 py-3" data-testid="statement">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <p className="font-medium text-white">{label}</p>
          <p className="text-sm text-zinc-400">
            Opening <span className="text-zinc-100 tabular-nums">{formatCents(item.openingCents)}</span> ·
            Earnings <span className="text-zinc-100 tabular-nums">{formatCents(item.amountCents)}</span> ·
            Closing <span className="text-zinc-100 tabular-nums">{formatCents(item.closingCents)}</span>
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            size="sm"
            aria-expanded={isOpen}
            aria-controls={panelId}
            onClick={() => setIsOpen((open) => !open)}
            aria-label={`${isOpen ? 'Hide' : 'View'} the ${label} statement`}
          >
            <ChevronDown
              aria-hidden
              className={`size-4 transition-transform ${isOpen ? 'rotate-180' : ''}`}
            />
            {isOpen ? 'Hide' : 'View'}
          </Button>
          <a
            href={statementUrl(item.period, 'csv', artistProfileId)}
            download
            className={buttonClass('outline', 'sm')}
            aria-label={`Download the ${label} statement as CSV`}
          >
            CSV
          </a>
          <a
            href={statementUrl(item.period, 'pdf', artistProfileId)}
            download
            className={buttonClass('outline', 'sm')}
            aria-label={`Download the ${label} statement as PDF`}
          >
            PDF
          </a>
        </div>
      </div>
      <div id={panelId} hidden={!isOpen}>
        {isOpen ? <StatementView period={item.period} artistProfileId={artistProfileId} /> : null}
      </div>
    </li>
  );
}

const sum = (rows: { cents: number }[]) => rows.reduce((total, row) => total + row.cents, 0);

/** Label and amount rows: two columns at every width, the label wrapping, the amount never cut. */
function AmountRows({
  title,
  rows,
  testId,
}: {
  title: string;
  rows: { label: string; cents: number; isTotal?: boolean }[];
  testId: string;
}) {
  // Rows may repeat a label (two withdrawals of a day): their place in the statement is their identity.
  const keyed = rows.map((row, position) => ({ ...row, key: `${testId}-${position}` }));
  return (
    <div className="space-y-1" data-testid={testId}>
      <h4 className="text-sm font-medium text-zinc-300">{title}</h4>
      <dl className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1 text-sm">
        {keyed.map((row) => (
          <div key={row.key} className="contents" data-testid="statement-row">
            <dt className={`break-words ${row.isTotal ? 'font-semibold text-white' : 'text-zinc-300'}`}>
              {row.label}
            </dt>
            <dd
              className={`text-right tabular-nums ${row.isTotal ? 'font-semibold text-white' : 'text-zinc-100'}`}
            >
              {formatCents(row.cents)}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function StatementView({
  period,
  artistProfileId,
}: {
  period: string;
  artistProfileId?: string | undefined;
}) {
  const statement = useStatement(period, true, artistProfileId);
  if (statement.isPending) return <Spinner className="mt-3 text-brand-400" />;
  if (statement.isError) {
    return (
      <p role="alert" className="mt-3 text-sm text-red-400">
        This statement could not be loaded.
      </p>
    );
  }
  return <StatementFigures statement={statement.data} />;
}

function StatementFigures({ statement }: { statement: RoyaltyStatement }) {
  const { earnings } = statement;
  const paid = statement.shares.filter((share) => share.direction === 'to');
  const received = statement.shares.filter((share) => share.direction === 'from');
  // One profile's view (record 235): its gross, fee, shares and net; the balance lines are the account's.
  const profile = statement.artistProfile;
  const ofAll = profile ? ' (all profiles)' : '';
  const summary: { label: string; cents: number; isTotal?: boolean }[] = [
    { label: `Opening balance${ofAll}`, cents: statement.openingCents, isTotal: true },
  ];
  if (earnings.lines > 0 || statement.feeCents !== 0 || profile) {
    summary.push(
      {
        label: profile ? `Gross earnings of ${profile.name}` : 'Gross earnings (before fee and splits)',
        cents: earnings.grossCents,
      },
      {
        label: `Distribution fee${statement.feePercent ? ` (${statement.feePercent}%)` : ''}`,
        cents: statement.feeCents,
      },
    );
  }
  if (paid.length > 0) summary.push({ label: 'Split shares paid to collaborators', cents: sum(paid) });
  if (received.length > 0) summary.push({ label: 'Split shares received', cents: sum(received) });
  if (statement.otherEarnings.length > 0)
    summary.push({ label: 'Other earnings', cents: sum(statement.otherEarnings) });
  summary.push({
    label: profile ? `Net earnings of ${profile.name}` : 'Net earnings (your share)',
    cents: statement.netEarningsCents,
    isTotal: true,
  });
  if (profile)
    summary.push({
      label: 'Net earnings of the other profiles and shares received',
      cents: statement.outsideProfileCents ?? 0,
    });
  summary.push(
    { label: 'Withdrawals', cents: sum(statement.withdrawals) },
    { label: 'Adjustments', cents: sum(statement.adjustments) },
    { label: `Closing balance${ofAll}`, cents: statement.closingCents, isTotal: true },
  );
  const shareLabel = (share: RoyaltyStatement['shares'][number]) =>
    `${share.direction === 'to' ? 'To' : 'From'} ${share.party} · ${share.releaseTitle ?? 'Unknown release'}${share.trackTitle ? ` / ${share.trackTitle}` : ''}${share.percent ? ` · ${share.percent}%` : ''}${share.note === 'held' ? ' (held until they accept)' : share.note === 'released' ? ' (released from hold)' : ''}`;
  return (
    <div
      className="mt-3 space-y-4 rounded-lg border border-ink-700 bg-ink-800/40 p-3"
      data-testid="statement-view"
    >
      <p className="text-xs text-zinc-400">
        Issued by {statement.issuer.legalName}
        {statement.issuer.address ? `, ${statement.issuer.address.split('\n').join(', ')}` : ''}
        {statement.salesPeriods.length > 0 ? ` · Sales months ${statement.salesPeriods.join(', ')}` : ''}
      </p>
      <AmountRows title="Summary" rows={summary} testId="statement-summary" />
      {earnings.byStore.length > 0 ? (
        <AmountRows
          title="Gross earnings by store"
          testId="statement-stores"
          rows={[
            ...earnings.byStore.map((row) => ({ label: row.label, cents: row.cents })),
            { label: 'Gross earnings', cents: earnings.grossCents, isTotal: true },
          ]}
        />
      ) : null}
      {statement.shares.length > 0 ? (
        <AmountRows
          title="Split shares"
          testId="statement-shares"
          rows={[
            ...statement.shares.map((share) => ({ label: shareLabel(share), cents: share.cents })),
            { label: 'Split shares', cents: sum(statement.shares), isTotal: true },
          ]}
        />
      ) : null}
      {statement.sharesReceived ? (
        <>
          <AmountRows
            title="Split shares received by store"
            testId="statement-received-stores"
            rows={[
              ...statement.sharesReceived.byStore.map((row) => ({ label: row.label, cents: row.cents })),
              { label: 'Split shares received', cents: sum(statement.sharesReceived.byStore), isTotal: true },
            ]}
          />
          <AmountRows
            title="Split shares received by country"
            testId="statement-received-countries"
            rows={[
              ...statement.sharesReceived.byCountry.map((row) => ({ label: row.label, cents: row.cents })),
              {
                label: 'Split shares received',
                cents: sum(statement.sharesReceived.byCountry),
                isTotal: true,
              },
            ]}
          />
        </>
      ) : null}
      {statement.withdrawals.length > 0 || statement.adjustments.length > 0 ? (
        <AmountRows
          title="Withdrawals and adjustments"
          testId="statement-movements"
          rows={[...statement.withdrawals, ...statement.adjustments].map((row) => ({
            label: `${row.date} · ${row.description}`,
            cents: row.cents,
          }))}
        />
      ) : null}
      {statement.reserves ? (
        <AmountRows
          title="Royalty reserves (not in the totals until released)"
          testId="statement-reserves"
          rows={[
            { label: 'Held back from this month’s royalties', cents: statement.reserves.heldCents },
            { label: 'Released to your balance this month', cents: statement.reserves.releasedCents },
            {
              label: 'Reserve still held at the end of the month',
              cents: statement.reserves.balanceCents,
              isTotal: true,
            },
          ]}
        />
      ) : null}
      <p className="text-xs text-zinc-400">{STATEMENT_TEXTS.grossNote}</p>
    </div>
  );
}
