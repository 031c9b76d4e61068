import { toCurl } from './curl.ts';
import { redact, type Secrets } from '../../secrets/redact.ts';
import type { ContractReport, Exchange } from '../types.ts';

const BODY_PREVIEW = 2_000;

function exchangeSummary(exchange: Exchange) {
  return {
    request: exchange.request,
    curl: toCurl(exchange.request),
    ...(exchange.response
      ? {
          response: {
            status: exchange.response.status,
            headers: exchange.response.headers,
            durationMs: exchange.response.durationMs,
            body: exchange.response.text.slice(0, BODY_PREVIEW),
            bodyTruncated: exchange.response.text.length > BODY_PREVIEW,
          },
        }
      : {}),
    ...(exchange.error ? { error: exchange.error } : {}),
    ...(exchange.inFlight !== undefined ? { inFlight: exchange.inFlight } : {}),
    // Sent again alone: what the first sending, with others in flight, came to.
    ...(exchange.firstUnderLoad
      ? { firstUnderLoad: { inFlight: exchange.firstUnderLoad.inFlight, error: exchange.firstUnderLoad.error ?? null } }
      : {}),
  };
}

/** The whole report as JSON, for tools: every outcome and failure, with its exchange. *
 * @example
 * writeFileSync('contract.json', jsonReport(report, { apiKey: key, headerValues: [] }));
 */
export function jsonReport(report: ContractReport, secrets: Secrets): string {
  const data = {
    ...report,
    outcomes: report.outcomes.map((outcome) => ({
      ...outcome,
      // All the exchanges a finding rests on are named by harEntries (with --har); the one to reproduce is shown.
      failures: outcome.failures.map(({ exchange, exchanges: _, ...failure }) => ({
        ...failure,
        ...(exchange ? { exchange: exchangeSummary(exchange) } : {}),
      })),
    })),
  };
  return redact(`${JSON.stringify(data, null, 2)}\n`, secrets);
}
