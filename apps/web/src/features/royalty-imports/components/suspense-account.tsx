/**
 * The suspense account (decision 188): money of posted reports that matched no track or release, held in
 * USD at the report's rate. Grouped by code, searchable, paged; each code can be assigned (paid to that
 * artist) or released to operator revenue with a reason.
 */
import type { SuspenseCode } from '@tunedrop/shared/schemas/royalty-suspense';
import { SUSPENSE_TEXTS } from '@tunedrop/shared/schemas/royalty-suspense';
import { CheckCircle2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, Spinner } from '../../../components/ui/card';
import { Pager } from '../../../components/ui/pager';
import { ReasonDialog } from '../../../components/ui/reason-dialog';
import { SearchInput } from '../../../components/ui/search-input';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { useReleaseSuspense, useSuspense } from '../api/suspense';
import { formatDecimal } from '../lib/decimal';
import { AssignCodeDialog } from './assign-code-dialog';

const codeLabel = (item: Pick<SuspenseCode, 'kind' | 'code'>) =>
  item.kind === 'none' ? 'Lines without a code' : `${item.kind === 'isrc' ? 'ISRC' : 'UPC'} ${item.code}`;

/** A code that can be assigned (lines the report gave no code can only be released). */
type AssignableCode = SuspenseCode & { kind: 'isrc' | 'upc' };
const isAssignable = (item: SuspenseCode): item is AssignableCode => item.kind !== 'none';

