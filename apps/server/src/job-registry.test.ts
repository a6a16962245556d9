/**
 * The registry pairs each job's definition with its handler, imported at the job's first run (record
 * 258): every handler's module loads and gives a run, and no job is registered twice.
 */
import { describe, expect, it } from 'vitest';
import { allJobs } from './job-registry';

describe('the job registry', () => {
  it("loads every job's handler, each with its run", async () => {
    const names = allJobs.map((job) => job.name);
    expect(new Set(names).size).toBe(names.length);
    for (const job of allJobs) {
      const handler = await job.handler();
      expect(typeof handler.run, job.name).toBe('function');
    }
    // delivery.send releases the dead run's lease when its worker is gone (record 217).
    const send = allJobs.find((job) => job.name === 'delivery.send');
    expect(typeof (await send?.handler())?.takeOver).toBe('function');
  });
});
