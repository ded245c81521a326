/** What a v2 route handler gets: the simulator's state and the request, already authenticated. */
import type { Lang } from './i18n.js'
import type { Jobs } from './jobs.js'
import type { Shapes } from './profiles/index.js'
import type { EffectiveOptions, SimState } from './types.js'

/** Request headers with lower-case names (node's IncomingHttpHeaders fits). */
export type RequestHeaders = Record<string, string | string[] | undefined>

export interface ApiRequest {
  method: string
  /** Path without the query string, e.g. /v2/sites/1001/staging. */
  path: string
  query: URLSearchParams
  headers: RequestHeaders
  body: string
}

export interface ApiContext {
  state: SimState
  options: EffectiveOptions
  jobs: Jobs
  /** The answer shapes of the profile in force. */
  shapes: Shapes
  /** The simulator's own origin (staging site URLs live there). */
  origin: string
  lang: Lang
  now: number
  /** From a `taskError` fault: a job started by this request ends in error with this text. */
  taskError: string | null
}
