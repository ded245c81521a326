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

/** A staging site as a finished create leaves it (content is filled in by the caller). */
export function stagingSite(site: ProductionSite, at: number, secret: string): StagingSite {
  return {
    id: `s-${site.id}`,
    site_id: site.id,
    site_name: `${site.site_name}-staging`,
    url: `https://staging-${site.id}.sim.test`,
    ssh_username: `staging${site.id}`,
    ssh_password: `sim-ssh-${secret}`,
    wp_password: `sim-wp-${secret}`,
    content: { ...site.content },
    status: 'ready',
    task_id: null,
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
    versions: new Map(),
    nextSiteId: FIRST_NEW_SITE_ID,
  }
}

/** Empties `state` in place and fills it with the seeded account (references stay valid). */
export function seedState(state: SimState): void {
  state.sites.clear()
  state.staging.clear()
  state.tasks.clear()
  state.outbox.length = 0
  state.purges.length = 0
  state.versions.clear()
  state.nextSiteId = FIRST_NEW_SITE_ID
  for (const seed of SEEDS) state.sites.set(String(seed.id), productionSite(seed, SEEDED_AT))
  const blog = state.sites.get(String(SIM_SITES.withStaging))
  if (blog) {
    const staging = stagingSite(blog, SEEDED_AT, `seeded-${blog.id}`)
    staging.content = { files: 'staging-v1', database: 'staging-v1' }
    state.staging.set(String(blog.id), staging)
  }
}
