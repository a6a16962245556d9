/**
 * Audit log (admins only; the server refuses moderators): who did what and when, with the changed fields
 * before and after and the names stored with each entry (record 191); filtered by kind, user, release
 * and days; downloadable as CSV with the same filter.
 */
import {
  AUDIT_KIND_GROUPS,
  AUDIT_KINDS,
  type AuditEntry,
  type AuditFilter,
  auditDiff,
  auditKindLabel,
} from '@tunedrop/shared/schemas/audit';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { Field, Input, Select } from '../../../components/ui/input';
import { ScrollFades, ScrollHint, useScrollEdges } from '../../../components/ui/scroll-cue';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { auditCsvUrl, useAuditLog } from '../api/list-audit';

const FIELDS = ['kind', 'user', 'releaseId', 'from', 'to'] as const;
type FilterField = (typeof FIELDS)[number];
const PARAM: Record<FilterField, string> = {
  kind: 'kind',
  user: 'user',
  releaseId: 'release',
  from: 'from',
  to: 'to',
};

const SUBJECT_TYPES: Record<string, string> = {
  royalty_report: 'Report',
  code: 'Code',
  suspense: 'Suspense',
  setting: 'Settings',
  delivery_target: 'Target',
  plan: 'Plan',
  account: 'Account',
  expense: 'Expense',
  release: 'Release',
  track: 'Track',
  user: 'User',
  withdrawal: 'Withdrawal',
};

