import type { Logger } from '@receipts/core';

/** JSON.stringify writes an Error as `{}`: its name, message, stack and cause are written instead. */
function errorFields(_key: string, value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  return {
    name: value.name,
    message: value.message,
    stack: value.stack,
    ...(value.cause === undefined ? {} : { cause: value.cause }),
  };
}

/** Structured one-line JSON logs (CloudWatch-friendly); quiet below `level`; Error fields written out. */
export function createJsonLogger(
  level: 'debug' | 'info' | 'warn' | 'error' = 'info',
  write: (line: string) => void = (line) => process.stderr.write(line + '\n'),
): Logger {
  const order = ['debug', 'info', 'warn', 'error'] as const;
  const min = order.indexOf(level);
  const emit = (lvl: (typeof order)[number]) => (message: string, fields?: Record<string, unknown>) => {
    if (order.indexOf(lvl) < min) return;
    write(JSON.stringify({ level: lvl, time: new Date().toISOString(), message, ...fields }, errorFields));
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}
