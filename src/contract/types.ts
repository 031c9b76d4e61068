/** A fetch-compatible function: an in-process app's `fetch` (tests, the kit's own mock). */
export type FetchLike = (input: Request) => Promise<Response> | Response;

/**
 * How bad a failure is: an error breaks what the interface states; a warning breaks only what our spec assumes;
 * a note is shown and never fails a run, even under --strict (the request's own credential echoed back).
 */
export type Severity = 'error' | 'warning' | 'note';

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
  /** The number of the connection it came on (unique in the process, whichever client opened it), over the network; absent in-process. */
  readonly connection?: number;
  /** The answer held a credential (read before redaction): where, and whether the request carried it (an echo). */
  readonly secretExposed?: { readonly echo: boolean; readonly where: 'body' | 'headers' };
}

/** One request and what came of it: a response, or a transport error (refused, timeout, too large...). */
export interface Exchange {
  readonly operationId: string;
  readonly request: RecordedRequest;
  /** When the request (its last try) was sent, ISO 8601; absent when none was. */
  readonly startedDateTime?: string;
  /**
   * When its last try was sent and its answer read, on the run's clock (performance.now(), ms): the span within
   * which the target produced the answer, that versions of the listing are judged by. The kit's own; never in a report.
   */
  readonly span?: { readonly sent: number; readonly answered: number };
  readonly response?: RecordedResponse;
  readonly error?: string;
  /** Judged by the rule of the check that sent it only (a request off the interface): no response check sees it. */
  readonly judgedAlone?: boolean;
  /** The most requests the kit had in flight while this one was (itself included). */
  readonly inFlight?: number;
  /**
   * This is the request sent again with nothing else in flight, after its first sending (this field) timed out
   * or lost its connection with others in flight: what it does alone is what the target does.
   */
  readonly firstUnderLoad?: Exchange;
  /** It timed out or lost its connection with others in flight and was not sent again alone: the run's re-sends were spent. */
  readonly notSentAlone?: boolean;
  /**
   * Sent again alone (see `firstUnderLoad`), it failed too, but no probe had answered at its unloaded speed within
   * --timeout before it went: the target was still busy (with the requests the kit gave up on, most often), so the
   * failure is not the request's own.
   */
  readonly stillBusy?: boolean;
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
  /** When it compares several answers: all the exchanges it rests on (`exchange` among them), in the order read. */
  readonly exchanges?: readonly Exchange[];
  /** How many times the same failure was seen, across records and responses (1 when unique). */
  readonly occurrences?: number;
  /** For a failure found by generated requests: the seed whose `--seed` replays it. */
  readonly seed?: number;
  /**
   * True when no change of the data between requests can explain it (a term no record can contain that
   * returns records, a wrong key accepted): it stands whatever the data did during the run.
   */
  readonly absolute?: boolean;
  /**
   * Judges the finding again by the versions rule with all the run saw of the listing (more reads, the staleness
   * measured by the end): whether it still stands (`named`: it does, in words naming the versions, added to its
   * message), or what the rule could not tell. The kit's own; never in a report.
   */
  readonly rejudge?: () => Promise<boolean | { readonly unknown: string } | { readonly named: string }>;
  /**
   * Why the versions rule could not judge the finding (see rejudge): what it lacked, and the flag that would have
   * let the run see it; said when the finding ends inconclusive.
   */
  readonly unplaced?: string;
  /**
   * The check whose finding this one follows from: `stable_order` when the same request got answers no
   * legitimate variation explains, so that a comparison of answers here could not hold either.
   */
  readonly followsFrom?: string;
  /** With --har: the indices in the HAR's `log.entries` of the exchanges the finding rests on. */
  readonly harEntries?: readonly number[];
}

/** A failure as a check reports it; the runner adds the check's name and the operation. */
export type Finding = Omit<Failure, 'check' | 'operationId'>;

/**
 * Why a check gave no verdict. `not-applicable`: the rule does not apply to this target or run (an opt-in
 * check whose flag is absent, an optional header the target does not send). `no-evidence`: the target's
 * answers (or the run's budget) did not give the check what it needs, so the run is inconclusive.
 */
export type SkipCause = 'not-applicable' | 'no-evidence';

