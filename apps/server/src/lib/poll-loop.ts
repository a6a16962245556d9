/**
 * A background loop that runs one pass at a time: the next pass starts `intervalMs` after the previous
 * one ended (never two at once), `wake()` runs one now, `stop()` waits for the pass in flight.
 */
export type PollLoop = { wake(): void; stop(): Promise<void> };

export function startPollLoop(
  pass: () => Promise<unknown>,
  options: { intervalMs: number; onError: (error: unknown) => void },
): PollLoop {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const tick = () => {
    if (stopped || running) return;
    running = pass()
      .then(() => undefined)
      .catch(options.onError)
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(tick, options.intervalMs);
      });
  };
  timer = setTimeout(tick, 0);
  return {
    wake() {
      if (timer) clearTimeout(timer);
      tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
