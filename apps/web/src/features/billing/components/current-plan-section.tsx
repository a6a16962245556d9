/** Account page, Current Plan (spec 01 §4): placeholder until the billing issue is built. */
export function CurrentPlanSection() {
  return (
    <section
      aria-labelledby="current-plan-heading"
      className="rounded-xl border border-ink-700 bg-ink-900 p-5"
    >
      <h2 id="current-plan-heading" className="text-lg font-semibold text-white">
        Current Plan
      </h2>
    </section>
  );
}
