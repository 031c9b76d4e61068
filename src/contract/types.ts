/** How bad a failure is: an error breaks what the interface states; a warning breaks only what our spec assumes. */
export type Severity = 'error' | 'warning';

/** A request as the kit sent it. Secrets are already replaced by placeholders (see `redact.ts`). */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** A response as the kit read it (the body capped at a byte limit). */
export interface RecordedResponse {
  readonly status: number;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly json?: unknown;
  readonly durationMs: number;
}

/** One request and what came of it: a response, or a transport error (refused, timeout, too large...). */
export interface Exchange {
  readonly operationId: string;
  readonly request: RecordedRequest;
  readonly response?: RecordedResponse;
  readonly error?: string;
}

/** One way the target broke the contract. */
export interface Failure {
  readonly check: string;
  readonly operationId: string;
  readonly severity: Severity;
  readonly message: string;
  readonly expected?: string;
  readonly actual?: string;
  /** The exchange that shows it, to reproduce with curl. */
  readonly exchange?: Exchange;
  /** How many times the same failure was seen, across records and responses (1 when unique). */
  readonly occurrences?: number;
}

/** The verdict of one check on one operation. */
export interface CheckOutcome {
  readonly check: string;
  readonly operationId: string;
  readonly status: 'passed' | 'failed' | 'warned' | 'skipped';
  readonly failures: readonly Failure[];
  readonly skipReason?: string;
  readonly description: string;
}

/** The result of a whole contract run. */
export interface ContractReport {
  readonly target: string;
  readonly strict: boolean;
  readonly outcomes: readonly CheckOutcome[];
  readonly summary: { passed: number; failed: number; warned: number; skipped: number; requests: number };
  /** True when nothing failed (under --strict, warnings fail too). */
  readonly conformant: boolean;
}

/** The run cannot start: the target does not answer at all, or an option is wrong. Exit code 2 in the CLI. */
export class ContractSetupError extends Error {
  override readonly name = 'ContractSetupError';
}
