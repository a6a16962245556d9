/**
 * Counts the queries a piece of work sends through Drizzle (issue 42: the hot paths' tests fail when a change
 * adds a query per row). Both drivers' Drizzle instances log to `queryCountLogger`; outside `countQueries` it
 * does nothing but one AsyncLocalStorage lookup, and tells the embedded database's read cache what was written.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'drizzle-orm';
import { noteStatement } from './read-cache';

const counting = new AsyncLocalStorage<{ queries: number }>();

export const queryCountLogger: Logger = {
  logQuery(query) {
    noteStatement(query);
    const counter = counting.getStore();
    if (counter) counter.queries += 1;
  },
};

/** Runs `work` and answers its result with the number of queries it (and what it awaited) sent. */
export async function countQueries<T>(work: () => Promise<T>): Promise<{ result: T; queries: number }> {
  const counter = { queries: 0 };
  const result = await counting.run(counter, work);
  return { result, queries: counter.queries };
}
