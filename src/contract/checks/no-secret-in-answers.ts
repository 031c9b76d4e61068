import type { ResponseCheck } from '../model/check.ts';

/**
 * No answer hands out a credential the request did not carry: the key, a run of 8 of its characters (a key of 16
 * or more), or a credential --header value, in body or headers, error answers above all (`expected <the key>`).
 * Read by the client before it redacts the answer; the finding shows it redacted, like everything else. An echo of
 * the request's own credential (a look-alike key sent by ignored_auth, a problem's `instance` holding the URL whose
 * query carried the key) is a note, in every mode: the answer gave nothing the request did not have.
 */
export const noSecretInAnswers: ResponseCheck = {
  name: 'no_secret_in_answers',
  kind: 'response',
  everyAnswer: true,
  description: 'no answer holds a credential (the key, 8 characters of it, a credential --header) the request did not carry',
  evidence: 'any answer',
  inspect(exchange) {
    const exposed = exchange.response?.secretExposed;
    if (!exposed) return [];
    return [
      exposed.echo
        ? {
            severity: 'note',
            message: `the answer's ${exposed.where} echo the credential the request carried (shown redacted; not a leak)`,
            expected: 'no credential in the answer',
            actual: `${exchange.response!.status}, a credential in the ${exposed.where}`,
            exchange,
          }
        : {
            severity: 'error',
            message: `the answer's ${exposed.where} hold a credential the request did not carry (shown redacted)`,
            expected: 'no credential in the answer',
            actual: `${exchange.response!.status}, a credential in the ${exposed.where}`,
            exchange,
            absolute: true,
          },
    ];
  },
};
