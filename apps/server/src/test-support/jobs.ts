/** A job defined with its handler inline, for tests of the engine (production jobs keep them apart). */
import { defineJob, type JobDefinition, type JobHandler, type RegisteredJob, withHandler } from '../lib/jobs';

export function inlineJob<P, D = unknown>(job: JobDefinition<P> & JobHandler<P, D>): RegisteredJob<P, D> {
  const { run, takeOver, ...definition } = job;
  return withHandler(defineJob(definition), { run, ...(takeOver ? { takeOver } : {}) });
}
