/**
 * The logging the device link needs; a pino or Fastify logger fits. Calls are always `(object, message)`.
 */
export interface IotLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** A logger that drops everything (tests, tools). */
export const silentLogger: IotLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
