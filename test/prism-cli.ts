// Prism's CLI (a dev dependency) as the slow tests start it: `prism mock` or `prism proxy` of the spec on port
// 0 of 127.0.0.1 (it picks a free one and says which), resolved once it says it listens, stopped by the caller.
import { type ChildProcess, spawn } from 'node:child_process';

const PRISM_CLI = new URL('../node_modules/@stoplight/prism-cli/dist/index.js', import.meta.url).pathname;
const SPEC_FILE = new URL('../spec/openapi.yaml', import.meta.url).pathname;

/**
 * Runs `prism <command> [upstream] spec/openapi.yaml ... <flags>` (`mock`, or `proxy` with an upstream URL)
 * and resolves with its URL and process once it listens; rejects with its output if it exits or stays
 * silent for `timeoutMs`.
 */
export async function startPrism(
  command: 'mock' | 'proxy',
  options: { readonly upstream?: string; readonly flags?: readonly string[]; readonly timeoutMs?: number } = {},
): Promise<{ url: string; child: ChildProcess }> {
  const target = command === 'proxy' ? [SPEC_FILE, options.upstream ?? ''] : [SPEC_FILE];
  const args = [PRISM_CLI, command, ...target, '-h', '127.0.0.1', '-p', '0', ...(options.flags ?? [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start: ${output}`)), options.timeoutMs ?? 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const listening = /Prism is listening on (http:\/\/\S+)/.exec(output);
      if (listening) {
        clearTimeout(timer);
        resolve(listening[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`prism exited with ${code}: ${output}`)));
  });
  return { url, child };
}
