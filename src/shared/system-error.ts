import { getSystemErrorMessage } from 'node:util';

/**
 * What a failed file operation's error says, in words: `no such file or directory` for ENOENT, as the
 * system says it, not the raw code; any other error's own message.
 *
 * @example
 * try { readFileSync(path) } catch (error) { throw new Error(`cannot read ${path}: ${systemError(error)}`) }
 */
export function systemError(error: unknown): string {
  const { errno, message } = (error ?? {}) as { errno?: unknown; message?: unknown };
  if (typeof errno === 'number') return getSystemErrorMessage(errno);
  return typeof message === 'string' ? message : String(error);
}
