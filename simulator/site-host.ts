/**
 * The staging sites' own URLs, served by the simulator on its origin under /staging-sites/<id>/
 * (issue 12). Like a CDN before the site exists, a URL answers 404 until its create job has
 * completed and `siteDelayMs` more has passed (DNS and TLS lag); then 200 with a small page that
 * shows the site's content versions. A staging site of a password-protected production site answers
 * 401 (HTTP basic auth). A deleted staging site answers 404 again. Pulls and pushes do not stop a
 * ready site from answering.
 * Production sites have a page too, under /production-sites/<id>/: 503 in maintenance mode, 401
 * while password protected, else 200 with production's content (a push and a restore change it).
 * Option livePage makes a completed push break that page (contract §16): 500 (`down`) or a 200 that
 * is not the site's page (`wrong-page`), until a restore, a push with livePage `ok`, or
 * livePageRecoversMs after the push.
 */
import type { ApiResponse } from './http.js'
import { PRODUCTION_PREFIX, SITES_PREFIX } from './seed.js'
import type { EffectiveOptions, ProductionSite, SimState, StagingSite } from './types.js'

/** True when `pathname` is a staging site's URL or a production page (or under one). */
export function isSitePath(pathname: string): boolean {
  return [SITES_PREFIX, PRODUCTION_PREFIX].some(
    (prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`),
  )
}

/** When staging site `staging` starts answering, or null while its creation has not completed. */
export function liveFrom(staging: StagingSite, siteDelayMs: number): number | null {
  return staging.ready_at === null ? null : staging.ready_at + siteDelayMs
}

/** The answer of a staging site's URL at `now`. */
export function serveSite(
  state: SimState,
  siteDelayMs: number,
  now: number,
  method: string,
  pathname: string,
): ApiResponse {
  const production = pathname.startsWith(PRODUCTION_PREFIX)
  const prefix = production ? PRODUCTION_PREFIX : SITES_PREFIX
  const segment = pathname.slice(prefix.length + 1).split('/')[0] ?? ''
  let id: string
  try {
    id = decodeURIComponent(segment)
  } catch {
    return notFound()
  }
  if (production) return productionPage(state, id, method, now)
  const staging = [...state.staging.values()].find((s) => s.id === id)
  const from = staging ? liveFrom(staging, siteDelayMs) : null
  if (!staging || from === null || now < from) return notFound()
  if (staging.password_protected) {
    return page(401, 'Authentication required', '<h1>401 Authorization Required</h1>', {
      'WWW-Authenticate': 'Basic realm="Password protected staging site"',
    })
  }
  if (method !== 'GET' && method !== 'HEAD') {
    return page(405, 'Method not allowed', '<h1>405 Method Not Allowed</h1>', { Allow: 'GET, HEAD' })
  }
  const body = [
    `<h1>${escape(staging.site_name)}</h1>`,
    `<p>A staging copy of production site ${staging.site_id}.</p>`,
    `<p id="content">files ${escape(staging.content.files)}, database ${escape(staging.content.database)}</p>`,
  ].join('\n')
  return page(200, escape(staging.site_name), body)
}

/** What a push completed at `at` leaves on production's page (option livePage). */
export function brokenPage(options: EffectiveOptions, at: number): ProductionSite['broken_page'] {
  if (options.livePage === 'ok') return null
  const recovers = options.livePageRecoversMs
  return { mode: options.livePage, until: recovers === null ? null : at + recovers }
}

/**
 * A production site's page: maintenance (503) first, then password protection (401), then a page a
 * push broke, then its content.
 */
function productionPage(state: SimState, id: string, method: string, now: number): ApiResponse {
  const site = state.sites.get(id)
  if (!site) return notFound()
  if (site.maintenance) {
    return page(
      503,
      'Maintenance',
      '<h1>Briefly unavailable for scheduled maintenance. Check back in a minute.</h1>',
      { 'Retry-After': '600' },
    )
  }
  if (site.password_protected) {
    return page(401, 'Authentication required', '<h1>401 Authorization Required</h1>', {
      'WWW-Authenticate': 'Basic realm="Password protected site"',
    })
  }
  if (method !== 'GET' && method !== 'HEAD') {
    return page(405, 'Method not allowed', '<h1>405 Method Not Allowed</h1>', { Allow: 'GET, HEAD' })
  }
  const broken = site.broken_page
  if (broken && (broken.until === null || now < broken.until)) {
    return broken.mode === 'down'
      ? page(500, 'Error', '<h1>There has been a critical error on this website.</h1>')
      : page(200, 'Coming soon', '<h1>Coming soon</h1>\n<p>This site is being set up.</p>')
  }
  const body = [
    `<h1>${escape(site.site_name)}</h1>`,
    `<p>Production site ${site.id}.</p>`,
    `<p id="content">files ${escape(site.content.files)}, database ${escape(site.content.database)}</p>`,
  ].join('\n')
  return page(200, escape(site.site_name), body)
}

function notFound(): ApiResponse {
  return page(
    404,
    'Site not found',
    '<h1>404 Site not found</h1>\n<p>No site is served at this address (yet).</p>',
  )
}

function page(
  status: number,
  title: string,
  body: string,
  headers: Record<string, string> = {},
): ApiResponse {
  return {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
    body: `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>\n<body>\n${body}\n</body></html>\n`,
  }
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
