/**
 * On the Royalties page: the split shares this account receives from other artists' releases (which
 * release and track, which report, which percentage, the exact amount, paid or held), and the expenses
 * their owners recoup before the shares (record 148). Hidden when there are neither.
 */
import { Badge, Card } from '../../../components/ui/card';
import { formatCents, formatDate } from '../../../lib/format';
import { usePayeeShares } from '../api/splits';

export function PayeeShares() {
  const shares = usePayeeShares();
  if (!shares.data || (shares.data.items.length === 0 && shares.data.expenses.length === 0)) return null;
  const { items, totals, expenses } = shares.data;
  return (
    <section aria-labelledby="payee-shares-title" className="space-y-3" data-testid="payee-shares">
      <div>
        <h2 id="payee-shares-title" className="text-xl font-semibold text-white">
          Your split shares
        </h2>
        <p className="text-sm text-zinc-400">
          Paid to you {formatCents(totals.paidCents)}
          {totals.heldCents !== 0 ? ` · held ${formatCents(totals.heldCents)}` : ''}. Amounts are exact; each
          report's total is credited rounded down to the cent.
        </p>
      </div>
      {items.length > 0 ? (
        <Card className="p-0">
          {/* A table from 640 px; below, each share is a block whose Share and Amount sit on their own line. */}
          <table className="block w-full text-left text-sm sm:table">
            <thead className="hidden text-zinc-400 sm:table-header-group">
              <tr>
                <th className="px-4 py-2 font-medium">Release / track</th>
                <th className="px-4 py-2 font-medium">Report</th>
                <th className="px-4 py-2 font-medium">Period</th>
                <th className="px-4 py-2 text-right font-medium">Share</th>
                <th className="px-4 py-2 text-right font-medium">Amount (USD)</th>
              </tr>
            </thead>
            <tbody className="block divide-y divide-ink-800 sm:table-row-group">
              {items.map((item) => (
                <tr
                  key={`${item.importId}-${item.releaseTitle}-${item.trackTitle}-${item.period}`}
                  className="grid grid-cols-2 gap-x-4 px-4 py-2 sm:table-row sm:p-0"
                  data-testid="payee-share"
                >
                  <td className="col-span-2 break-words text-zinc-100 sm:px-4 sm:py-2">
                    {item.releaseTitle}
                    {item.trackTitle ? ` / ${item.trackTitle}` : ''}
                    {item.held ? (
                      <Badge tone="yellow" className="ml-2">
                        Held
                      </Badge>
                    ) : null}
                  </td>
                  <td className="col-span-2 break-words text-zinc-300 sm:px-4 sm:py-2">
                    {item.reportName} · {formatDate(item.postedAt)}
                  </td>
                  <td className="col-span-2 text-zinc-300 sm:px-4 sm:py-2">
                    <span className="text-zinc-400 sm:hidden">Period </span>
                    {item.period}
                  </td>
                  <td className="tabular-nums text-zinc-100 sm:px-4 sm:py-2 sm:text-right">
                    <span className="text-zinc-400 sm:hidden">Share </span>
                    {item.percent}%
                  </td>
                  <td className="text-right tabular-nums text-zinc-100 sm:px-4 sm:py-2">
                    <span className="text-zinc-400 sm:hidden">Amount (USD) </span>
                    {item.amountUsd}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      ) : null}
      {expenses.length > 0 ? (
        <Card className="space-y-2" data-testid="payee-expenses">
          <h3 className="font-medium text-white">Expenses repaid to the owners first</h3>
          <p className="text-sm text-zinc-400">
            An owner's expenses for a release are repaid from its earnings before shares apply.
          </p>
          <ul className="divide-y divide-ink-800 text-sm">
            {expenses.map((expense) => (
              <li key={expense.id} className="flex justify-between gap-3 py-1.5" data-testid="payee-expense">
                <span className="text-zinc-300">
                  {expense.releaseTitle} · {formatDate(expense.spentOn)} · {expense.description}
                  <span className="text-zinc-400"> (added by {expense.ownerName})</span>
                </span>
                <span className="tabular-nums text-zinc-100">{formatCents(expense.amountCents)}</span>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
    </section>
  );
}
