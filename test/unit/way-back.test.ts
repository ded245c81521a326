import { describe, expect, it } from '@jest/globals'
import { addVersion } from '../../simulator/routes/versions.js'
import { SIM_TOKENS, productionPageUrl, stagingSite } from '../../simulator/seed.js'
import { CancelledError } from '../../src/clock.js'
import { parseConfig } from '../../src/inputs/index.js'
import { runOperation } from '../../src/staging/operations.js'
import type { SiteGet } from '../../src/staging/url-check.js'
import { MemoryLogger, redactor } from '../helpers/fakes.js'
import { EACH_PROFILE, FAST, RW, sentTo } from '../helpers/sim.js'
import { VirtualFaultSim, runActionVirtually, useVirtualSimulator } from '../helpers/virtual-action.js'

/** Every restore sent (`sentTo` matches a path's end; a restore's ends with its version). */
const restores = (s: VirtualFaultSim) =>
  s.requests.filter((r) => r.method === 'PUT' && r.path.includes('/restore-versions/'))
/** Production's own page on the simulator `s` (production-url). */
const liveOf = (s: VirtualFaultSim) => productionPageUrl(new URL(s.apiUrl).origin, 1002)

/**
 * A push on site 1002 (or what `inputs` say) run by runOperation and cancelled: at `atMs`, or when
 * production's page is first asked for.
 */
async function runCancelled(s: VirtualFaultSim, inputs: Record<string, string>, atMs?: number) {
  const controller = new AbortController()
  const siteGet: SiteGet = async () => {
    controller.abort()
    throw new CancelledError()
  }
  if (atMs !== undefined) void s.clock.sleep(atMs).then(() => controller.abort())
  const config = parseConfig({
    operation: 'push',
    'site-id': '1002',
    'api-url': s.apiUrl,
    'api-token': RW,
    ...inputs,
  })
  const deps = { clock: s.clock, logger: new MemoryLogger(), redactor: redactor(), signal: controller.signal }
  return s.clock.run(runOperation(config, '1002', { ...deps, transport: s.transport(), siteGet }))
}

/** Whether the run switched production's password protection on (contract §14). */
const protectionOn = (s: VirtualFaultSim) =>
  s.state.toolChanges.some((c) => c.tool === 'password_protection' && c.value === 'on' && c.source === 'api')

