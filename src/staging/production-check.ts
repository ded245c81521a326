import { PAGE_BYTES_MAX, healthyStatus } from '../contract.js'
import { setting } from '../words.js'
import type { RunContext } from './context.js'
import { waitForUrl, type SiteAnswer } from './url-check.js'

/**
 * production-url after a push or a restore (contract §16): the live site, asked until it is healthy (2xx or 3xx,
 * with the production-expect text when set) or verify-timeout ends. One bad answer decides nothing (the first
 * minute after a push may serve the purged cache's errors); it is asked through wait-for-url's safe GET.
 */
export interface ProductionCheck {
  passed: boolean
  /** The last answer seen, in inert, bounded words: `HTTP 503`, `no answer: connection refused`. */
  last: string
  /** GETs the check made. 0: production was never asked: not evidence either way, so nothing is restored on it. */
  tries: number
  /** Not passed, and the step's deadline came before the end of its window. */
  cut: boolean
  /** No verdict from the answers (tries 0): the window ended on a redirect (no page to look in), or its answers were
   * redirects but one (one answer decides nothing). What the run says, and what to do. */
  undecided?: { said: string; hint: string }
}

/** Longest `last` kept: a status and a few words. */
const LAST_MAX = 200

/** A GET that got no answer, in words. */
const NO_ANSWER: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'timed out',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
}

export async function checkProduction(ctx: RunContext, url: string): Promise<ProductionCheck> {
  const expected = ctx.config.productionExpect || null
  const windowMs = ctx.config.verifyTimeoutMs
  let tries = 0
  let last = 'not asked: no time was left'
  let redirect = 0
  let redirects = 0
  const judge = (answer: SiteAnswer | Error): string | null => {
    // A redirect carries no page: the text cannot be looked for. Asked again; a window that ends on one is no verdict.
    redirect =
      expected && !(answer instanceof Error) && answer.status >= 300 && answer.status < 400
        ? answer.status
        : 0
    if (redirect) {
      redirects++
      return `HTTP ${redirect}, a redirect`
    }
    tries++
    const why = unhealthy(answer, expected)
    last = ctx.redactor.inert(why ?? `HTTP ${(answer as SiteAnswer).status}`, LAST_MAX)
    return why === null ? null : last
  }
  const cut = ctx.client.deadline < ctx.clock.now() + windowMs
  const passed = await waitForUrl(url, ctx, {
    deadline: Math.min(ctx.client.deadline, ctx.clock.now() + windowMs),
    why: setting('production-url'),
    judge,
    ...(expected ? { bodyBytes: PAGE_BYTES_MAX } : {}),
  })
  if (passed === null) last = 'not asked: plain http to a host that is not loopback'
  const failed = passed === false
  // No verdict (§16: never decided by one answer): a window that ended on a redirect, or whose answers were redirects
  // but one. (A window with room for one answer only is the user's: that answer decides.)
  if (failed && (redirect || (tries === 1 && redirects > 0))) {
    const said = redirect ? 'not checked' : 'checked once only, which decides nothing'
    const hint = redirect
      ? `The page's text is not looked for on a redirect: set ${setting('production-url')} to the final address.`
      : `Check production now; raise ${setting('verify-timeout')} so that more than one answer decides.`
    const shown = redirect ? `HTTP ${redirect}, a redirect` : last
    return { passed: false, last: shown, tries: 0, cut: false, undecided: { said, hint } }
  }
  return { passed: passed === true, last, tries, cut: cut && failed }
}

/** Why one answer is not healthy, in words; null when it is. */
function unhealthy(answer: SiteAnswer | Error, expected: string | null): string | null {
  if (answer instanceof Error) {
    const code = (answer as NodeJS.ErrnoException).code ?? ''
    return `no answer: ${NO_ANSWER[code] ?? (/^[A-Z0-9_]{2,40}$/.test(code) ? code : 'no connection')}`
  }
  if (!healthyStatus(answer.status)) return `HTTP ${answer.status}`
  if (expected !== null && !(answer.body ?? '').includes(expected))
    return `HTTP ${answer.status} without the expected text${answer.cut ? ' in what came in time' : ''}`
  return null
}
