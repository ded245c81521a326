/**
 * A profile is the set of answer shapes the API core speaks. The rules (who may do what, when)
 * live in the routes and are the same for every profile; each function here only says how one
 * outcome looks on the wire. spec.ts: the literal specification; service.ts: the service family's
 * observed shapes (contract §10).
 */
import type { ApiResponse } from '../http.js'
import type { Lang } from '../i18n.js'
import type { RateDecision } from '../ratelimit.js'
import type { EffectiveOptions, ProductionSite, StagingJobKind, StagingSite, Task } from '../types.js'
import type { ViewStyle } from '../views.js'

/** Why a site may not have staging. */
export type Ineligibility = 'plan' | 'waas' | 'client_portal'

/** What was asked while another job runs: a create, a pull or push, a delete. */
export type BusyOp = 'create' | 'sync' | 'delete'
/** What runs: a creation, a deletion, or a pull or push. */
export type BusyReason = 'creating' | 'deleting' | 'sync'

export interface Shapes {
  /** The path before `/v2`: '' (spec) or '/api' (service). */
  prefix: string
  /** Routes are matched (404, 405) before the token is checked (the framework's order). */
  routeFirst: boolean
  /** Whether GET on the staging path is the probe (spec) or not a route at all (service: 405). */
  probeRoute: boolean
  /** HEAD is served like GET and listed beside it in 405 answers (the framework's habit). */
  headAsGet: boolean
  style: ViewStyle
  /** An item of GET /v2/sites, when the profile lists sites its own way (else the spec's views). */
  listItem?(
    record: { production: ProductionSite; staging: StagingSite | undefined } | { staging: StagingSite },
  ): Record<string, unknown>

  unknownRoute(path: string, accept: string | string[] | undefined, lang: Lang): ApiResponse
  methodNotAllowed(method: string, path: string, allowed: readonly string[], lang: Lang): ApiResponse
  unauthenticated(lang: Lang): ApiResponse
  rateLimited(lang: Lang, decision: RateDecision): ApiResponse
  /** Rate-limit headers on an answer that was let through. */
  rateHeaders(decision: RateDecision): Record<string, string>
  readOnly(lang: Lang): ApiResponse
  badRequest(lang: Lang, message: string, errors: Record<string, string[]>): ApiResponse
  siteNotFound(lang: Lang, siteId: string): ApiResponse
  stagingNotFound(lang: Lang, siteId: string): ApiResponse
  taskNotFound(lang: Lang, taskId: string): ApiResponse
  ineligible(lang: Lang, reason: Ineligibility): ApiResponse
  exists(lang: Lang, staging: StagingSite): ApiResponse
  busy(lang: Lang, op: BusyOp, reason: BusyReason, running: string, options: EffectiveOptions): ApiResponse
  createStarted(
    lang: Lang,
    task: Task,
    site: ProductionSite,
    staging: StagingSite,
    options: EffectiveOptions,
  ): ApiResponse
  jobStarted(
    lang: Lang,
    kind: Exclude<StagingJobKind, 'create'>,
    task: Task,
    options: EffectiveOptions,
  ): ApiResponse
  task(lang: Lang, task: Task, percentage: number | null, now: number): ApiResponse

  /** A site job (a version, a restore, contract §13) accepted: `data` as given. */
  siteJobStarted(lang: Lang, message: string, data: Record<string, unknown>): ApiResponse
  /** A field of the body refused (422), e.g. a version name over 25 characters. */
  validation(lang: Lang, field: string, message: string): ApiResponse
  /** A refusal with its own message: a plan gate (403), a quota or a version not completed (422). */
  refused(status: number, lang: Lang, message: string): ApiResponse
  versionNotFound(lang: Lang, versionId: string): ApiResponse
  /** A restore of a version that belongs to another site. */
  versionOfOtherSite(lang: Lang, versionId: string, siteId: string): ApiResponse
  /** A restore while a restore or a push of the site runs. */
  restoreBusy(lang: Lang): ApiResponse

  /** The body of a fault with `status` (and `body: 'json'`). */
  faultJson(status: number, lang: Lang): ApiResponse
  /** The body of a fault with `body: 'echo-token'`: the Authorization value echoed back. */
  echoToken(status: number, lang: Lang, authorization: string): ApiResponse
  /** A 307 of a `redirect` fault. */
  redirect(lang: Lang, location: string): ApiResponse
}
