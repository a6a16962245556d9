/** One pino logger for the process; every line written while serving a request carries its `reqId`. */
import pino, { type Logger } from 'pino';
import { currentRequestContext } from './request-context';

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    // Child loggers inherit the mixin, so service and job loggers made from this one carry it too.
    mixin: () => {
      const context = currentRequestContext();
      return context ? { reqId: context.requestId } : {};
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
export type { Logger };
