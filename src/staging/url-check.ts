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
 * wait-for-url: a finished job does not mean the staging site answers yet (contract §2: DNS and TLS can lag
 * 30-120 s). A plain GET of the site with our User-Agent and no other header of ours (never the API token); a
 * redirect is never followed (a 3xx already means the site answers); the body is read only when asked.
 */

/** 2xx, 3xx, 401 and 403 mean the site answers (a password-protected site answers 401). */
export function answers(status: number): boolean {
  return (status >= 200 && status < 400) || status === 401 || status === 403
}

const REQUEST_LIMIT_MS = 10_000
/** The shortest last try at a window's end. */
const LAST_TRY_MS = 1000
const PROGRESS_EVERY_MS = 15_000

/** What the check takes of the run (its RunContext). */
export interface UrlCheckRun {
  clock: Clock
  logger: Logger
  signal?: AbortSignal
  /** One GET of the URL (default: plainGet, below). */
  siteGet?: SiteGet
}

export interface UrlCheckOptions {
  /** Absolute time (clock ms) by which the site must answer. */
  deadline: number
  /** Why it is asked, for the log line (default `wait-for-url`). */
  why?: string
  /** Bytes of the body to read (default 0: the status line only). */
  bodyBytes?: number
  /** Why an answer (or a GET that got none) is not good enough yet; null when it is (default: `answers`). */
  judge?: (answer: SiteAnswer | Error) => string | null
}

/** A site's answer: its status and, when asked for, the start of its body (at most `bodyBytes`). */
export interface SiteAnswer {
  status: number
  body?: string
  /** The body was still coming when the GET's time ran out: `body` is what came. */
  cut?: boolean
}

/** One GET of a site's own URL: its answer, or an Error (connection, TLS, DNS...). */
export type SiteGet = (
  url: string,
  timeoutMs: number,
  signal?: AbortSignal,
  bodyBytes?: number,
) => Promise<SiteAnswer>

function answered(answer: SiteAnswer | Error): string | null {
  if (answer instanceof Error) return (answer as NodeJS.ErrnoException).code ?? 'no connection'
  return answers(answer.status) ? null : `HTTP ${answer.status}`
}

/** Waits until `url` answers: true; false: the deadline came first; null: not checked (plain http, not loopback). */
export async function waitForUrl(
  url: string,
  run: UrlCheckRun,
  options: UrlCheckOptions,
): Promise<boolean | null> {
  if (!secureOrLoopback(new URL(url))) return null
  const { clock, logger, signal } = run
  const get = run.siteGet ?? plainGet
  const started = clock.now()
  // Between tries: a quarter of the time waited so far (late by 25% at most), never past the deadline.
  const backoff = new Backoff(URL_WAIT, { clock, deadlineMs: options.deadline, signal })
  let lastLine = started
  logger.info(`Waiting for ${url} to answer (${options.why ?? setting('wait-for-url')})…`)
  for (let retry = 0; ; retry++) {
    throwIfAborted(signal)
    const left = options.deadline - clock.now()
    if (left <= 0) return false
    let answer: SiteAnswer | Error
    try {
      answer = await get(url, Math.min(REQUEST_LIMIT_MS, left), signal, options.bodyBytes)
    } catch (e) {
      if (e instanceof CancelledError) throw e
      answer = e instanceof Error ? e : new Error(String(e))
    }
    const why = (options.judge ?? answered)(answer)
    if (why === null && !(answer instanceof Error)) {
      logger.info(`${url} answers (HTTP ${answer.status}) after ${durationText(clock.now() - started)}.`)
      return true
    }
    const delayMs = backoff.delayMs(retry, clock.now() - started)
    logger.debug(`${url}: not yet (${why}); asking again in ${durationText(delayMs, 'log')}`)
    if (clock.now() - lastLine >= PROGRESS_EVERY_MS) {
      lastLine = clock.now()
      logger.info(`… ${url} does not answer yet (${why}) after ${durationText(clock.now() - started)}`)
    }
    // Near the window's end, one last shorter try rather than a sleep past it (one answer decides nothing).
    const wait = Math.min(delayMs, options.deadline - clock.now() - LAST_TRY_MS)
    if (wait <= 0 || !(await backoff.sleep(wait))) return false
  }
}

/** One GET through the runner's proxy settings (no keep-alive): the status line, and `bodyBytes` of the body at most. */
function plainGet(url: string, timeoutMs: number, signal?: AbortSignal, bodyBytes = 0): Promise<SiteAnswer> {
  const agent = new HttpClient(USER_AGENT, [], { keepAlive: false, allowRedirects: false }).getAgent(url)
  const module = url.startsWith('https:') ? https : http
  return new Promise((resolve, reject) => {
    const req = module.request(
      url,
      { method: 'GET', agent, headers: { 'User-Agent': USER_AGENT, Accept: '*/*' } },
      (res) => {
        const status = res.statusCode ?? 0
        const chunks: Buffer[] = []
        let size = 0
        const end = (cut = false) => {
          const body = Buffer.concat(chunks).subarray(0, bodyBytes).toString('utf8')
          resolve(bodyBytes > 0 ? { status, body, ...(cut ? { cut } : {}) } : { status })
          res.destroy()
        }
        // Out of time with the page on its way: what came is the answer (a slow page is still the page).
        finish = () => end(true)
        if (bodyBytes <= 0) return end()
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk)
          if ((size += chunk.length) >= bodyBytes) end()
        })
        res.on('end', () => end())
        res.on('error', reject)
      },
    )
    let finish: (() => void) | null = null
    const timer = setTimeout(
      () => (finish ? finish() : req.destroy(Object.assign(new Error('no answer'), { code: 'ETIMEDOUT' }))),
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
