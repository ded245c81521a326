import { ROOT_EVIDENCE_PATH, answersAsApi } from '../contract.js'
import { describeBody } from './reply.js'
import { ApiError, type ErrorKind } from './errors.js'
import { DeadlineError, type StagingApiClient } from './client.js'
import { setting } from '../words.js'

/** Errors of the check itself that say nothing about the root (the service is down, slow, limited). */
const INCONCLUSIVE: ErrorKind[] = ['server', 'network', 'timeout', 'rate-limited']

type Verdict = { ok: true } | { ok: false; kind: ErrorKind; said: string; hint: string | null }

// `{api}` and `{hosted}` are filled where the Result is written (filledHint in errors.ts): the hosted
// root is suggested only to a run on the hosted service's host.
const HINT = `The API root {api} did not answer as the staging API. Set ${setting('api-url')} to the API root (/v2 is appended){hosted}. The 404 was not read as "no staging environment" and says nothing about ${setting('site-id')}, whatever ${setting('if-missing')} says.`

/**
 * Evidence that api-url is the API root before a 404 is read as "no staging environment" (contract §4 r3):
 * one `GET /v2/sites` per run, shared by every site. Timeouts and cancellations are not remembered.
 */
export class ApiRoot {
  private verdict: Promise<Verdict> | null = null

  private ask(client: StagingApiClient): Promise<Verdict> {
    this.verdict ??= ask(client).catch((e: unknown) => {
      this.verdict = null
      throw e
    })
    return this.verdict
  }

  /** Resolves when the root answered as the API; else throws an ApiError (`api-url`, or the check's own failure).
   * `because` names the 404 that needs the evidence. */
  async confirm(client: StagingApiClient, because: string): Promise<void> {
    const verdict = await this.ask(client)
    if (verdict.ok) return
    const shown = client.shown(ROOT_EVIDENCE_PATH)
    throw new ApiError({
      kind: verdict.kind,
      processing: 'processed',
      httpStatus: 404,
      message:
        verdict.kind === 'api-url'
          ? `${because}, but the API root did not answer GET ${shown} as the API (${verdict.said}), so that 404 cannot mean "no staging environment": ${setting('api-url')} looks wrong.`
          : `${because}; that 404 was held back, not read as "no staging environment", because whether ${setting('api-url')} is the API root could not be checked (GET ${shown}: ${verdict.said}).`,
      ...(verdict.hint ? { hint: verdict.hint } : {}),
    })
  }

  /**
   * A 404 the run does not skip, as reported (issue 24 §3): blaming the site id only once the root answered as
   * the API; else the api-url error, or (the check could not finish) the 404 saying the root was not checked.
   */
  async blame(client: StagingApiClient, notFound: ApiError): Promise<ApiError> {
    let verdict: Verdict
    try {
      verdict = await this.ask(client)
    } catch (e) {
      if (!(e instanceof DeadlineError)) throw e
      verdict = { ok: false, kind: 'timeout', said: 'the timeout came first', hint: null }
    }
    if (verdict.ok) return notFound
    const because = notFound.message.replace(/[.\s]+$/, '')
    if (verdict.kind === 'api-url')
      return notFound.retold({
        kind: 'api-url',
        processing: 'processed',
        message: `${because}, and the API root did not answer GET ${client.shown(ROOT_EVIDENCE_PATH)} as the API either (${verdict.said}): ${setting('api-url')} looks wrong, not ${setting('site-id')}.`,
        hint: HINT,
      })
    return notFound.retold({
      message: `${because}. Whether ${setting('api-url')} is the API root could not be checked (GET ${client.shown(ROOT_EVIDENCE_PATH)}: ${verdict.said}), so the 404 may come from a wrong ${setting('api-url')} as well as from a wrong ${setting('site-id')}.`,
      hint: `Check ${setting('api-url')} (the API root{hosted}), then that ${setting('site-id')} is the PRODUCTION site's id.`,
    })
  }
}

async function ask(client: StagingApiClient): Promise<Verdict> {
  try {
    const answer = await client.call('GET', ROOT_EVIDENCE_PATH, 'read')
    if (answersAsApi(answer.status, answer.reply.kind)) return { ok: true }
    return {
      ok: false,
      kind: 'api-url',
      said: `it answered ${answer.status} with ${describeBody(answer.reply.kind)}`,
      hint: HINT,
    }
  } catch (e) {
    if (!(e instanceof ApiError)) throw e
    if (INCONCLUSIVE.includes(e.kind)) return { ok: false, kind: e.kind, said: e.message, hint: e.hint }
    return { ok: false, kind: 'api-url', said: e.message, hint: HINT }
  }
}