// Issue 31 end to end, on both profiles: the way back holds when the version list is not filtered,
// is paged, answers busy, names a person's version, and when a restore fails half-way.
describe.each(EACH_PROFILE)('profile %s', (profile, shape) => {
  const { sim } = useVirtualSimulator({
    ...FAST,
    profile,
    durationsMs: { ...FAST.durationsMs, version: 300, restore: 300 },
  })
  const idOf = (n: number) => (profile === 'spec' ? `v-${n}` : String(n))
  /** A version of `site` seeded at once (a person's, another site's, or one of ours). */
  const seed = (site: string, name: string, at: number) =>
    addVersion({ state: sim().state, now: at }, sim().state.sites.get(site)!, 'completed', name)

  it("an unfiltered list: another site's checkpoint is never restored, pruned or counted", async () => {
    sim().setOptions({ versions: 'unfiltered' })
    const others = [1, 2, 3].map((i) => seed('1001', `ssa~cp~other${i}`, Date.now() + i * 1000))
    const push = await runActionVirtually(sim(), {
      operation: 'push',
      'site-id': '1002',
      'keep-checkpoints': '1',
    })
    expect(push.outputs.result).toBe('succeeded')
    for (const v of others) expect(sim().state.siteVersions.has(v.id)).toBe(true)
    const back = await runActionVirtually(sim(), { operation: 'rollback', 'site-id': '1002' })
    expect(back.outputs.result).toBe('succeeded')
    expect(back.outputs['checkpoint-id']).toBe(push.outputs['checkpoint-id'])
    expect(sentTo(sim(), 'PUT', '/restore-versions/' + idOf(others[0]!.id))).toHaveLength(0)
  })

  it('a paged list: a checkpoint on page 2 is restored by its id, and the newest is found', async () => {
    sim().setOptions({ versions: 'paged' })
    const old = seed('1002', 'ssa~cp~old', Date.now() - 60_000)
    seed('1002', 'ssa~cp~mid', Date.now() - 30_000)
    seed('1002', 'a person', Date.now() - 20_000)
    const byId = await runActionVirtually(sim(), {
      operation: 'rollback',
      'site-id': '1002',
      'checkpoint-id': idOf(old.id),
    })
    expect(byId.outputs.result).toBe('succeeded')
    expect(sentTo(sim(), 'PUT', `/restore-versions/${idOf(old.id)}`)).toHaveLength(1)
  })

  it('a list oldest first: the newest checkpoint by its date is restored, and the oldest are pruned', async () => {
    sim().setOptions({ versions: 'oldest-first' })
    const ours = ['a', 'b', 'c'].map((n, i) => seed('1002', `ssa~cp~${n}`, Date.now() - 60_000 + i * 20_000))
    const back = await runActionVirtually(sim(), { operation: 'rollback', 'site-id': '1002' })
    expect(back.outputs.result).toBe('succeeded')
    expect(back.outputs['checkpoint-id']).toBe(idOf(ours[2]!.id))
    expect(back.stdout).toMatch(/versions were not listed newest first: ordered by their own dates/)
    const push = await runActionVirtually(sim(), {
      operation: 'push',
      'site-id': '1002',
      'keep-checkpoints': '2',
    })
    expect(push.outputs.result).toBe('succeeded')
    // Kept: the checkpoint just made and the newest before it (c); a and b, the oldest, deleted.
    expect(ours.map((v) => sim().state.siteVersions.has(v.id))).toEqual([false, false, true])
    expect(sim().state.siteVersions.has(Number(push.outputs['checkpoint-id']!.replace('v-', '')))).toBe(true)
  })

  it('a list oldest first with a page not read: no checkpoint is restored without its id', async () => {
    sim().setOptions({ versions: 'oldest-first' })
    for (const n of [1, 2, 3]) seed('1002', `ssa~cp~n${n}`, Date.now() - 60_000 + n * 10_000)
    sim().addFault({ method: 'GET', path: 'page=2', status: 500, times: 10 })
    const back = await runActionVirtually(sim(), { operation: 'rollback', 'site-id': '1002' })
    expect(back.outputs.result).toBe('failed')
    expect(restores(sim())).toHaveLength(0)
    expect(back.stdout).toMatch(
      /which of site 1002's checkpoints is the newest is not known: the list was not newest first and was not read whole \(1 page\(s\) not read: /,
    )
  })

  it('the prune counts and deletes only completed checkpoints: a failed one never keeps a restorable one from being kept', async () => {
    const b = seed('1002', 'ssa~cp~b', Date.now() - 60_000)
    const failed = addVersion(
      { state: sim().state, now: Date.now() - 30_000 },
      sim().state.sites.get('1002')!,
      'failed',
      'ssa~cp~f',
    )
    const push = await runActionVirtually(sim(), {
      operation: 'push',
      'site-id': '1002',
      'keep-checkpoints': '2',
    })
    expect(push.outputs.result).toBe('succeeded')
    expect(sim().state.siteVersions.has(b.id)).toBe(true)
    expect(sim().state.siteVersions.has(failed.id)).toBe(true)
    expect(sentTo(sim(), 'DELETE', '/site-versions')).toHaveLength(0)
  })

  /** Site 1002's checkpoint, whose first restore is refused as busy; the rollback run with `ifBusy`. */
  const busyRestore = async (ifBusy: string) => {
    const v = seed('1002', 'ssa~cp~x', Date.now())
    const json = { status: false, message: 'A restore is already in progress, please wait until it finishes' }
    sim().addFault({ method: 'PUT', path: '/restore-versions/', status: shape.busy, json })
    return {
      v,
      run: await runActionVirtually(sim(), { operation: 'rollback', 'site-id': '1002', 'if-busy': ifBusy }),
    }
  }

  it('a busy restore is waited out under if-busy: wait, then sent once more', async () => {
    const { v, run } = await busyRestore('wait')
    expect(run.outputs.result).toBe('succeeded')
    expect(sentTo(sim(), 'PUT', `/restore-versions/${idOf(v.id)}`)).toHaveLength(2)
    expect(run.stdout).toMatch(/sending the restore again in/)
  })

  it('a refused restore is not "the restored version": the output is empty and production unchanged', async () => {
    const { run } = await busyRestore('fail')
    expect(run.outputs.result).toBe('failed')
    expect(run.summary).not.toMatch(/Restored version/)
    expect(run.outputs['checkpoint-id']).toBe('')
  })

  it('a checkpoint with no task id is followed in the whole version list: on page 2 of a list oldest first', async () => {
    sim().setOptions({ versions: 'oldest-first' })
    seed('1002', 'a person', Date.now() - 60_000)
    seed('1002', 'another', Date.now() - 50_000)
    sim().addFault({ method: 'POST', path: '/site-versions', patch: { data: { task_id: null } } })
    const push = await runActionVirtually(sim(), { operation: 'push', 'site-id': '1002' })
    expect(push.outputs.result).toBe('succeeded')
    expect(sentTo(sim(), 'POST', '/staging/push')).toHaveLength(1)
  })

  it('a checkpoint whose answer names another site is no way back: no push, nothing restored', async () => {
    sim().addFault({ method: 'POST', path: '/site-versions', patch: { data: { site_id: 1001 } } })
    const push = await runActionVirtually(sim(), {
      operation: 'push',
      'site-id': '1002',
      'rollback-on-failure': 'true',
    })
    expect(push.outputs.result).toBe('failed')
    expect(push.outputs['checkpoint-id']).toBe('')
    expect(sentTo(sim(), 'POST', '/staging/push')).toHaveLength(0)
    expect(restores(sim())).toHaveLength(0)
    expect(push.stdout).toMatch(/names version \S+ of site 1001, not of site 1002.*The push was not sent/)
  })

  it('a checkpoint with no task id whose listed record names another site is never taken as completed', async () => {
    sim().addFault({ method: 'POST', path: '/site-versions', patch: { data: { task_id: null } } })
    // Every list answer names the version about to be made, completed, as site 1001's.
    const next = sim().state.nextVersionId
    const record = {
      id: idOf(next),
      site_id: 1001,
      name: 'ssa~cp~x',
      status: 0,
      created_at: '2026-01-01 00:00:00',
    }
    sim().addFault({ method: 'GET', path: '/site-versions?', times: Infinity, patch: { data: [record] } })
    const push = await runActionVirtually(sim(), { operation: 'push', 'site-id': '1002', timeout: '20s' })
    expect(push.outputs.result).not.toBe('succeeded')
    expect(sentTo(sim(), 'POST', '/staging/push')).toHaveLength(0)
  })

  it('a version whose status is the number 0 is completed (contract §2), in the list as in a task', async () => {
    const v = seed('1002', 'ssa~cp~x', Date.now())
    const id = profile === 'spec' ? idOf(v.id) : v.id
    const record = { id, site_id: 1002, name: 'ssa~cp~x', status: 0, created_at: '2026-01-01 00:00:00.000' }
    sim().addFault({ method: 'GET', path: '/site-versions?', times: Infinity, patch: { data: [record] } })
    const back = await runActionVirtually(sim(), { operation: 'rollback', 'site-id': '1002' })
    expect(back.outputs.result).toBe('succeeded')
    expect(sentTo(sim(), 'PUT', `/restore-versions/${idOf(v.id)}`)).toHaveLength(1)
  })

  it('a busy 422 on the version create is waited out: no checkpoint deleted, then the push', async () => {
    sim().setOptions({ versions: 'busy-once' })
    seed('1002', 'ssa~cp~a', Date.now() - 3000)
    seed('1002', 'ssa~cp~b', Date.now() - 2000)
    seed('1002', 'ssa~cp~c', Date.now() - 1000)
    const run = await runActionVirtually(sim(), { operation: 'push', 'site-id': '1002', 'if-busy': 'wait' })
    expect(run.outputs.result).toBe('succeeded')
    const creates = sentTo(sim(), 'POST', '/site-versions')
    expect(creates.map((r) => r.status)[0]).toBe(422)
    expect(creates).toHaveLength(2)
    // Nothing is deleted to make room: the only DELETE is the prune after the push (keep 3).
    const order = sim().requests.map((r) => `${r.method} ${r.path.split('?')[0]}`)
    const pushAt = order.findIndex((x) => x.startsWith('POST') && x.endsWith('/staging/push'))
    expect(pushAt).toBeGreaterThan(0)
    expect(order.slice(0, pushAt).filter((x) => x.startsWith('DELETE'))).toEqual([])
    expect(sentTo(sim(), 'POST', '/staging/push')).toHaveLength(1)
  })

  it('a site id written with a leading zero (01002) is the same site: its own checkpoint is chosen', async () => {
    const record = {
      id: 77,
      site_id: 1002,
      name: 'ssa~cp~zero',
      status: 'completed',
      created_at: '2026-01-01 00:00:00',
    }
    const page = { data: [record], meta: { current_page: 1, last_page: 1 } }
    sim().addFault({ method: 'GET', path: '/site-versions?', json: page, times: Infinity })
    const run = await runActionVirtually(sim(), { operation: 'rollback', 'site-id': '01002' })
    expect(run.stdout).not.toMatch(/versions? of other sites/)
    expect(sentTo(sim(), 'PUT', '/restore-versions/77')).toHaveLength(1)
  })

  // One task id for two jobs of one site (contract §3): the push's or the restore's end is not the checkpoint's.
  const sameTask = (on: { method: string; path: string }) => {
    const done = { status: true, data: { task_id: 'same1', status: 'completed', percentage_complete: 100 } }
    sim().addFault({ method: 'GET', path: '/tasks/same1/status', times: Infinity, json: done })
    for (const f of [{ method: 'POST', path: '/site-versions' }, on])
      sim().addFault({ ...f, times: Infinity, patch: { data: { task_id: 'same1' } } })
  }
  it("a push answered with its checkpoint's task id is not green, and protection waits for the push", async () => {
    sameTask({ method: 'POST', path: '/staging/push' })
    const run = await runActionVirtually(sim(), {
      operation: 'push',
      'site-id': '1002',
      'protect-production': 'true',
    })
    expect(run.outputs.result).not.toBe('succeeded')
    expect(run.stdout).toMatch(/task same1 was also given for this site's checkpoint job/)
    expect(protectionOn(sim())).toBe(false)
  })
  it("a restore answered with the checkpoint's task id is not said to have restored production", async () => {
    sim().setOptions({ livePage: 'down' })
    sameTask({ method: 'PUT', path: '/restore-versions/' })
    const live = productionPageUrl(new URL(sim().apiUrl).origin, 1002)
    const inputs = { 'production-url': live, 'verify-timeout': '30', 'rollback-on-failure': 'true' }
    const run = await runActionVirtually(sim(), { operation: 'push', 'site-id': '1002', ...inputs })
    expect(restores(sim())).toHaveLength(1)
    expect(run.stdout).not.toMatch(/Production was restored/)
    expect(run.stdout).toMatch(/Whether production was restored to version \S+ is unknown/)
  })

  it('rollback-on-failure: a checkpoint id whose listed record names another site is never restored', async () => {
    sim().setOptions({ versions: 'unfiltered', livePage: 'down' })
    const other = seed('1001', 'nightly', Date.now() - 60_000)
    sim().addFault({ method: 'POST', path: '/site-versions', patch: { data: { id: idOf(other.id) } } })
    const live = productionPageUrl(new URL(sim().apiUrl).origin, 1002)
    const inputs = { 'production-url': live, 'verify-timeout': '30', 'rollback-on-failure': 'true' }
    const run = await runActionVirtually(sim(), { operation: 'push', 'site-id': '1002', ...inputs })
    expect(run.outputs.result).toBe('failed')
    expect(restores(sim())).toHaveLength(0)
    expect(run.stdout).toMatch(/not restored: the record of version \S+ names another site/)
  })

  it('rollback-on-failure: a version list read that uses the time left sends no restore that could not be followed', async () => {
    sim().setOptions({ livePage: 'down' })
    sim().setOptions({ durationsMs: { ...FAST.durationsMs, version: 20_000, restore: 20_000 } })
    sim().addFault({ method: 'GET', path: '/site-versions?', status: 503, latencyMs: 12_000, times: 3 })
    const live = productionPageUrl(new URL(sim().apiUrl).origin, 1002)
    const inputs = {
      'production-url': live,
      'verify-timeout': '10s',
      'rollback-on-failure': 'true',
      timeout: '84s',
    }
    const run = await runActionVirtually(sim(), { operation: 'push', 'site-id': '1002', ...inputs })
    expect(run.outputs.result).toBe('failed')
    expect(restores(sim())).toHaveLength(0)
    expect(run.stdout).toMatch(/rollback-on-failure: not restored: no time left to follow a restore/)
  })

  it("a person's version named like ours is never restored without its id", async () => {
    seed('1002', 'before push redesign', Date.now())
    const run = await runActionVirtually(sim(), { operation: 'rollback', 'site-id': '1002' })
    expect(run.outputs.result).toBe('failed')
    expect(restores(sim())).toHaveLength(0)
    expect(run.stdout).toMatch(/no completed checkpoint made by this tool/)
  })

  it('a restore that fails half-way says production may be partly restored, and the step that tries again', async () => {
    sim().setOptions({ versions: 'restore-half' })
    const v = seed('1002', 'ssa~cp~x', Date.now())
    v.content = { files: 'old-files', database: 'old-db' }
    const run = await runActionVirtually(sim(), { operation: 'rollback', 'site-id': '1002' })
    expect(run.outputs.result).toBe('failed')
    expect(sim().state.sites.get('1002')!.content.files).toBe('old-files')
    expect(sim().state.sites.get('1002')!.content.database).not.toBe('old-db')
    expect(run.summary).toMatch(/production may be partly restored/)
    expect(run.summary).toMatch(new RegExp(`to try the restore again, .*checkpoint-id: ${idOf(v.id)}`))
    expect(run.summary).not.toMatch(/\.\./)
  })

  it('a read-only token refused on the checkpoint is told as a token problem, not as the plan', async () => {
    const run = await runActionVirtually(sim(), {
      operation: 'push',
      'site-id': '1002',
      'api-token': SIM_TOKENS.readOnly,
    })
    expect(run.outputs.result).toBe('failed')
    expect(sentTo(sim(), 'POST', '/staging/push')).toHaveLength(0)
    expect(run.stdout).toMatch(/read-only token/)
    expect(run.stdout).not.toMatch(/Upgrade the plan/)
  })
})

describe.each(EACH_PROFILE)('production-url after a push, profile %s', (profile) => {
  const { sim } = useVirtualSimulator({
    ...FAST,
    profile,
    durationsMs: { ...FAST.durationsMs, version: 300, restore: 300 },
  })
  const live = () => productionPageUrl(new URL(sim().apiUrl).origin, 1002)

  it('with production-expect, an address that only redirects: no verdict, nothing restored, not green', async () => {
    const config = parseConfig({
      operation: 'push',
      'site-id': '1002',
      'api-url': sim().apiUrl,
      'api-token': RW,
      'production-url': live(),
      'production-expect': 'My Site',
      'rollback-on-failure': 'true',
    })
    const siteGet: SiteGet = async () => ({ status: 301 }) // a canonical slash: the page itself is healthy
    const deps = { clock: sim().clock, logger: new MemoryLogger(), redactor: redactor() }
    const result = await sim().clock.run(
      runOperation(config, '1002', { ...deps, transport: sim().transport(), siteGet }),
    )
    expect(result.result).toBe('failed')
    expect(restores(sim())).toHaveLength(0)
    expect(result.productionCheck).toBeNull()
    expect(result.error?.hint).toMatch(
      /not looked for on a redirect: set production-url to the final address/,
    )
  })

  it('maintenance with production-url: maintenance is off before the check, and the push succeeds', async () => {
    const run = await runActionVirtually(sim(), {
      operation: 'push',
      'site-id': '1002',
      maintenance: 'true',
      'production-url': live(),
    })
    expect(run.outputs.result).toBe('succeeded')
    expect(run.outputs['production-check']).toBe('passed')
    expect(sim().state.sites.get('1002')!.maintenance).toBe(false)
  })

  it('a check that fails: red, the last answer said; with rollback-on-failure the checkpoint restored once and checked again', async () => {
    sim().setOptions({ livePage: 'down' })
    const without = await runActionVirtually(sim(), {
      operation: 'push',
      'site-id': '1002',
      'production-url': live(),
      'verify-timeout': '60',
    })
    expect(without.outputs.result).toBe('failed')
    expect(without.outputs['production-check']).toBe('failed')
    expect(without.stdout).toMatch(/Production FAILED its check at .*: HTTP 500/)
    expect(without.stdout).toMatch(/To restore production as it was before the push, .*checkpoint-id: /)
    const restores = () =>
      sim().requests.filter((r) => r.method === 'PUT' && r.path.includes('/restore-versions/'))
    expect(restores()).toHaveLength(0)
    const withRollback = await runActionVirtually(sim(), {
      operation: 'push',
      'site-id': '1002',
      'production-url': live(),
      'verify-timeout': '60',
      'rollback-on-failure': 'true',
      timeout: '5m',
    })
    expect(withRollback.outputs.result).toBe('failed')
    expect(restores()).toHaveLength(1)
    expect(withRollback.outputs['production-check']).toBe('failed')
    expect(withRollback.stdout).toMatch(
      /Production FAILED its check at .*: HTTP 500\. Production was restored to version \S+\. After the restore, production passes its check: HTTP 200\./,
    )
  })
})

describe.each(EACH_PROFILE)('after a completed push, profile %s', (profile) => {
  const { sim } = useVirtualSimulator({
    ...FAST,
    profile,
    durationsMs: { ...FAST.durationsMs, version: 300, restore: 300 },
  })
  const live = () => productionPageUrl(new URL(sim().apiUrl).origin, 1002)

  it('a check that runs to the timeout restores nothing (no time to follow it), and protection goes on again', async () => {
    const s = sim()
    const hung: SiteGet = async (_url, timeoutMs, signal) => {
      await s.clock.sleep(timeoutMs, signal)
      throw Object.assign(new Error('no answer'), { code: 'ETIMEDOUT' })
    }
    Object.defineProperty(s, 'siteGet', { value: hung })
    const run = await runActionVirtually(s, {
      operation: 'push',
      'site-id': '1002',
      'production-url': live(),
      'rollback-on-failure': 'true',
      'protect-production': 'true',
      timeout: '50s',
    })
    expect(run.outputs.result).toBe('failed')
    expect(restores(s)).toHaveLength(0)
    expect(run.stdout).toMatch(/rollback-on-failure: not restored: no time left to follow a restore/)
    expect(run.summary).not.toMatch(/restore was sent|partly restored/)
    expect(protectionOn(s)).toBe(true)
  })

  it('not stopped: protection on gets its own cleanup window after a slow maintenance off, and after a long check', async () => {
    sim().setOptions({ livePage: 'down', livePageRecoversMs: 20_000 })
    sim().addFault({ method: 'POST', path: '/tools', latencyMs: 1 }) // maintenance on
    sim().addFault({ method: 'POST', path: '/tools', latencyMs: 3500 }) // maintenance off
    sim().addFault({ method: 'POST', path: '/tools', latencyMs: 2000 }) // protection on
    const run = await runActionVirtually(sim(), {
      operation: 'push',
      'site-id': '1002',
      maintenance: 'true',
      'protect-production': 'true',
      'production-url': live(),
    })
    expect(run.outputs).toMatchObject({ result: 'succeeded', 'production-check': 'passed' })
    expect(protectionOn(sim())).toBe(true)
  })

  it('one bad answer with the timeout near is not a verdict to restore on', async () => {
    sim().setOptions({ livePage: 'down', livePageRecoversMs: 20_000 })
    await runActionVirtually(sim(), {
      operation: 'push',
      'site-id': '1002',
      'production-url': live(),
      'rollback-on-failure': 'true',
      timeout: '3s',
    })
    expect(restores(sim())).toHaveLength(0)
  })

  it('a restore with no answer after a failed check: protection still goes on, and the push is not called unknown', async () => {
    sim().setOptions({ livePage: 'down' })
    sim().addFault({ method: 'PUT', path: '/restore-versions/', drop: 'after' })
    const run = await runActionVirtually(sim(), {
      operation: 'push',
      'site-id': '1002',
      'production-url': live(),
      'rollback-on-failure': 'true',
      'protect-production': 'true',
      'verify-timeout': '20s',
    })
    expect(restores(sim())).toHaveLength(1)
    expect(run.stdout).not.toMatch(/the push's end is not known/)
    expect(protectionOn(sim())).toBe(true)
  })

  it('no time left to check production: not green', async () => {
    sim().setOptions({ livePage: 'down', durationsMs: { ...FAST.durationsMs, version: 300, push: 20_000 } })
    sim().addFault({ method: 'POST', path: '/sites/1002/tools', patch: {} })
    sim().addFault({ method: 'POST', path: '/sites/1002/tools', latencyMs: 1500 })
    const run = await runActionVirtually(sim(), {
      operation: 'push',
      'site-id': '1002',
      'production-url': live(),
      maintenance: 'true',
      timeout: '22s',
    })
    expect(sim().siteRequests).toHaveLength(0)
    expect(run.outputs.result).toBe('timed-out')
    expect(run.stdout).toMatch(/The timeout was reached before production could be checked/)
  })

  it('maintenance mode not switched off: its page is not checked as production, nothing restored, no rollback advised', async () => {
    sim().addFault({ method: 'POST', path: '/sites/1002/tools', patch: {} })
    const json = { status: false, message: 'Could not switch' }
    sim().addFault({ method: 'POST', path: '/sites/1002/tools', json })
    const run = await runActionVirtually(sim(), {
      operation: 'push',
      'site-id': '1002',
      maintenance: 'true',
      'production-url': live(),
      'rollback-on-failure': 'true',
      timeout: '15m',
    })
    expect(sim().siteRequests).toHaveLength(0) // the live page was not asked
    expect(restores(sim())).toHaveLength(0)
    expect(run.outputs).toMatchObject({ 'production-check': '' })
    expect(run.stdout).not.toMatch(/FAILED its check|To restore production as it was before the push/)
    expect(run.stdout).toMatch(/still in maintenance mode: switching it off failed/)
    expect(run.stdout).toMatch(/production-url: production was not checked: maintenance mode may still be on/)
    // Production left on its maintenance page is not green, and no way back is pruned.
    expect(run.outputs.result).toBe('failed')
    expect(run.stdout).toMatch(/Check production in the dashboard: switch maintenance mode off\./)
    expect(sentTo(sim(), 'DELETE', '/site-versions')).toHaveLength(0)
  })

  it('a failed check with less time left than the checkpoint took: no restore that could not be followed', async () => {
    sim().setOptions({ livePage: 'down', durationsMs: { ...FAST.durationsMs, version: 5000, restore: 5000 } })
    const run = await runActionVirtually(sim(), {
      operation: 'push',
      'site-id': '1002',
      'production-url': live(),
      'verify-timeout': '20s',
      'rollback-on-failure': 'true',
      timeout: '30s',
    })
    expect(run.outputs.result).toBe('failed')
    expect(restores(sim())).toHaveLength(0)
    expect(run.stdout).toMatch(/rollback-on-failure: not restored: no time left to follow a restore/)
    expect(run.summary).not.toMatch(/partly restored/)
  })

  it('a failed push whose protection could not be switched back on says so once, not also "may have"', async () => {
    sim().addFault({ method: 'POST', path: '/staging/push', taskError: 'rsync failed' })
    const json = { status: false, message: 'Could not switch' }
    sim().addFault({ method: 'POST', path: '/sites/1002/tools', json })
    const run = await runActionVirtually(sim(), {
      operation: 'push',
      'site-id': '1002',
      'protect-production': 'true',
    })
    expect(run.outputs.result).toBe('failed')
    expect(run.stdout).toMatch(/is now NOT password-protected: switching protection back on failed/)
    expect(run.stdout).not.toMatch(/may have switched that protection off/)
  })

  it('cancelled while production is checked: protection still goes on again', async () => {
    const s = new VirtualFaultSim({ ...FAST, profile, durationsMs: { ...FAST.durationsMs, version: 300 } })
    const result = await runCancelled(s, { 'production-url': liveOf(s), 'protect-production': 'true' })
    expect(result.result).toBe('cancelled')
    expect(result.summary).toMatch(/The push job had completed/)
    expect(protectionOn(s)).toBe(true)
  })

  it('cancelled while restoring after a push job that failed: cancelled, and the push is not said to keep running', async () => {
    const s = new VirtualFaultSim({ ...FAST, profile, durationsMs: { ...FAST.durationsMs, restore: 15_000 } })
    s.addFault({ method: 'POST', path: '/staging/push', taskError: 'disk full' })
    const result = await runCancelled(s, { 'rollback-on-failure': 'true' }, 7000)
    expect(restores(s)).toHaveLength(1)
    expect(result.result).toBe('cancelled')
    expect(result.summary).toMatch(/The push job had ended: it failed on the server\./)
    expect(result.summary).not.toMatch(/push job the server accepted may still be running/)
  })

  it('cancelled after the push ended: maintenance off and protection on share one cleanup window, and the run reports', async () => {
    const s = new VirtualFaultSim({ ...FAST, profile })
    s.addFault({ method: 'POST', path: '/tools', latencyMs: 1 }) // maintenance on
    s.addFault({ method: 'POST', path: '/tools', latencyMs: 3500 }) // maintenance off: slow
    s.addFault({ method: 'POST', path: '/tools', hang: true }) // protection on: no answer
    const started = s.clock.now()
    // Cancelled at 4 s, while maintenance off (sent at about 3.2 s) waits for its answer.
    const result = await runCancelled(s, { maintenance: 'true', 'protect-production': 'true' }, 4000)
    expect(s.requests.filter((r) => r.path.endsWith('/tools'))).toHaveLength(3)
    // src/cancel.ts exits 5 s after the signal: both toggles (and the report) end well before.
    expect(s.clock.now() - started).toBeLessThanOrEqual(4000 + 4000)
    // The push completed, but production may not be protected again: not green.
    expect(result.result).toBe('failed')
    expect(result.error?.hint).toMatch(/turn password protection on/)
    expect(result.warnings.join(' ')).toMatch(
      /may not be password-protected: whether switching protection back on went through is not known/,
    )
  })

  it('cancelled after the push ended, while protection goes on again: cancelled, not green, and the step named', async () => {
    const s = new VirtualFaultSim({ ...FAST, profile })
    s.addFault({ method: 'POST', path: '/tools', latencyMs: 3000 }) // protection on: slow, but answered
    const result = await runCancelled(s, { 'protect-production': 'true' }, 4000)
    expect(protectionOn(s)).toBe(true)
    expect(result.result).toBe('cancelled')
    expect(result.summary).toMatch(/Cancelled while switching password protection on\./)
  })

  it("cancelled while the push runs: the summary's list of what was sent has maintenance off, sent after the cancel", async () => {
    const s = new VirtualFaultSim({
      ...FAST,
      profile,
      durationsMs: { ...FAST.durationsMs, version: 300, push: 20_000 },
    })
    const result = await runCancelled(s, { maintenance: 'true' }, 3000)
    expect(result.result).toBe('cancelled')
    expect(s.requests.filter((r) => r.path.endsWith('/tools'))).toHaveLength(2)
    expect(result.sent.filter((x) => x.includes('/tools'))).toHaveLength(2)
    expect(result.summary.match(/POST \S*\/tools/g)).toHaveLength(2)
  })

  it('cancelled while the push request had no answer: the push warnings, in their "if it went through" form', async () => {
    const s = new VirtualFaultSim({ ...FAST, profile, durationsMs: { ...FAST.durationsMs, version: 300 } })
    s.addFault({ method: 'POST', path: '/staging/push', hang: true, process: true })
    const result = await runCancelled(s, {}, 4000)
    expect(result.result).toBe('cancelled')
    expect(result.warnings.join(' ')).toMatch(/If the push went through/)
  })
})

describe('a request whose earlier try got no answer', () => {
  it('is not "not taken" because a later try was refused 429: the pull may have started', async () => {
    const s = new VirtualFaultSim({ ...FAST, durationsMs: { ...FAST.durationsMs, pull: 60_000 } })
    s.addFault({ method: 'POST', path: '/staging/reset', drop: 'after' })
    s.addFault({ method: 'POST', path: '/staging/reset', status: 429, retryAfter: 20 })
    const result = await runCancelled(s, { operation: 'pull' }, 8000)
    expect(result.result).toBe('cancelled')
    expect(result.summary).not.toMatch(/not taken|was not refreshed/)
  })

  it('stays unknown across busy waits: a pull whose first try got no answer is never "not taken"', async () => {
    const s = new VirtualFaultSim({ ...FAST, durationsMs: { ...FAST.durationsMs, pull: 120_000 } })
    s.addFault({ method: 'POST', path: '/staging/reset', drop: 'after' })
    const result = await runCancelled(s, { operation: 'pull' }, 25_000)
    expect(result.result).toBe('cancelled')
    expect(result.summary).not.toMatch(/not taken|was not refreshed/)
  })

  it('a checkpoint sent again after a busy wait is named as the step it is', async () => {
    const s = new VirtualFaultSim({ ...FAST })
    const json = { status: false, message: 'A version is already in progress, please wait until it finishes' }
    s.addFault({ method: 'POST', path: '/site-versions', status: 409, json })
    s.addFault({ method: 'POST', path: '/site-versions', hang: true, process: true })
    const result = await runCancelled(s, {}, 5000)
    expect(result.summary).toMatch(/^Cancelled while making the checkpoint/)
  })

  it.each(EACH_PROFILE)(
    'recreate (%s): a create whose try got no answer, then "exists" or busy, went through',
    async (profile) => {
      const s = new VirtualFaultSim({ ...FAST, profile })
      s.addFault({ method: 'POST', path: /sites\/1002\/staging$/, patch: {} })
      s.addFault({ method: 'POST', path: /sites\/1002\/staging$/, drop: 'after' })
      const run = await runActionVirtually(s, {
        operation: 'create',
        'site-id': '1002',
        'if-exists': 'recreate',
      })
      expect(['succeeded', 'accepted']).toContain(run.outputs.result)
      expect(run.stdout).toMatch(/after a try whose outcome was unknown: that first try went through/)
      expect(sentTo(s, 'DELETE', '/staging')).toHaveLength(1)
    },
  )
})

describe('maintenance mode on, stopped before its request left', () => {
  const { sim } = useVirtualSimulator({ ...FAST, durationsMs: { ...FAST.durationsMs, version: 300 } })
  it('is not said to be maybe still on, and nothing is switched', async () => {
    sim().setOptions({ rateLimit: { limit: 3, windowMs: 600_000 } })
    const run = await runActionVirtually(sim(), {
      operation: 'push',
      'site-id': '1002',
      maintenance: 'true',
      timeout: '30s',
    })
    expect(run.outputs.result).toBe('timed-out')
    expect(sentTo(sim(), 'POST', '/tools')).toHaveLength(0)
    expect(run.stdout).not.toMatch(/may still be in maintenance mode/)
    expect(run.stdout).toMatch(/The push was not sent: production is unchanged/)
  })
})

describe('a stop the rate limit forces before the timeout', () => {
  const { sim } = useVirtualSimulator({ ...FAST, durationsMs: { ...FAST.durationsMs, version: 300 } })
  it("is said as the rate limit's, not as the timeout reached", async () => {
    for (const id of ['1001', '1003'])
      sim().state.staging.set(id, stagingSite(sim().state.sites.get(id)!, 0, `s${id}`, sim().url))
    sim().addFault({ method: 'POST', path: '/sites/1002/staging/push', status: 429, retryAfter: 3000 })
    const run = await runActionVirtually(sim(), {
      operation: 'push',
      'site-id': '1001,1002,1003',
      concurrency: '3',
      timeout: '60s',
    })
    const site = (
      JSON.parse(run.outputs.results!) as { siteId: string; result: string; summary: string }[]
    ).find((r) => r.siteId === '1001')!
    expect(site.result).toBe('timed-out')
    expect(site.summary).not.toMatch(/The timeout \(1m 0s\) was reached/)
    expect(site.summary).toMatch(
      /the account's rate limit, as this run reads it \(its own calls, the 429s it heard\), lets the next request go only at \d{4}-/,
    )
  })
})

describe.each(EACH_PROFILE)('steps named, profile %s', (profile) => {
  const { sim } = useVirtualSimulator({ ...FAST, profile })

  it('a timeout while maintenance mode is switched on is named as that step; no push, no contradiction', async () => {
    sim().addFault({ method: 'POST', path: '/sites/1002/tools', hang: true, times: 20 })
    const run = await runActionVirtually(sim(), {
      operation: 'push',
      'site-id': '1002',
      checkpoint: 'none',
      maintenance: 'true',
      timeout: '30',
    })
    expect(run.outputs.result).toBe('timed-out')
    expect(run.stdout).toMatch(/while switching maintenance mode on/)
    expect(run.stdout).not.toMatch(/checkpoint \(a site version/)
    expect(sentTo(sim(), 'POST', '/staging/push')).toHaveLength(0)
    expect(run.stdout).not.toMatch(/not in maintenance mode/)
  })
})

describe.each(EACH_PROFILE)('the prune, profile %s', (profile) => {
  const { sim } = useVirtualSimulator({
    ...FAST,
    profile,
    durationsMs: { ...FAST.durationsMs, version: 300 },
  })

  it('a prune whose DELETE got no answer is "unknown", never "not deleted"; the push still succeeded', async () => {
    for (const [i, name] of ['ssa~cp~a', 'ssa~cp~b', 'ssa~cp~c'].entries())
      addVersion(
        { state: sim().state, now: Date.now() - 10_000 + i },
        sim().state.sites.get('1002')!,
        'completed',
        name,
      )
    sim().addFault({ method: 'DELETE', path: '/site-versions', drop: 'after', times: 5 })
    const run = await runActionVirtually(sim(), {
      operation: 'push',
      'site-id': '1002',
      'keep-checkpoints': '1',
    })
    expect(run.outputs.result).toBe('succeeded')
    expect(sentTo(sim(), 'DELETE', '/site-versions')).toHaveLength(1)
    expect(run.stdout).toMatch(/Whether older checkpoints \(.*\) were deleted is unknown: .*[^.]\. Look at/)
    expect(run.stdout).not.toMatch(/were not deleted/)
  })
})
