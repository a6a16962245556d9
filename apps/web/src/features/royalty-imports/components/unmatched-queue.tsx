/** Codes (ISRC / UPC) found in unposted reports that match nothing we know: assign each, or leave it. */
import type { UnmatchedCode } from '@tunedrop/shared/schemas/royalties';
import { CheckCircle2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, Spinner } from '../../../components/ui/card';
import { useUnmatched } from '../api/royalty-imports';
import { formatUnits } from '../lib/decimal';
import { AssignCodeDialog } from './assign-code-dialog';

export function UnmatchedQueue() {
  const unmatched = useUnmatched();
  const [assigning, setAssigning] = useState<UnmatchedCode | null>(null);
  const items = unmatched.data?.items ?? [];

  return (
    <section aria-labelledby="unmatched-title" className="space-y-3">
      <div>
        <h2 id="unmatched-title" className="text-xl font-semibold text-white">
          Unmatched codes
        </h2>
        <p className="text-sm text-zinc-400">
          Codes of reports not posted yet that match no track or release. Posting a report holds their money
          in suspense (below) until the code is assigned. Assign a code once: it is remembered for every later
          import.
        </p>
      </div>
      {unmatched.isPending ? (
        <Spinner className="text-brand-400" />
      ) : unmatched.isError ? (
        <p role="alert" className="text-sm text-red-400">
          The unmatched codes could not be loaded.
        </p>
      ) : items.length === 0 ? (
        <Card className="flex items-start gap-3 text-sm text-zinc-300" data-testid="unmatched-empty">
          <CheckCircle2 aria-hidden className="mt-0.5 size-5 shrink-0 text-emerald-400" />
          <p>
            Every line of the unposted reports matches a track or release. When an import brings a code we do
            not know, it waits here until you assign it or leave it.
          </p>
        </Card>
      ) : (
        <ul className="space-y-2">
          {items.map((item) => (
            <li
              key={`${item.kind}:${item.code}`}
              className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-ink-700 bg-ink-900 p-4"
              data-testid="unmatched-code"
            >
              <div className="min-w-0">
                <p className="font-mono text-sm text-white">
                  <span className="mr-2 font-sans text-xs text-zinc-400 uppercase">{item.kind}</span>
                  {item.code}
                </p>
                <p className="mt-1 text-sm text-zinc-400">
                  {item.sampleTitle ? `“${item.sampleTitle}”` : 'No title in the report'}
                  {item.sampleArtist ? ` by ${item.sampleArtist}` : ''} · {formatUnits(String(item.lines))}{' '}
                  line
                  {item.lines === 1 ? '' : 's'} in {item.imports} report{item.imports === 1 ? '' : 's'} ·
                  amount {item.amount} (report currency)
                </p>
              </div>
              <Button size="sm" onClick={() => setAssigning(item)}>
                Assign…
              </Button>
            </li>
          ))}
        </ul>
      )}
      <AssignCodeDialog code={assigning} onClose={() => setAssigning(null)} />
    </section>
  );
}