function Changes({ entry }: { entry: AuditEntry }) {
  const diff = auditDiff(entry.before, entry.after);
  if (diff.length === 0) return <span className="text-zinc-400">—</span>;
  return (
    <ul className="space-y-1">
      {diff.map((change) => (
        <li key={change.field} className="break-words">
          <span className="font-medium text-zinc-200">{change.field}</span>:{' '}
          {change.before !== null ? (
            <del className="text-red-300 decoration-red-400/60">
              <span className="sr-only">before </span>
              {change.before}
            </del>
          ) : null}
          {change.before !== null && change.after !== null ? <span aria-hidden="true"> → </span> : null}
          {change.after !== null ? (
            <ins className="text-emerald-300 no-underline">
              <span className="sr-only">{change.before !== null ? ' after ' : 'set to '}</span>
              {change.after}
            </ins>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

export default function AdminAuditPage() {
  usePageTitle('Audit Log');
  const [params, setParams] = useSearchParams();
  const filter: AuditFilter = Object.fromEntries(
    FIELDS.map((field) => [field, params.get(PARAM[field]) || undefined]),
  );
  const [draft, setDraft] = useState<Record<FilterField, string>>(() => ({
    kind: filter.kind ?? '',
    user: filter.user ?? '',
    releaseId: filter.releaseId ?? '',
    from: filter.from ?? '',
    to: filter.to ?? '',
  }));
  const audit = useAuditLog(filter);
  const tableBox = useRef<HTMLElement>(null);

  useEffect(() => {
    if (audit.isError) notify.error(errorMessage(audit.error, 'Failed to load the audit log'));
  }, [audit.isError, audit.error]);

  const items = audit.data?.pages.flatMap((page) => page.items) ?? [];
  const tableEdges = useScrollEdges(tableBox, items.length);
  const set = (field: FilterField) => (event: { target: { value: string } }) =>
    setDraft((current) => ({ ...current, [field]: event.target.value }));

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-bold text-white">Audit Log</h1>
          <p className="mt-1 text-sm text-zinc-400">
            Every staff action, import, posting, settings and target change, newest first.
          </p>
        </div>
        <a
          href={auditCsvUrl(filter)}
          download
          className={buttonClass('outline', 'sm')}
          data-testid="audit-csv"
        >
          Download CSV
        </a>
      </div>
      <Card>
        <form
          className="grid gap-4 sm:grid-cols-2 lg:grid-cols-[1.4fr_1fr_1fr_auto_auto] lg:items-end"
          aria-label="Filter the audit log"
          onSubmit={(event) => {
            event.preventDefault();
            const next = new URLSearchParams();
            for (const field of FIELDS) {
              const value = draft[field].trim();
              if (value) next.set(PARAM[field], value);
            }
            setParams(next, { replace: true });
          }}
        >
          <Field id="audit-kind" label="Kind">
            <Select id="audit-kind" value={draft.kind} onChange={set('kind')}>
              <option value="">All kinds</option>
              <optgroup label="Groups">
                {Object.entries(AUDIT_KIND_GROUPS).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </optgroup>
              <optgroup label="Kinds">
                {Object.entries(AUDIT_KINDS).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </optgroup>
            </Select>
          </Field>
          <Field id="audit-user" label="User (email or id)">
            <Input id="audit-user" value={draft.user} onChange={set('user')} />
          </Field>
          <Field id="audit-release" label="Release ID">
            <Input id="audit-release" value={draft.releaseId} onChange={set('releaseId')} />
          </Field>
          <div className="grid grid-cols-2 gap-2 sm:col-span-2 lg:col-span-1">
            <Field id="audit-from" label="From (UTC)">
              <Input id="audit-from" type="date" value={draft.from} onChange={set('from')} />
            </Field>
            <Field id="audit-to" label="To (UTC)">
              <Input id="audit-to" type="date" value={draft.to} onChange={set('to')} />
            </Field>
          </div>
          <div className="flex gap-2">
            <Button type="submit">Filter</Button>
            <Button
              variant="outline"
              onClick={() => {
                setDraft({ kind: '', user: '', releaseId: '', from: '', to: '' });
                setParams(new URLSearchParams(), { replace: true });
              }}
            >
              Clear
            </Button>
          </div>
        </form>
      </Card>

      {audit.isPending ? (
        <PageLoader />
      ) : items.length === 0 ? (
        <Card className="py-10 text-center text-zinc-400">
          {audit.isError ? errorMessage(audit.error, 'Failed to load the audit log') : 'No entries.'}
        </Card>
      ) : (
        <>
          <div className="relative">
            {/* The table scrolls sideways in its own box on a phone (issue 18); the page never does. The box
                is positioned so the screen-reader words (absolutely placed) are clipped inside it too. */}
            <section
              ref={tableBox}
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
              tabIndex={0}
              aria-label="Audit log entries, scrolls sideways"
              data-testid="audit-table-scroll"
              className="relative w-full max-w-full overflow-x-auto rounded-xl border border-ink-700 bg-ink-900 focus-visible:outline-2 focus-visible:outline-brand-400"
            >
              <table className="w-full min-w-[52rem] text-left text-sm">
                <caption className="sr-only">Audit log entries</caption>
                <thead className="border-b border-ink-700 text-xs text-zinc-400 uppercase">
                  <tr>
                    <th scope="col" className="px-4 py-3">
                      When
                    </th>
                    <th scope="col" className="px-4 py-3">
                      Who
                    </th>
                    <th scope="col" className="px-4 py-3">
                      Action
                    </th>
                    <th scope="col" className="px-4 py-3">
                      About
                    </th>
                    <th scope="col" className="px-4 py-3">
                      Before → after
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((entry) => (
                    <tr key={entry.id} className="border-b border-ink-800 align-top" data-testid="audit-row">
                      <td className="px-4 py-3 whitespace-nowrap text-zinc-300">
                        <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
                      </td>
                      <td className="px-4 py-3 text-zinc-100">
                        {entry.actorName ? <div>{entry.actorName}</div> : null}
                        <div className={entry.actorName ? 'text-xs text-zinc-400' : undefined}>
                          {entry.actorEmail}
                        </div>
                        {entry.accountId ? (
                          <div className="text-xs text-amber-200">
                            Team member, for account {entry.accountLabel ?? entry.accountId}
                          </div>
                        ) : null}
                      </td>
                      <td className="px-4 py-3 text-zinc-100">
                        <div>{auditKindLabel(entry.action)}</div>
                        <div className="font-mono text-xs text-zinc-400">{entry.action}</div>
                      </td>
                      <td className="px-4 py-3 text-zinc-100">
                        {entry.subjectLabel ? (
                          <>
                            {entry.subjectType ? (
                              <div className="text-xs text-zinc-400">
                                {SUBJECT_TYPES[entry.subjectType] ?? entry.subjectType}
                              </div>
                            ) : null}
                            <div className="break-words">{entry.subjectLabel}</div>
                          </>
                        ) : (
                          <span className="text-zinc-400">—</span>
                        )}
                      </td>
                      <td className="px-4 py-3 text-xs text-zinc-300">
                        <Changes entry={entry} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
            <ScrollFades edges={tableEdges} />
          </div>
          <ScrollHint edges={tableEdges} testId="audit-scroll-cue">
            Scroll sideways to see every column
          </ScrollHint>
        </>
      )}
      {audit.hasNextPage ? (
        <div className="flex justify-center">
          <Button variant="outline" onClick={() => audit.fetchNextPage()} disabled={audit.isFetchingNextPage}>
            {audit.isFetchingNextPage ? 'Loading...' : 'Load more'}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
