import { accessSync, constants, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { consoleReport } from '../contract/reports/console-report.ts';
import { jsonReport } from '../contract/reports/json-report.ts';
import { junitReport } from '../contract/reports/junit-report.ts';
import type { Secrets } from '../secrets/redact.ts';
import type { ContractReport } from '../contract/types.ts';
import { CliError } from './cli-error.ts';
import { systemError } from '../shared/system-error.ts';

/** The report files a contract run was asked to write. */
export interface ReportPaths {
  readonly junit?: string | undefined;
  readonly json?: string | undefined;
  /** Written as the run goes (reports/har-log.ts), only checked here. */
  readonly har?: string | undefined;
}

/** Throws a CliError unless `path` can be written: its folder exists and is writable, and it is not a folder. */
function assertWritable(option: string, path: string): void {
  const full = resolve(path);
  try {
    if (statSync(full, { throwIfNoEntry: false })?.isDirectory()) throw new CliError(`--${option} ${path} is a directory`);
    accessSync(dirname(full), constants.W_OK);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`--${option} ${path} cannot be written: ${systemError(error)}`);
  }
}

/**
 * Validates the report paths at once, before any request, and returns what writes the reports. Every
 * output goes through the same secrets, so none can carry the key.
 */
export function reportWriters(paths: ReportPaths, secrets: Secrets) {
  const problems = (['junit', 'json', 'har'] as const).flatMap((option) => {
    const path = paths[option];
    if (!path) return [];
    try {
      assertWritable(option, path);
      return [];
    } catch (error) {
      return [{ option, error: error as CliError }];
    }
  });
  if (problems.length > 0) {
    // The other report is still written, saying why the run could not run: CI uploads what it finds.
    const good = { ...paths, ...Object.fromEntries(problems.map((p) => [p.option, undefined])) };
    const reason = problems.map((p) => p.error.message).join('; ');
    return { problem: new CliError(reason), paths: good as ReportPaths, ...writersFor(good, secrets) };
  }
  return { problem: undefined, paths, ...writersFor(paths, secrets) };
}

function writersFor(paths: ReportPaths, secrets: Secrets) {
  const write = (path: string, text: string) => {
    try {
      writeFileSync(path, text);
    } catch (error) {
      throw new CliError(`cannot write ${path}: ${systemError(error)}`);
    }
  };
  return {
    /** Writes the requested report files (also for a run that could not run, with the reason). */
    write(report: ContractReport): void {
      if (paths.junit) write(paths.junit, junitReport(report, secrets));
      if (paths.json) write(paths.json, jsonReport(report, secrets));
    },
    console: (report: ContractReport) => consoleReport(report, secrets),
  };
}
