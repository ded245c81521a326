/** The seeded account: its tokens, its sites and the staging site that already exists. */
import type { ProductionSite, SimState, StagingSite } from './types.js'

export const SIM_TOKENS = {
  readWrite: 'sim-rw-token-0123456789abcdef',
  readOnly: 'sim-ro-token-0123456789abcdef',
} as const

/** Where the account's e-mail notifications go. */
export const SIM_ACCOUNT_EMAIL = 'owner@sim.test'

export const SIM_SITES = {
  /** Eligible, no staging environment. */
  eligible: 1001,
  /** Eligible, with a ready staging environment (s-1002). */
  withStaging: 1002,
  /** Eligible, production password protection ON. */
  passwordProtected: 1003,
  /** Plan without staging: create refused with 403. */
  planWithoutStaging: 2001,
  /** WaaS site: create refused with 403. */
  waas: 3001,
  /** Site in a client portal: create refused with 403. */
  clientPortal: 4001,
} as const

/** Ids given to sites created with POST /v2/sites start here. */
export const FIRST_NEW_SITE_ID = 10001

/** A staging site's numeric id (the service profile's) is its production id plus this. */
export const STAGING_NUMERIC_ID_OFFSET = 50000

/** Site version ids (contract §13) start here. */
export const FIRST_VERSION_ID = 7001

/** Task row ids (the service profile's task `id`) start here. */
export const FIRST_TASK_ROW_ID = 148601

/** Where a staging site's own URL lives on the simulator's origin (not under /v2 or /__sim). */
export const SITES_PREFIX = '/staging-sites'

/**
 * Where a production site's page lives on the simulator's origin: its content, 503 in maintenance
 * mode, 401 while password protected (what a push and a restore change, seen from outside).
 */
export const PRODUCTION_PREFIX = '/production-sites'

/** The URL of production site `id`'s page on `origin` (e.g. http://127.0.0.1:PORT/production-sites/1002/). */
export function productionPageUrl(origin: string, id: number): string {
  return `${origin}${PRODUCTION_PREFIX}/${id}/`
}

/** The URL of staging site `id` on `origin` (e.g. http://127.0.0.1:PORT/staging-sites/s-1001/). */
export function stagingUrl(origin: string, id: string): string {
  return `${origin}${SITES_PREFIX}/${encodeURIComponent(id)}/`
}

/** Fixed seed time, so seeded records never change between runs. */
const SEEDED_AT = Date.UTC(2025, 0, 15, 9, 30, 0, 0)

const PRO_PLAN = { name: 'pro', staging: true }

interface SiteSeed {
  id: number
  name: string
  reserved?: boolean
  plan?: { name: string; staging: boolean }
  waas?: boolean
  clientPortal?: { id: number; name: string } | null
  passwordProtected?: boolean
  tags: string[]
}

export function productionSite(seed: SiteSeed, at: number): ProductionSite {
  const host = `${seed.name}.example.test`
  return {
    id: seed.id,
    site_name: seed.name,
    url: `https://${host}`,
    type: 'production',
    reserved: seed.reserved ?? true,
    plan: { ...(seed.plan ?? PRO_PLAN) },
    waas: seed.waas ?? false,
    client_portal: seed.clientPortal ?? null,
    domains: [
      { name: host, primary: true },
      { name: `www.${host}`, primary: false },
    ],
    cdn_zone: { id: `cdn-${seed.id}`, hostname: `cdn-${seed.id}.sim-cdn.test` },
    ssl: { enabled: true, issuer: "Let's Encrypt", expires_at: '2026-01-15 09:30:00' },
    tags: [...seed.tags],
    ssh_keys: [{ id: seed.id * 10 + 1, name: 'deploy', fingerprint: `SHA256:sim-deploy-key-${seed.id}` }],
    settings: { php_version: '8.3', timezone: 'UTC', cache: true, max_upload_mb: 64 },
    password_protected: seed.passwordProtected ?? false,
    maintenance: false,
    broken_page: null,
    ssh_username: `site${seed.id}`,
    ssh_password: `sim-ssh-pass-${seed.id}`,
    content: { files: 'prod-v1', database: 'prod-v1' },
    created_at: at,
    updated_at: at,
  }
}

const SEEDS: SiteSeed[] = [
  { id: SIM_SITES.eligible, name: 'shop', tags: ['shop'] },
  { id: SIM_SITES.withStaging, name: 'blog', tags: ['blog'] },
  {
    id: SIM_SITES.passwordProtected,
    name: 'members',
    passwordProtected: true,
    reserved: false,
    tags: ['members'],
  },
  { id: SIM_SITES.planWithoutStaging, name: 'starter', plan: { name: 'starter', staging: false }, tags: [] },
  { id: SIM_SITES.waas, name: 'waas-client', waas: true, reserved: false, tags: ['waas'] },
  {
    id: SIM_SITES.clientPortal,
    name: 'portal-client',
    clientPortal: { id: 77, name: 'Acme portal' },
    tags: [],
  },
]

/**
 * A new staging site of `site`, ready and serving since `at` (a create job sets `ready_at` to null
 * until it completes). Its URL is on `origin`.
 */
export function stagingSite(site: ProductionSite, at: number, secret: string, origin: string): StagingSite {
  const id = `s-${site.id}`
  return {
    id,
    numeric_id: STAGING_NUMERIC_ID_OFFSET + site.id,
    site_id: site.id,
    site_name: `${site.site_name}-staging`,
    url: stagingUrl(origin, id),
    ssh_username: `staging${site.id}`,
    ssh_password: `sim-ssh-${secret}`,
    wp_password: `sim-wp-${secret}`,
    content: { ...site.content },
    status: 'ready',
    task_id: null,
    ready_at: at,
    password_protected: site.password_protected,
    created_at: at,
    updated_at: at,
  }
}

export function emptyState(): SimState {
  return {
    sites: new Map(),
    staging: new Map(),
    tasks: new Map(),
    outbox: [],
    purges: [],
    toolChanges: [],
    versions: new Map(),
    siteVersions: new Map(),
    nextSiteId: FIRST_NEW_SITE_ID,
    nextTaskRowId: FIRST_TASK_ROW_ID,
    nextVersionId: FIRST_VERSION_ID,
  }
}

/**
 * Empties `state` in place and fills it with the seeded account (references stay valid). Staging
 * site URLs are on `origin`.
 */
export function seedState(state: SimState, origin: string): void {
  state.sites.clear()
  state.staging.clear()
  state.tasks.clear()
  state.outbox.length = 0
  state.purges.length = 0
  state.toolChanges.length = 0
  state.versions.clear()
  state.siteVersions.clear()
  state.nextSiteId = FIRST_NEW_SITE_ID
  state.nextTaskRowId = FIRST_TASK_ROW_ID
  state.nextVersionId = FIRST_VERSION_ID
  state.versionBusySaid = false
  for (const seed of SEEDS) state.sites.set(String(seed.id), productionSite(seed, SEEDED_AT))
  const blog = state.sites.get(String(SIM_SITES.withStaging))
  if (blog) {
    const staging = stagingSite(blog, SEEDED_AT, `seeded-${blog.id}`, origin)
    staging.content = { files: 'staging-v1', database: 'staging-v1' }
    state.staging.set(String(blog.id), staging)
  }
}
