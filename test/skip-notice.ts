// A vitest reporter (vitest.config.ts) that repeats, after the summary, what this run skipped for want of
// something on this machine, and why or how to get it: a test skipped with a note (`context.skip('openssl
// is not available ...')`) or whose name says `(skipped: <how to enable it>)`, as the Chromium test does.
import type { Reporter, TestModule } from 'vitest/node';

const REASON = /\(skipped: ([^)]*)\)/;

export default class SkipNotice implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const reasons = new Set<string>();
    for (const module of testModules) {
      for (const test of module.children.allTests('skipped')) {
        const result = test.result();
        const reason = (result.state === 'skipped' ? result.note : undefined) ?? REASON.exec(test.fullName)?.[1];
        if (reason) reasons.add(`${module.relativeModuleId}: ${reason}`);
      }
    }
    if (reasons.size === 0) return;
    const text = ['', 'SKIPPED on this machine (CI runs them):', ...[...reasons].map((r) => `  ${r}`), ''].join('\n');
    process.stderr.write(process.stderr.isTTY ? `\x1b[33m${text}\x1b[39m\n` : `${text}\n`);
  }
}
