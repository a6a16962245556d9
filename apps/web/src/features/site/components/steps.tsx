/** A numbered row of steps ('How It Works' on the home and pricing pages). */
import type { LucideIcon } from 'lucide-react';

export type Step = { title: string; text: string; icon: LucideIcon };

export function Steps({ steps }: { steps: Step[] }) {
  return (
    <ol className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
      {steps.map((step, index) => (
        <li key={step.title} className="relative rounded-2xl border border-ink-700 bg-ink-900/70 p-6">
          <span className="flex size-11 items-center justify-center rounded-xl bg-brand-600/20 text-brand-300">
            <step.icon aria-hidden className="size-5" />
          </span>
          <p className="mt-4 text-xs font-semibold tracking-wider text-brand-300 uppercase">
            Step {index + 1}
          </p>
          <h3 className="mt-1 text-lg font-semibold text-white">{step.title}</h3>
          <p className="mt-2 text-sm leading-relaxed text-zinc-300">{step.text}</p>
        </li>
      ))}
    </ol>
  );
}

export function SectionHeading({ id, title, intro }: { id: string; title: string; intro?: string }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <h2 id={id} className="text-3xl font-bold tracking-tight text-white sm:text-4xl">
        {title}
      </h2>
      {intro ? <p className="mt-4 text-base text-zinc-300 sm:text-lg">{intro}</p> : null}
    </div>
  );
}