/** The verdict of one check on one operation. */
export interface CheckOutcome {
  readonly check: string;
  readonly operationId: string;
  readonly status: 'passed' | 'failed' | 'warned' | 'skipped';
  readonly failures: readonly Failure[];
  readonly skipReason?: string;
  readonly skipCause?: SkipCause;
  readonly description: string;
  /** What the check needs to give a verdict, in words. */
  readonly evidence?: string;
  /** Parts of its claim this target gave nothing to see (a tiebreak with no ties): reported, not passed. */
  readonly notObserved?: readonly string[];
}

/**
 * The word for a whole run. `inconclusive`: nothing failed, but a requested check could not be evaluated
 * from the target's answers. `could not run`: the run looks misconfigured (target unreachable, key
 * refused, every listing 404) or an option was wrong.
 */
export type Verdict = 'conformant' | 'not conformant' | 'inconclusive' | 'could not run';

/** What the run saw of a listing's movement: the consistency section of the reports. */
export interface ConsistencyFigures {
  /** Versions seen (distinct heads), and records that arrived at the head during the run. */
  readonly versions: number;
  readonly arrived: number;
  /** The most records a read of the head was behind a version already seen (replicas apart, a cache behind). */
  readonly behindRecords: number;
  /** The staleness measured, in ms, per kind of request (0: every answer came from a version current while it was made). */
  readonly pageStalenessMs: number;
  readonly searchStalenessMs: number;
  /** Connections that showed more than one version, and connections that kept to one version while others differed. */
  readonly connections?: { readonly seen: number; readonly pinned: boolean };
}

/** How much of a listing a run read: all of it, or, past --max-pages, a prefix and pages up to the end it found. */
export interface ListingCoverage {
  readonly operationId: string;
  /** Records read page by page from the start. */
  readonly read: number;
  /** Records in the listing, when known (read to the end, or its end found). */
  readonly total?: number;
  /** Pages of records read beyond the prefix (finding the end, sampled pairs). */
  readonly sampledPages: number;
  readonly complete: boolean;
  /**
   * Pairs of parameter classes (page × pageSize, page × search, pageSize × search) that some judged request of
   * the explorations' covering set held, out of all such pairs; absent when no exploration ran.
   */
  readonly pairs?: { readonly covered: number; readonly total: number };
  /** What the run saw of the listing's movement: versions, how far apart, the staleness measured (see docs/contract.md, "Live data"). */
  readonly consistency?: ConsistencyFigures;
}

/** What the requests of one listing got, as a whole (see ContractReport.unanswered). */
export interface ListingAnswers {
  readonly operationId: string;
  /** The listing's path in the spec: `/alert`. */
  readonly path: string;
  /** Requests sent to the listing (GET on its path, with or without a key; the other roads apart). */
  readonly requests: number;
  /** How many of them got a listing: a 200 JSON array. */
  readonly listed: number;
  /** What they got, in a few words: `every request got 500 text/plain`, or the commonest answers. */
  readonly answers: string;
}

/** A change of the limit, and why. */
export interface LimitChange {
  readonly from: number;
  readonly to: number;
  readonly why: string;
  /** The kind whose own limit changed; absent: the limit of all. */
  readonly kind?: string;
}

/** One kind's own limit: where it ended, its lowest and highest, and the load it queued at, if it did. */
export interface KindLimitFigures {
  readonly end: number;
  readonly lowest: number;
  readonly highest: number;
  /**
   * Its requests in flight when most of a window took well over their time alone (the most among those), or when
   * one failed (the fewest): it stays below from then on.
   */
  readonly queuedAt?: number;
}

/** Latency figures of one set of answers, in ms. */
export interface LatencyFigures {
  readonly count: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
}

/** One kind of request (see HttpClientOptions.requestKind): its latency alone and under load, and its failures. */
export interface KindTiming {
  readonly kind: string;
  /** Answers to requests sent with at most 2 (ALONE_IN_FLIGHT) in flight. */
  readonly alone?: LatencyFigures;
  /** Answers to requests sent with more in flight. */
  readonly underLoad?: LatencyFigures;
  /** Requests that timed out or lost their connection. */
  readonly failed: number;
  /** Requests answered 502, 503 or 504 (load shed), when any were. */
  readonly shed?: number;
  /** Its own limit of requests in flight, under the limit of all, as it moved. */
  readonly limit?: KindLimitFigures;
}