export function SuspenseAccount() {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const suspense = useSuspense(q, page);
  const release = useReleaseSuspense();
  const [assigning, setAssigning] = useState<AssignableCode | null>(null);
  const [releasing, setReleasing] = useState<SuspenseCode | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => {
      setQ(text.trim());
      setPage(1);
    }, 300);
    return () => clearTimeout(timer);
  }, [text]);

  const data = suspense.data;
  const items = data?.items ?? [];
  const pageCount = data ? Math.max(1, Math.ceil(data.codes / data.pageSize)) : 1;

  const confirmRelease = (reason: string) => {
    if (!releasing) return;
    release.mutate(
      { code: releasing.code, kind: releasing.kind, reason },
      {
        onSuccess: (result) => {
          notify.success(
            `${codeLabel(releasing)} released`,
            `${formatDecimal(result.amountUsd, 'USD')} booked to operator revenue`,
          );
          setReleasing(null);
        },
        onError: (error) => notify.error(errorMessage(error, 'The suspense could not be released.')),
      },
    );
  };

  return (
    <section aria-labelledby="suspense-title" className="space-y-3" data-testid="suspense-account">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="suspense-title" className="text-xl font-semibold text-white">
            Suspense
          </h2>
          <p className="text-sm text-zinc-400">
            Money of posted reports whose code matched no track or release, held in USD at the report’s rate.
            Assign the code to pay it to the artist (through their splits), or release it to operator revenue.
          </p>
        </div>
        {data ? (
          <p className="text-right" data-testid="suspense-total">
            <span className="block text-xs text-zinc-400 uppercase">Held in suspense</span>
            <span className="text-2xl font-semibold text-white" title={`${data.totalUsd} USD`}>
              {formatDecimal(data.totalUsd, 'USD')}
            </span>
            <span className="block text-xs text-zinc-400">
              {data.totalLines} line{data.totalLines === 1 ? '' : 's'}
            </span>
          </p>
        ) : null}
      </div>
      <SearchInput
        label="Search suspense by code, title or artist"
        value={text}
        onChange={setText}
        onSubmit={() => {
          setQ(text.trim());
          setPage(1);
        }}
      />
      {suspense.isPending ? (
        <Spinner className="text-brand-400" />
      ) : suspense.isError ? (
        <p role="alert" className="text-sm text-red-400">
          The suspense account could not be loaded.
        </p>
      ) : items.length === 0 ? (
        <Card className="flex items-start gap-3 text-sm text-zinc-300" data-testid="suspense-empty">
          <CheckCircle2 aria-hidden className="mt-0.5 size-5 shrink-0 text-emerald-400" />
          <p>
            {q
              ? `Nothing held in suspense matches “${q}”.`
              : 'Nothing is held in suspense: every posted line matched a track or release, or was assigned.'}
          </p>
        </Card>
      ) : (
        <ul className="space-y-2">
          {items.map((item) => (
            <li
              key={`${item.kind}:${item.code}`}
              className="rounded-xl border border-ink-700 bg-ink-900 p-4"
              data-testid="suspense-code"
            >
              <div className="flex flex-wrap items-center justify-between gap-3">
                <div className="min-w-0">
                  {isAssignable(item) ? (
                    <p className="font-mono text-sm text-white">
                      <span className="mr-2 font-sans text-xs text-zinc-400 uppercase">{item.kind}</span>
                      {item.code}
                    </p>
                  ) : (
                    <p className="text-sm text-white">No ISRC or UPC in the report</p>
                  )}
                  <p className="mt-1 text-sm text-zinc-400">
                    {item.sampleTitle ? `“${item.sampleTitle}”` : 'No title in the report'}
                    {item.sampleArtist ? ` by ${item.sampleArtist}` : ''} · {item.lines} line
                    {item.lines === 1 ? '' : 's'} in {item.reports} report{item.reports === 1 ? '' : 's'}
                  </p>
                </div>
                <div className="flex items-center gap-3">
                  <span className="font-semibold text-white" title={`${item.amountUsd} USD`}>
                    {formatDecimal(item.amountUsd, 'USD')}
                  </span>
                  {isAssignable(item) ? (
                    <Button size="sm" onClick={() => setAssigning(item)}>
                      Assign…
                    </Button>
                  ) : null}
                  <Button size="sm" variant="outline" onClick={() => setReleasing(item)}>
                    Release…
                  </Button>
                </div>
              </div>
              <details className="mt-2">
                <summary className="cursor-pointer text-sm text-brand-300">
                  Lines
                  {item.items.length < item.lines ? ` (largest ${item.items.length} of ${item.lines})` : ''}
                </summary>
                <section
                  className="mt-2 overflow-x-auto"
                  // biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolling table must be reachable by keyboard
                  tabIndex={0}
                  aria-label={`Held lines of ${codeLabel(item)}`}
                >
                  <table className="w-full text-left text-sm">
                    <thead className="text-xs text-zinc-400 uppercase">
                      <tr>
                        <th className="py-1 pr-3 font-medium">Report</th>
                        <th className="py-1 pr-3 font-medium">Period</th>
                        <th className="py-1 pr-3 font-medium">Store</th>
                        <th className="py-1 pr-3 font-medium">Country</th>
                        <th className="py-1 pr-3 text-right font-medium">Amount</th>
                        <th className="py-1 text-right font-medium">USD</th>
                      </tr>
                    </thead>
                    <tbody className="text-zinc-200">
                      {item.items.map((line) => (
                        <tr key={line.id} className="border-t border-ink-800">
                          <td className="max-w-[14rem] truncate py-1 pr-3" title={line.fileName}>
                            {line.fileName}
                          </td>
                          <td className="py-1 pr-3">{line.period}</td>
                          <td className="py-1 pr-3">{line.store ?? '—'}</td>
                          <td className="py-1 pr-3">{line.country ?? '—'}</td>
                          <td className="py-1 pr-3 text-right" title={line.amount}>
                            {formatDecimal(line.amount, line.currency ?? '')}
                          </td>
                          <td className="py-1 text-right" title={line.amountUsd}>
                            {formatDecimal(line.amountUsd, 'USD')}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </section>
              </details>
            </li>
          ))}
        </ul>
      )}
      {data ? (
        <Pager
          page={page}
          pageCount={pageCount}
          onPageChange={setPage}
          detail={`${data.codes} code${data.codes === 1 ? '' : 's'}`}
        />
      ) : null}
      <AssignCodeDialog code={assigning} onClose={() => setAssigning(null)} isSuspense />
      <ReasonDialog
        open={releasing !== null}
        onOpenChange={(open) => (open ? undefined : setReleasing(null))}
        title={releasing ? `Release ${codeLabel(releasing)} to operator revenue` : 'Release suspense'}
        description={
          releasing
            ? `${formatDecimal(releasing.amountUsd, 'USD')} held for this code becomes the operator’s revenue. It is no longer payable to an artist.`
            : ''
        }
        label="Reason"
        hint="Kept in the audit log with the amount."
        confirmLabel="Release to operator revenue"
        pendingLabel="Releasing…"
        requiredTitle="Reason required"
        requiredMessage={SUSPENSE_TEXTS.reasonRequired}
        isPending={release.isPending}
        onConfirm={confirmRelease}
      />
    </section>
  );
}
