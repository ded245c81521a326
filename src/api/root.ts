import { ROOT_EVIDENCE_PATH, SERVICE_API_URL, answersAsApi } from '../contract.js'
import { describeBody } from './reply.js'
import { ApiError, type ErrorKind } from './errors.js'
import type { StagingApiClient } from './client.js'
import { setting } from '../words.js'

/** Errors of the check itself that say nothing about the root (the service is down, slow, limited). */
const INCONCLUSIVE: ErrorKind[] = ['server', 'network', 'timeout', 'rate-limited']

type Verdict = { ok: true } | { ok: false; kind: ErrorKind; said: string; hint: string | null }

const HINT = `The API root {api} did not answer as the staging API. Set ${setting('api-url')} to the API root (/v2 is appended); for the hosted service it is ${SERVICE_API_URL}. The 404 was not read as "no staging environment", whatever ${setting('if-missing')} says.`

/**
 * Evidence that api-url is the API root before a 404 is read as "no staging environment" (contract
 * §4 r3): one `GET /v2/sites` per run, asked by the first site that needs it and shared by every
 * site of a batch (like the window ledger and the transport). Timeouts and cancellations are not
 * remembered: they end the run anyway.
 */
export class ApiRoot {
  private verdict: Promise<Verdict> | null = null

  /**
   * Resolves when the root answered as the API; throws an ApiError when it did not (kind
   * `api-url`), or when the check itself failed (that failure's kind). `because` names the 404 that
   * needs the evidence, for the message.
   */
  async confirm(client: StagingApiClient, because: string): Promise<void> {
    this.verdict ??= ask(client).catch((e: unknown) => {
      this.verdict = null
      throw e
    })
    const verdict = await this.verdict
    if (verdict.ok) return
    const shown = client.shown(ROOT_EVIDENCE_PATH)
    throw new ApiError({
      kind: verdict.kind,
      processing: 'processed',
      httpStatus: 404,
      message:
        verdict.kind === 'api-url'
          ? `${because}, but the API root did not answer GET ${shown} as the API (${verdict.said}), so that 404 cannot mean "no staging environment": ${setting('api-url')} looks wrong.`
          : `${because}, and whether ${setting('api-url')} is the API root could not be checked (GET ${shown}: ${verdict.said}), so that 404 was not read as "no staging environment".`,
      ...(verdict.hint ? { hint: verdict.hint } : {}),
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