/** The run's timing section (console and JSON). */
export interface TimingReport {
  /** The limit of requests in flight: --concurrency is its ceiling. */
  readonly limit: {
    readonly ceiling: number;
    readonly start: number;
    readonly end: number;
    readonly lowest: number;
    readonly highest: number;
    /** Its changes, oldest first (the first 50; `changeCount` counts them all). */
    readonly changes: readonly LimitChange[];
    readonly changeCount: number;
  };
  readonly kinds: readonly KindTiming[];
  /**
   * The kit's peak resident set size over the run, in MB (process.resourceUsage().maxRSS, rounded): the whole
   * process's, so an in-process run counts its host too. Set by runContract; absent from a timing log's own report.
   */
  readonly peakRssMb?: number;
  /**
   * Requests that timed out, lost their connection, or got a 500, 502, 503 or 504 with others in flight, and what
   * sending them alone did (`failedAlone`: no response, or a 5xx, alone too).
   */
  readonly sentAgainAlone: {
    readonly answered: number;
    readonly failedAlone: number;
    /** Of those failed alone, sent while the target was still busy (no probe answered at its unloaded speed). */
    readonly stillBusy?: number;
    /** Not sent again: the run's re-sends were spent. */
    readonly notSent: number;
    readonly cap: number;
    /** Cheap requests sent to learn when the target answers at its unloaded speed again. */
    readonly probes: number;
  };
}

/** The run as planned to fit --max-duration (see run/plan-run.ts). */
export interface RunPlan {
  /** --examples as asked, and as the run used them (`--examples` with it replays the run). */
  readonly examples: { readonly asked: number; readonly used: number };
  /** Requests of each listing's covering set judged (--covering), as asked (all by default) and as used. */
  readonly covering: { readonly asked: number; readonly used: number };
  /** Special terms search_special_terms sends per listing (--special-terms), as asked (all by default) and as used. */
  readonly specialTerms: { readonly asked: number; readonly used: number };
  /** The rest of the run as estimated after the first reads, in ms. */
  readonly estimateMs: number;
  /**
   * Of those used, the covering requests and special terms judged once the planned checks had ended, in the time
   * they left (see run/extend-plan.ts); absent when none were.
   */
  readonly extended?: { readonly covering: number; readonly specialTerms: number };
  /**
   * What was trimmed and why, e.g. `examples 50 -> 1, covering set 112 -> 40, special terms 50 -> 18: a search takes
   * 3.6 s here`; absent when nothing was.
   */
  readonly why?: string;
}

/** The result of a whole contract run. */
export interface ContractReport {
  readonly target: string;
  readonly strict: boolean;
  readonly outcomes: readonly CheckOutcome[];
  /**
   * The run in one unit, checks, as the console's lines show them (a check's status is its worst over the
   * listings): `passed` (PASS), `part` (PART: passed on some listings or parts of its claim only), `warned`,
   * `failed`, `skipped`; `inconclusive`: checks that could not be evaluated somewhere. Then the requests sent.
   */
  readonly summary: {
    checks: number;
    passed: number;
    part: number;
    failed: number;
    warned: number;
    skipped: number;
    inconclusive: number;
    requests: number;
    retried: number;
  };
  /** True only when every requested check was evaluated and none failed (under --strict, warnings fail too). */
  readonly conformant: boolean;
  readonly verdict: Verdict;
  /** Why the run could not run, or why it is inconclusive, with what to do about it. */
  readonly reason?: string;
  /** The seed of the generated requests: `--seed` with it replays them. */
  readonly seed?: number;
  readonly examples?: number;
  /** How much of each listing was read (absent for a run that could not run). */
  readonly coverage?: readonly ListingCoverage[];
  /** What the target's speed did to the run (absent for a run that could not run). */
  readonly timing?: TimingReport;
  /** The run as planned to fit --max-duration (absent for a run that could not run). */
  readonly plan?: RunPlan;
  /**
   * The listings no request got a listing from (not one 200 JSON array): what depends on one is skipped under
   * this one fact, and no check passes there without having seen one (absent when every listing answered).
   */
  readonly unanswered?: readonly ListingAnswers[];
}

/** The run cannot start: the target does not answer at all, refuses the key, or an option is wrong. Exit code 2 in the CLI. */
export class ContractSetupError extends Error {
  override readonly name = 'ContractSetupError';
  /** What the user most likely has to change. */
  readonly hint: string | undefined;
  constructor(message: string, hint?: string) {
    super(message);
    this.hint = hint;
  }
}

/**
 * An exchange's place in the run's order, compared element by element ({@link comparePlaces}): the listing,
 * the list of requests within it, the request within that list (then, for the copies a replicas' re-run sent
 * with it, the copy). It is fixed when the request is made, so it does not depend on when answers arrive.
 */
export type Place = readonly number[];
