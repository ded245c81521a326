import { describe, expect, it } from '@jest/globals'
import { addVersion } from '../../simulator/routes/versions.js'
import { SIM_TOKENS, productionPageUrl } from '../../simulator/seed.js'
import { EACH_PROFILE, FAST, sentTo } from '../helpers/sim.js'
import { runActionVirtually, useVirtualSimulator } from '../helpers/virtual-action.js'

// Issue 31 end to end, on both profiles: the way back holds when the version list is not filtered,
// is paged, answers busy, names a person's version, and when a restore fails half-way.
describe.each(EACH_PROFILE)('profile %s', (profile) => {
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
    expect(sentTo(sim(), 'PUT', '/restore-versions/')).toHaveLength(0)
    expect(back.stdout).toMatch(
      /no completed checkpoint made by this tool .* was found among site 1002's versions \(1 page\(s\) not read: .*; the list was not newest first\)/,
    )
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

  it("a person's version named like ours is never restored without its id", async () => {
    seed('1002', 'before push redesign', Date.now())
    const run = await runActionVirtually(sim(), { operation: 'rollback', 'site-id': '1002' })
    expect(run.outputs.result).toBe('failed')
    expect(sentTo(sim(), 'PUT', '/restore-versions/')).toHaveLength(0)
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
    })
    expect(withRollback.outputs.result).toBe('failed')
    expect(restores()).toHaveLength(1)
    expect(withRollback.outputs['production-check']).toBe('failed')
    expect(withRollback.stdout).toMatch(
      /Production FAILED its check at .*: HTTP 500\. Production was restored to version \S+\. After the restore, production passes its check: HTTP 200\./,
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
    expect(run.stdout).toMatch(/Whether older checkpoints \(.*\) were deleted is unknown/)
    expect(run.stdout).not.toMatch(/were not deleted/)
  })
})
