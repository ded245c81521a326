/** What a v2 route handler gets: the simulator's state and the request, already authenticated. */
import type { IncomingHttpHeaders } from 'node:http'
import type { Lang } from './i18n.js'
import type { Jobs } from './jobs.js'
import type { EffectiveOptions, SimState } from './types.js'

export interface ApiRequest {
  method: string
  /** Path without the query string, e.g. /v2/sites/1001/staging. */
  path: string
  query: URLSearchParams
  headers: IncomingHttpHeaders
  body: string
}

export interface ApiContext {
  state: SimState
  options: EffectiveOptions
  jobs: Jobs
  lang: Lang
  now: number
  /** From a `taskError` fault: a job started by this request ends in error with this text. */
  taskError: string | null
}
