/** Earnings over time (recharts): earnings per period as bars, the cumulative total or the balance as a line. */
import type { AnalyticsReport } from '@tunedrop/shared/schemas/wallet';
import { useState } from 'react';
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { cn } from '../../../components/ui/cn';
import { formatCents, formatCompactCents, formatPeriod } from '../../../lib/format';

type LineMode = 'cumulative' | 'balance';

export function EarningsChart({ report }: { report: AnalyticsReport }) {
  const [lineMode, setLineMode] = useState<LineMode>('cumulative');
  const data = report.earnings.map((point) => ({
    ...point,
    label: formatPeriod(point.start, report.bucket, 'short'),
    line: lineMode === 'cumulative' ? point.cumulativeCents : point.balanceCents,
  }));
  const hasEarnings = report.earnings.some((point) => point.earningsCents !== 0);
  const lineName = lineMode === 'cumulative' ? 'Total earnings' : 'Available balance';

  return (
    <figure className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <figcaption className="text-sm text-zinc-400">
          Earnings per {report.bucket} (bars) and {lineName.toLowerCase()} (line)
        </figcaption>
        <fieldset className="flex rounded-lg border border-ink-700 p-0.5 text-xs">
          <legend className="sr-only">Line shows</legend>
          {(['cumulative', 'balance'] as const).map((mode) => (
            <label
              key={mode}
              className={cn(
                'cursor-pointer rounded-md px-2.5 py-1',
                lineMode === mode ? 'bg-brand-600 text-white' : 'text-zinc-300 hover:text-white',
              )}
            >
              <input
                type="radio"
                name="line-mode"
                className="sr-only"
                checked={lineMode === mode}
                onChange={() => setLineMode(mode)}
              />
              {mode === 'cumulative' ? 'Total earnings' : 'Balance'}
            </label>
          ))}
        </fieldset>
      </div>
      <div className="h-72 w-full" data-testid="earnings-chart">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid stroke="#2a2645" vertical={false} />
            <XAxis dataKey="label" stroke="#a1a1aa" fontSize={12} tickLine={false} minTickGap={16} />
            <YAxis
              yAxisId="bars"
              stroke="#a1a1aa"
              fontSize={12}
              tickLine={false}
              tickFormatter={formatCompactCents}
              width={56}
            />
            <YAxis
              yAxisId="line"
              orientation="right"
              stroke="#a1a1aa"
              fontSize={12}
              tickLine={false}
              tickFormatter={formatCompactCents}
              width={56}
            />
            <Tooltip
              contentStyle={{ background: '#13111f', border: '1px solid #2a2645', borderRadius: 8 }}
              labelStyle={{ color: '#fff' }}
              labelFormatter={(_label, payload) => {
                const start = payload?.[0]?.payload?.start as string | undefined;
                return start ? formatPeriod(start, report.bucket) : '';
              }}
              formatter={(value, name) => [formatCents(Number(value)), name]}
            />
            <Bar
              yAxisId="bars"
              dataKey="earningsCents"
              name="Earnings"
              fill="#8b5cf6"
              radius={[4, 4, 0, 0]}
            />
            <Line
              yAxisId="line"
              type="monotone"
              dataKey="line"
              name={lineName}
              stroke="#34d399"
              strokeWidth={2}
              dot={false}
            />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      {hasEarnings ? null : <p className="text-sm text-zinc-400">No earnings in this period yet.</p>}
      <details className="text-sm text-zinc-300">
        <summary className="cursor-pointer text-zinc-400 hover:text-white">
          Show the figures as a table
        </summary>
        <div className="mt-2 max-h-64 overflow-y-auto">
          <table className="w-full text-left">
            <thead className="text-zinc-400">
              <tr>
                <th scope="col" className="py-1 font-medium">
                  Period
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Earnings
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Total earnings
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Balance
                </th>
              </tr>
            </thead>
            <tbody>
              {report.earnings.map((point) => (
                <tr key={point.start} className="border-t border-ink-800">
                  <td className="py-1">{formatPeriod(point.start, report.bucket)}</td>
                  <td className="py-1 text-right tabular-nums">{formatCents(point.earningsCents)}</td>
                  <td className="py-1 text-right tabular-nums">{formatCents(point.cumulativeCents)}</td>
                  <td className="py-1 text-right tabular-nums">{formatCents(point.balanceCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
