/**
 * Sanity warnings of a staged report (record 187): each with its lines; Accept (with an optional note,
 * audited) posts them as matched, Unmatch these lines sends them to the unmatched queue (and to suspense
 * when posted). The server refuses posting while one is open.
 */
import {
  REPORT_WARNING_TITLES,
  type ReportWarning,
  ROYALTY_CHECK_TEXTS,
} from '@tunedrop/shared/schemas/royalty-checks';
import { AlertTriangle, CheckCircle2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog, Dialog } from '../../../components/ui/dialog';
import { Field, Input } from '../../../components/ui/input';
import { Pager } from '../../../components/ui/pager';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { useAcceptWarning, useReportWarnings, useResolveWarning } from '../api/report-checks';
import { formatDecimal } from '../lib/decimal';

export function ReportWarnings({
  importId,
  currency,
  isPosted,
}: {
  importId: string;
  currency: string;
  isPosted: boolean;
}) {
  const [page, setPage] = useState(1);
  const warnings = useReportWarnings(importId, true, page);
  const accept = useAcceptWarning(importId);
  const resolve = useResolveWarning(importId);
  const [accepting, setAccepting] = useState<ReportWarning | null>(null);
  const [resolving, setResolving] = useState<ReportWarning | null>(null);
  const [note, setNote] = useState('');
  const items = warnings.data?.items ?? [];
  const total = warnings.data?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / (warnings.data?.pageSize ?? 1)));
  // A page emptied by a new check of the report shows the last page there is.
  const isPageEmptied = !warnings.isFetching && items.length === 0 && page > 1 && total > 0;
  useEffect(() => {
    if (isPageEmptied) setPage(pageCount);
  }, [isPageEmptied, pageCount]);
  if (total === 0) return null;
  const open = warnings.data?.openCount ?? 0;

  const doAccept = () => {
    if (!accepting) return;
    accept.mutate(
      { warningId: accepting.id, ...(note.trim() ? { note: note.trim() } : {}) },
      {
        onSuccess: () => {
          notify.success('Warning accepted', REPORT_WARNING_TITLES[accepting.kind]);
          setAccepting(null);
          setNote('');
        },
        onError: (error) => notify.error(errorMessage(error, 'The warning could not be accepted.')),
      },
    );
  };
  const doResolve = () => {
    if (!resolving) return;
    resolve.mutate(resolving.id, {
      onSuccess: () => {
        notify.success('Lines unmatched', `${resolving.lineCount} lines wait in the unmatched queue.`);
        setResolving(null);
      },
      onError: (error) => {
        notify.error(errorMessage(error, 'The lines could not be unmatched.'));
        setResolving(null);
      },
    });
  };

  return (
    <section aria-labelledby="sanity-warnings-title" className="space-y-3">
      <h2 id="sanity-warnings-title" className="text-xl font-semibold text-white">
        Sanity warnings
      </h2>
      {open > 0 && !isPosted ? (
        <p className="text-sm text-amber-300" data-testid="open-warnings">
          {ROYALTY_CHECK_TEXTS.openWarnings(open)}
        </p>
      ) : null}
      {items.map((item) => {
        const isOpen = !item.acceptedAt && !item.resolvedAt;
        return (
          <Card key={item.id} className={isOpen ? 'border-amber-500/40' : ''} data-testid="sanity-warning">
            <h3 className="flex items-center gap-2 font-semibold text-amber-300">
              {isOpen ? (
                <AlertTriangle aria-hidden className="size-4" />
              ) : (
                <CheckCircle2 aria-hidden className="size-4 text-emerald-400" />
              )}
              {REPORT_WARNING_TITLES[item.kind]}
            </h3>
            <p className="mt-1 text-sm text-zinc-200">{item.message}</p>
            {item.acceptedAt ? (
              <p className="mt-1 text-xs text-zinc-400" data-testid="warning-decision">
                Accepted by {item.acceptedBy ?? 'an admin'} on {formatDateTime(item.acceptedAt)}
                {item.note ? `: ${item.note}` : ''}
              </p>
            ) : null}
            {item.resolvedAt ? (
              <p className="mt-1 text-xs text-zinc-400" data-testid="warning-decision">
                Lines unmatched by {item.resolvedBy ?? 'an admin'} on {formatDateTime(item.resolvedAt)}
              </p>
            ) : null}
            {item.lines.length > 0 ? (
              <section
                className="mt-3 overflow-x-auto"
                aria-label="Lines of this warning"
                // biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolling region must be reachable by keyboard
                tabIndex={0}
              >
                <table className="w-full min-w-[32rem] text-left text-sm">
                  <caption className="sr-only">Lines of this warning</caption>
                  <thead className="text-xs text-zinc-400">
                    <tr>
                      <th scope="col" className="py-1 pr-3 font-medium">
                        Line
                      </th>
                      <th scope="col" className="py-1 pr-3 font-medium">
                        Code
                      </th>
                      <th scope="col" className="py-1 pr-3 font-medium">
                        Artist in the report
                      </th>
                      <th scope="col" className="py-1 pr-3 font-medium">
                        Store
                      </th>
                      <th scope="col" className="py-1 pr-3 font-medium">
                        Period
                      </th>
                      <th scope="col" className="py-1 text-right font-medium">
                        Amount
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-ink-800 text-zinc-100">
                    {item.lines.map((line) => (
                      <tr key={line.lineNo}>
                        <td className="py-1 pr-3 tabular-nums">{line.lineNo}</td>
                        <td className="py-1 pr-3 font-mono text-xs">{line.isrc ?? line.upc ?? '—'}</td>
                        <td className="py-1 pr-3">{line.artist ?? '—'}</td>
                        <td className="py-1 pr-3">{line.store ?? '—'}</td>
                        <td className="py-1 pr-3">{line.period ?? '—'}</td>
                        <td className="py-1 text-right tabular-nums">
                          {formatDecimal(line.amount, currency)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {item.lineCount > item.lines.length ? (
                  <p className="mt-1 text-xs text-zinc-400">
                    The first {item.lines.length} of {item.lineCount} lines.
                  </p>
                ) : null}
              </section>
            ) : null}
            {isOpen && !isPosted ? (
              <div className="mt-3 flex flex-wrap gap-2">
                <Button size="sm" onClick={() => setAccepting(item)}>
                  Accept…
                </Button>
                <Button size="sm" variant="outline" onClick={() => setResolving(item)}>
                  Unmatch these lines…
                </Button>
              </div>
            ) : null}
          </Card>
        );
      })}
      <Pager
        page={page}
        pageCount={pageCount}
        onPageChange={setPage}
        detail={`${total} warning${total === 1 ? '' : 's'}`}
      />

      <Dialog
        open={accepting !== null}
        onOpenChange={(next) => (next ? undefined : setAccepting(null))}
        title="Accept this warning?"
        description="Its lines are posted as matched. Your name, the time and your note are kept in the audit log."
      >
        <form
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            doAccept();
          }}
        >
          <Field
            id="warning-note"
            label="Note (optional)"
            hint="Why these lines are right, e.g. pre-release streams"
          >
            <Input
              id="warning-note"
              maxLength={500}
              value={note}
              onChange={(event) => setNote(event.target.value)}
            />
          </Field>
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={() => setAccepting(null)}>
              Cancel
            </Button>
            <Button type="submit" disabled={accept.isPending}>
              Accept warning
            </Button>
          </div>
        </form>
      </Dialog>
      <ConfirmDialog
        open={resolving !== null}
        onOpenChange={(next) => (next ? undefined : setResolving(null))}
        title="Unmatch these lines?"
        description={`${resolving?.lineCount ?? 0} lines leave their artist: they wait in the unmatched queue, where a code can be assigned, and go to suspense if the report is posted as it is.`}
        confirmLabel="Unmatch lines"
        onConfirm={doResolve}
        isPending={resolve.isPending}
      />
    </section>
  );
}
