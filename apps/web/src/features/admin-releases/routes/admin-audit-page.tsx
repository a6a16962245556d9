/** Audit log (admins only; the server refuses moderators): who did what and when, with before and after. */
import { AUDIT_ACTION_LABELS, type AuditEntry } from '@tunedrop/shared/schemas/admin-releases';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { Field, Input } from '../../../components/ui/input';
import { ScrollFades, ScrollHint, useScrollEdges } from '../../../components/ui/scroll-cue';
import { notify } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { useAuditLog } from '../api/list-audit';

const show = (value: unknown) =>
  value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

/** The fields that changed, as "field: before → after"; a whole snapshot when one side is missing. */
function changes(entry: AuditEntry): string[] {
  const before = (entry.before ?? null) as Record<string, unknown> | null;
  const after = (entry.after ?? null) as Record<string, unknown> | null;
  if (!before || !after || typeof before !== 'object' || typeof after !== 'object') {
    const only = before ?? after;
    if (!only || typeof only !== 'object') return [];
    return Object.entries(only).map(([key, value]) => `${key}: ${show(value)}`);
  }
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .map((key) => `${key}: ${show(before[key])} → ${show(after[key])}`);
}

export default function AdminAuditPage() {
  usePageTitle('Audit Log');
  const [params, setParams] = useSearchParams();
  const user = params.get('user') ?? '';
  const releaseId = params.get('release') ?? '';
  const [userText, setUserText] = useState(user);
  const [releaseText, setReleaseText] = useState(releaseId);
  const audit = useAuditLog(user, releaseId);
  const tableBox = useRef<HTMLElement>(null);

  useEffect(() => {
    if (audit.isError) notify.error(errorMessage(audit.error, 'Failed to load the audit log'));
  }, [audit.isError, audit.error]);

  const items = audit.data?.pages.flatMap((page) => page.items) ?? [];
  const tableEdges = useScrollEdges(tableBox, items.length);

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-3xl font-bold text-white">Audit Log</h1>
        <p className="mt-1 text-sm text-zinc-400">Every moderator and admin action, newest first.</p>
      </div>
      <Card>
        <form
          className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end"
          onSubmit={(event) => {
            event.preventDefault();
            const next = new URLSearchParams();
            if (userText.trim()) next.set('user', userText.trim());
            if (releaseText.trim()) next.set('release', releaseText.trim());
            setParams(next, { replace: true });
          }}
        >
          <Field id="audit-user" label="User (email or id)">
            <Input id="audit-user" value={userText} onChange={(event) => setUserText(event.target.value)} />
          </Field>
          <Field id="audit-release" label="Release ID">
            <Input
              id="audit-release"
              value={releaseText}
              onChange={(event) => setReleaseText(event.target.value)}
            />
          </Field>
          <div className="flex gap-2">
            <Button type="submit">Filter</Button>
            <Button
              variant="outline"
              onClick={() => {
                setUserText('');
                setReleaseText('');
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
            {/* The table scrolls sideways in its own box on a phone (issue 18); the page never does. */}
            <section
              ref={tableBox}
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
              tabIndex={0}
              aria-label="Audit log entries, scrolls sideways"
              data-testid="audit-table-scroll"
              className="w-full max-w-full overflow-x-auto rounded-xl border border-ink-700 bg-ink-900 focus-visible:outline-2 focus-visible:outline-brand-400"
            >
              <table className="w-full min-w-[48rem] text-left text-sm">
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
                      Release / user
                    </th>
                    <th scope="col" className="px-4 py-3">
                      Change
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((entry) => (
                    <tr key={entry.id} className="border-b border-ink-800 align-top">
                      <td className="px-4 py-3 whitespace-nowrap text-zinc-300">
                        <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
                      </td>
                      <td className="px-4 py-3 text-zinc-100">{entry.actorEmail}</td>
                      <td className="px-4 py-3 text-zinc-100">
                        {AUDIT_ACTION_LABELS[entry.action] ?? entry.action}
                      </td>
                      <td className="px-4 py-3 font-mono text-xs text-zinc-400">
                        {entry.releaseId ? <div>release {entry.releaseId}</div> : null}
                        {entry.subjectUserId ? <div>user {entry.subjectUserId}</div> : null}
                      </td>
                      <td className="px-4 py-3 text-xs text-zinc-300">
                        <ul className="space-y-0.5">
                          {changes(entry).map((line) => (
                            <li key={line} className="break-all">
                              {line}
                            </li>
                          ))}
                        </ul>
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
