/**
 * What a posting credits, holds, keeps as the fee and books to suspense (issue 25 finding 5): the same
 * four figures in the confirmation and after posting, from GET /api/admin/royalties/imports/:id/figures.
 */
import { truncateToCents } from '@tunedrop/shared/money';
import type { PostingFigures } from '@tunedrop/shared/schemas/finance';
import { formatCents } from '../../../lib/format';

/** Suspense in whole cents by the rule the finance view uses (money/report-cents.ts): cut to the cent. */
const formatUsd = (text: string) => formatCents(Number(truncateToCents(text)));

export function postingFiguresText(figures: PostingFigures): string {
  const artists = `${figures.artists} artist${figures.artists === 1 ? '' : 's'}`;
  return `${figures.posted ? 'Credited' : 'Will credit'} ${formatCents(figures.creditedCents)} to ${artists}; held for pending invitations ${formatCents(figures.heldCents)};${figures.reservedCents !== 0 ? ` held in contract reserves ${formatCents(figures.reservedCents)};` : ''} operator fee ${formatCents(figures.feeCents)}; suspense (unmatched) ${formatUsd(figures.suspenseUsd)}.`;
}

export function PostingFiguresList({ figures }: { figures: PostingFigures }) {
  const items: [string, string, string][] = [
    ['Credited to balances', formatCents(figures.creditedCents), 'figure-credited'],
    ['Held for pending invitations', formatCents(figures.heldCents), 'figure-held'],
    ...(figures.reservedCents !== 0
      ? [
          ['Held in contract reserves', formatCents(figures.reservedCents), 'figure-reserved'] as [
            string,
            string,
            string,
          ],
        ]
      : []),
    ['Operator fee', formatCents(figures.feeCents), 'figure-fee'],
    ['Suspense (unmatched)', formatUsd(figures.suspenseUsd), 'figure-suspense'],
  ];
  return (
    <dl
      className="grid gap-3 sm:grid-cols-2"
      data-testid={figures.posted ? 'posted-figures' : 'posting-figures'}
    >
      {items.map(([label, value, testId]) => (
        <div key={label}>
          <dt className="text-xs text-zinc-400">{label}</dt>
          <dd className="text-sm font-semibold text-zinc-100" data-testid={testId}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
