import { durationText } from '../duration.js'
import { HttpClient } from '@actions/http-client'
import http from 'node:http'
import https from 'node:https'
import { USER_AGENT } from '../api/client.js'
import { Backoff, URL_WAIT } from '../backoff.js'
import { CancelledError, throwIfAborted } from '../clock.js'
import { secureOrLoopback } from '../text.js'
import type { Clock, Logger } from '../types.js'
import { setting } from '../words.js'

/**
 * wait-for-url: a finished job does not mean the staging site answers yet (contract §2: DNS and TLS
 * can lag 30-120 s). This asks the site itself, with a plain GET that carries only our User-Agent:
 * never the API token or any other header of ours, and it never follows a redirect (a 3xx already
 * means the site answers). Only the status line is read; the body is dropped unread.
 */

/** 2xx, 3xx, 401 and 403 mean the site answers (a password-protected site answers 401). */
export function answers(status: number): boolean {
  return (status >= 200 && status < 400) || status === 401 || status === 403
}

const REQUEST_LIMIT_MS = 10_000
const PROGRESS_EVERY_MS = 15_000

export interface UrlCheckDeps {
  clock: Clock
  logger: Logger
  /** Absolute time (clock ms) by which the site must answer. */
  deadline: number
  signal?: AbortSignal
  /** Why it is asked, for the log line (default `wait-for-url`). */
  why?: string
  /** One GET of the URL (default: plainGet, below). */
  get?: SiteGet
}

/** One GET of a site's own URL: its status, or an Error (connection, TLS, DNS...). */
export type SiteGet = (url: string, timeoutMs: number, signal?: AbortSignal) => Promise<number>

/**
 * Waits until `url` answers. true: it answered; false: the deadline came first; null: not checked
 * (plain http to a host that is not loopback, as with api-url).
 */
export async function waitForUrl(url: string, deps: UrlCheckDeps): Promise<boolean | null> {
  if (!secureOrLoopback(new URL(url))) return null
  const { clock, logger, signal } = deps
  const get = deps.get ?? plainGet
  const started = clock.now()
  // Between tries: a quarter of the time waited so far (late by 25% at most), never past the deadline.
  const backoff = new Backoff(URL_WAIT, { clock, deadlineMs: deps.deadline, ...(signal ? { signal } : {}) })
  let lastLine = started
  logger.info(`Waiting for ${url} to answer (${deps.why ?? setting('wait-for-url')})…`)
  for (let retry = 0; ; retry++) {
    throwIfAborted(signal)
    const left = deps.deadline - clock.now()
    if (left <= 0) return false
    let why: string
    try {
      const status = await get(url, Math.min(REQUEST_LIMIT_MS, left), signal)
      if (answers(status)) {
        logger.info(`${url} answers (HTTP ${status}) after ${durationText(clock.now() - started)}.`)
        return true
      }
      why = `HTTP ${status}`
    } catch (e) {
      if (e instanceof CancelledError) throw e
      why = (e as NodeJS.ErrnoException).code ?? 'no connection'
    }
    const delayMs = backoff.delayMs(retry, clock.now() - started)
    logger.debug(`${url}: not yet (${why}); asking again in ${durationText(delayMs, 'log')}`)
    if (clock.now() - lastLine >= PROGRESS_EVERY_MS) {
      lastLine = clock.now()
      logger.info(`… ${url} does not answer yet (${why}) after ${durationText(clock.now() - started)}`)
    }
    // A last sleep up to the deadline would end without a try: give up now instead.
    if (!(await backoff.sleep(delayMs))) return false
  }
}

/** One GET through the runner's proxy settings (no keep-alive), status line only. */
function plainGet(url: string, timeoutMs: number, signal?: AbortSignal): Promise<number> {
  const agent = new HttpClient(USER_AGENT, [], { keepAlive: false, allowRedirects: false }).getAgent(url)
  const module = url.startsWith('https:') ? https : http
  return new Promise((resolve, reject) => {
    const req = module.request(
      url,
      { method: 'GET', agent, headers: { 'User-Agent': USER_AGENT, Accept: '*/*' } },
      (res) => {
        resolve(res.statusCode ?? 0)
        res.destroy()
      },
    )
    const timer = setTimeout(
      () => req.destroy(Object.assign(new Error('no answer'), { code: 'ETIMEDOUT' })),
      timeoutMs,
    )
    const onAbort = () => req.destroy(new CancelledError())
    signal?.addEventListener('abort', onAbort, { once: true })
    req.on('error', reject)
    req.on('close', () => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
    })
    req.end()
  })
}
