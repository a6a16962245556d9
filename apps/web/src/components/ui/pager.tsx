/** Previous / Next with "Page n of m" under a list; hidden when everything fits on one page. */
import { Button } from './button';
import { cn } from './cn';

export function Pager({
  page,
  pageCount,
  onPageChange,
  detail,
  className,
}: {
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
  /** Extra words after the page number, e.g. "42 users". */
  detail?: string;
  className?: string;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Pages" className={cn('flex items-center justify-between gap-3', className)}>
      <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPageChange(page - 1)}>
        Previous
      </Button>
      <p className="text-sm text-zinc-400">
        Page {page} of {pageCount}
        {detail ? ` · ${detail}` : ''}
      </p>
      <Button variant="outline" size="sm" disabled={page >= pageCount} onClick={() => onPageChange(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
