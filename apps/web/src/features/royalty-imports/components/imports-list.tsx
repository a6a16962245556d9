/** The imported reports, newest first: a table on wide screens, cards on phones; each opens its summary. */
import { type ImportListItem, ROYALTY_PHASE_LABELS } from '@tunedrop/shared/schemas/royalties';
import { Inbox } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card, Spinner } from '../../../components/ui/card';
import { StatusBadge } from '../../../components/ui/status-badge';
import { paths } from '../../../config/paths';
import { formatDate } from '../../../lib/format';
import { useImports } from '../api/royalty-imports';
import { formatDecimal, formatUnits } from '../lib/decimal';
import { RUNNING_PHASES } from './import-progress';
import { ImportRetryNotice } from './import-retry';

export const FORMAT_SHORT: Record<ImportListItem['format'], string> = {
  dsr: 'DDEX DSR',
  distrokid: 'DistroKid',
  tunecore: 'TuneCore',
  fuga: 'FUGA',
  youtube: 'YouTube Content ID',
  csv: 'CSV',
};

export function periodText(item: Pick<ImportListItem, 'periodStart' | 'periodEnd'>): string {
  if (!item.periodStart) return '—';
  if (!item.periodEnd || item.periodEnd === item.periodStart) return formatDate(item.periodStart);
  return `${formatDate(item.periodStart)} – ${formatDate(item.periodEnd)}`;
}

export function ImportsList() {
  const imports = useImports();
  const items = imports.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <section aria-labelledby="imports-title" className="space-y-3">
      <h2 id="imports-title" className="text-xl font-semibold text-white">
        Imported reports
      </h2>
      {imports.isPending ? (
        <Spinner className="text-brand-400" />
      ) : imports.isError ? (
        <p role="alert" className="text-sm text-red-400">
          The imports could not be loaded.{' '}
          <Button variant="outline" size="sm" onClick={() => imports.refetch()}>
            Try again
          </Button>
        </p>
      ) : items.length === 0 ? (
        <Card className="flex items-start gap-3 text-sm text-zinc-300" data-testid="imports-empty">
          <Inbox aria-hidden className="mt-0.5 size-5 shrink-0 text-zinc-500" />
          <p>
            No statements imported yet. Each file you import above appears here with its status, its period
            and its total; open one to review it, assign unknown codes and post it to the artists’ balances.
          </p>
        </Card>
      ) : (
        <>
          <div className="hidden overflow-x-auto rounded-xl border border-ink-700 md:block">
            <table className="w-full text-left text-sm">
              <thead className="bg-ink-800 text-zinc-300">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    File
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Format
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Status
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Period
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    Lines
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    Refused
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    Total
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Imported
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-ink-800">
                {items.map((item) => (
                  <tr key={item.id} data-testid="import-row">
                    <td className="max-w-64 truncate px-3 py-2">
                      <Link
                        to={paths.adminRoyaltyImport(item.id)}
                        className="text-brand-300 underline-offset-2 hover:underline"
                      >
                        {item.fileName}
                      </Link>
                    </td>
                    <td className="px-3 py-2 text-zinc-300">{FORMAT_SHORT[item.format]}</td>
                    <td className="px-3 py-2">
                      <ImportState item={item} />
                      <ImportRetryNotice item={item} />
                    </td>
                    <td className="px-3 py-2 text-zinc-300">{periodText(item)}</td>
                    <td className="px-3 py-2 text-right tabular-nums text-zinc-300">
                      {formatUnits(String(item.lineCount))}
                    </td>
                    <td className="px-3 py-2 text-right tabular-nums text-zinc-300">{item.refusedCount}</td>
                    <td className="px-3 py-2 text-right tabular-nums text-white" title={item.totalAmount}>
                      {formatDecimal(item.totalAmount, item.currency)}
                    </td>
                    <td className="px-3 py-2 text-zinc-400">{formatDate(item.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ul className="space-y-2 md:hidden">
            {items.map((item) => (
              <li key={item.id}>
                <Link
                  to={paths.adminRoyaltyImport(item.id)}
                  className="block rounded-xl border border-ink-700 bg-ink-900 p-4 hover:border-ink-600"
                >
                  <span className="flex items-center justify-between gap-2">
                    <span className="min-w-0 truncate font-medium text-white">{item.fileName}</span>
                    <ImportState item={item} />
                  </span>
                  <span className="mt-1 block text-sm text-zinc-400">
                    {FORMAT_SHORT[item.format]} · {periodText(item)} · {item.lineCount} lines
                  </span>
                  <span className="mt-1 block text-sm text-white tabular-nums">
                    {formatDecimal(item.totalAmount, item.currency)}
                  </span>
                </Link>
                <ImportRetryNotice item={item} />
              </li>
            ))}
          </ul>
          {imports.hasNextPage ? (
            <Button
              variant="outline"
              onClick={() => imports.fetchNextPage()}
              disabled={imports.isFetchingNextPage}
            >
              {imports.isFetchingNextPage ? 'Loading…' : 'Show older imports'}
            </Button>
          ) : null}
        </>
      )}
    </section>
  );
}

/** An import whose job still runs shows its phase (decision 161); a finished one its status. */
function ImportState({ item }: { item: ImportListItem }) {
  if (!RUNNING_PHASES.has(item.progress.phase)) {
    return <StatusBadge kind="royaltyImport" status={item.status} />;
  }
  return (
    <span className="text-sm font-semibold text-zinc-200">{ROYALTY_PHASE_LABELS[item.progress.phase]}</span>
  );
}
