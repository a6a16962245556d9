/** Tabs of a list page, each with its row count (`data-testid="count-<id>"`); the panel is the children. */
import { Tabs } from 'radix-ui';
import type { ReactNode } from 'react';
import { Badge } from './card';
import { cn } from './cn';

export type CountTab<Tab extends string> = { id: Tab; label: string };

export function CountTabs<Tab extends string>({
  label,
  tabs,
  value,
  onValueChange,
  counts,
  children,
}: {
  /** Accessible name of the tab list, e.g. "Release status". */
  label: string;
  tabs: readonly CountTab<Tab>[];
  value: Tab;
  onValueChange: (tab: Tab) => void;
  /** Counts per tab; undefined while loading. */
  counts: Partial<Record<Tab, number>> | undefined;
  children: ReactNode;
}) {
  return (
    <Tabs.Root
      value={value}
      onValueChange={(next) => {
        const tab = tabs.find((item) => item.id === next);
        if (tab) onValueChange(tab.id);
      }}
    >
      <Tabs.List aria-label={label} className="flex gap-1 overflow-x-auto border-b border-ink-700">
        {tabs.map((item) => (
          <Tabs.Trigger
            key={item.id}
            value={item.id}
            className={cn(
              '-mb-px flex items-center gap-2 border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap',
              item.id === value
                ? 'border-brand-400 text-white'
                : 'border-transparent text-zinc-400 hover:text-white',
            )}
          >
            {item.label}
            <Badge
              tone={item.id === value ? 'brand' : 'neutral'}
              className="tabular-nums"
              data-testid={`count-${item.id}`}
            >
              {counts?.[item.id] ?? '–'}
            </Badge>
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      <Tabs.Content value={value} className="pt-4 focus-visible:outline-none">
        {children}
      </Tabs.Content>
    </Tabs.Root>
  );
}
