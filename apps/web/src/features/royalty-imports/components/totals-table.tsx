/** One dimension of an import's totals (store, country, period, usage type): lines, units and amount. */
import type { TotalsRow } from '@tunedrop/shared/schemas/royalties';
import { Card } from '../../../components/ui/card';
import { formatDecimal, formatUnits } from '../lib/decimal';

const SHOWN = 25;

export function TotalsTable({
  title,
  rows,
  currency,
  emptyLabel = 'Not given in this report',
}: {
  title: string;
  rows: TotalsRow[];
  currency: string;
  emptyLabel?: string;
}) {
  const id = `totals-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Card className="p-0">
      <h3 id={id} className="px-4 pt-4 text-base font-semibold text-white">
        {title}
      </h3>
      {rows.length === 0 ? (
        <p className="px-4 pb-4 pt-2 text-sm text-zinc-400">No lines.</p>
      ) : (
        <div className="overflow-x-auto">
          <table aria-labelledby={id} className="mt-2 w-full text-left text-sm">
            <thead className="text-zinc-400">
              <tr>
                <th scope="col" className="px-4 py-1.5 font-medium">
                  {title.replace(/^By /, '')}
                </th>
                <th scope="col" className="px-4 py-1.5 text-right font-medium">
                  Lines
                </th>
                <th scope="col" className="px-4 py-1.5 text-right font-medium">
                  Units
                </th>
                <th scope="col" className="px-4 py-1.5 text-right font-medium">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-ink-800">
              {rows.slice(0, SHOWN).map((row) => (
                <tr key={row.key}>
                  <td className="px-4 py-1.5 text-zinc-100">{row.key || emptyLabel}</td>
                  <td className="px-4 py-1.5 text-right tabular-nums text-zinc-300">{row.lines}</td>
                  <td className="px-4 py-1.5 text-right tabular-nums text-zinc-300">
                    {formatUnits(row.units)}
                  </td>
                  <td className="px-4 py-1.5 text-right tabular-nums text-white" title={row.amount}>
                    {formatDecimal(row.amount, currency)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {rows.length > SHOWN ? (
            <p className="px-4 py-2 text-xs text-zinc-400">
              The {SHOWN} largest of {rows.length}.
            </p>
          ) : null}
        </div>
      )}
    </Card>
  );
}
