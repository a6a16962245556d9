/** The bulk preview: a scrolling list of at most 24rem that draws only the rows in view (10,000 rows stay fast). */
import { useState } from 'react';
import { Badge } from '../../../components/ui/card';
import { formatCents } from '../../../lib/format';

export type PreviewRow = {
  line: number;
  identifier: string;
  newBalanceCents: number;
  status: 'pending' | 'verified' | 'error' | 'applied';
  userId?: string;
  userEmail?: string;
  oldBalanceCents?: number;
  error?: string;
};

const ROW_HEIGHT = 56;
const VIEW_HEIGHT = 384;
const OVERSCAN = 8;
const TONES = { pending: 'neutral', verified: 'blue', error: 'red', applied: 'green' } as const;
const LABELS = { pending: 'Pending', verified: 'Verified', error: 'Error', applied: 'Applied' } as const;

export function CsvPreview({ rows }: { rows: PreviewRow[] }) {
  const [scrollTop, setScrollTop] = useState(0);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + VIEW_HEIGHT) / ROW_HEIGHT) + OVERSCAN);
  const visible = rows.slice(first, last);
  return (
    <section
      className="max-h-96 overflow-y-auto rounded-lg border border-ink-700"
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
      data-testid="csv-preview"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolling region must be reachable by keyboard
      tabIndex={0}
      aria-label="Rows to update"
    >
      <ul className="relative" style={{ height: rows.length * ROW_HEIGHT }}>
        {visible.map((row, offset) => (
          <li
            key={row.line}
            aria-setsize={rows.length}
            aria-posinset={first + offset + 1}
            className="absolute inset-x-0 flex items-center justify-between gap-3 border-b border-ink-800 px-3 text-sm"
            style={{ top: (first + offset) * ROW_HEIGHT, height: ROW_HEIGHT }}
            data-testid="csv-row"
          >
            <div className="min-w-0">
              <p className="truncate text-zinc-100">
                <span className="text-zinc-400">Line {row.line} · </span>
                {row.userEmail ?? row.identifier}
              </p>
              <p className={`truncate text-xs ${row.status === 'error' ? 'text-red-300' : 'text-zinc-400'}`}>
                {row.status === 'error'
                  ? row.error
                  : row.oldBalanceCents !== undefined
                    ? `${formatCents(row.oldBalanceCents)} → ${formatCents(row.newBalanceCents)}`
                    : `New balance ${formatCents(row.newBalanceCents)}`}
              </p>
            </div>
            <Badge tone={TONES[row.status]}>{LABELS[row.status]}</Badge>
          </li>
        ))}
      </ul>
    </section>
  );
}
