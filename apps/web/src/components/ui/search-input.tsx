/** The search box of a list page: searches as one types (see useListParams) and at once on Enter. */
import { Search } from 'lucide-react';
import { cn } from './cn';
import { Input } from './input';

export function SearchInput({
  label,
  placeholder,
  value,
  onChange,
  onSubmit,
  className,
}: {
  /** Accessible name of the box, e.g. "Search users by email, artist name or full name". */
  label: string;
  placeholder?: string;
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  className?: string;
}) {
  return (
    <search className={cn('w-full max-w-xl', className)}>
      <form
        className="relative"
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        <Search
          aria-hidden
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-zinc-500"
        />
        <Input
          type="search"
          aria-label={label}
          placeholder={placeholder ?? label}
          className="pl-9"
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      </form>
    </search>
  );
}
