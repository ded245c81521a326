import { describe, expect, it } from '@jest/globals'
import { EACH_PROFILE, FAST, sentTo } from '../helpers/sim.js'
import { runActionVirtually, useVirtualSimulator } from '../helpers/virtual-action.js'

// Issue 27 end to end: the action's step (src/action.ts: its inputs, writer, outputs and summary)
// against the simulator's API core in virtual time, on both profiles (contract §10, §13-14). The
// checkpoint through the bundles: the fault matrix's checkpoint rows that run dist/ (cancelled while
// the version is made; the quota through the CLI) and the GitLab rollback example.
describe.each(EACH_PROFILE)('profile %s', (profile, p) => {
  const { sim } = useVirtualSimulator({
    ...FAST,
    profile,
    durationsMs: { ...FAST.durationsMs, version: 300, restore: 300 },
  })
  /** The paths (no query, no API prefix) of the requests that reached the server, in order. */
  const paths = () => sim().requests.map((r) => `${r.method} ${r.path.split('?')[0]!.replace(p.prefix, '')}`)

  it('push with default inputs: the version is created, named, followed to completed, then the push is sent once', async () => {
    const run = await runActionVirtually(sim(), { operation: 'push', 'site-id': '1002' })
    expect(run.code).toBe(0)
    const order = paths().filter((x) => !x.startsWith('GET /sites'))
    const create = order.indexOf('POST /site-versions')
    const push = order.indexOf('POST /sites/1002/staging/push')
    expect(create).toBe(0)
    expect(order[1]).toMatch(/^PUT \/site-versions\//)
    expect(order.slice(2, push).every((x) => /^GET \/tasks\//.test(x))).toBe(true)
    expect(sentTo(sim(), 'POST', '/staging/push')).toHaveLength(1)
    const versions = [...sim().state.siteVersions.values()]
    expect(versions).toHaveLength(1)
    expect(versions[0]!.status).toBe('completed')
    expect(versions[0]!.name).toMatch(/^ssa~cp~/)
    const id = run.outputs['checkpoint-id']!
    expect(id).toBe(String(profile === 'spec' ? `v-${versions[0]!.id}` : versions[0]!.id))
    expect(run.summary).toContain(`operation: rollback, site-id: 1002, checkpoint-id: ${id}`)
    expect(run.stdout).not.toMatch(/No backup of production was taken/)
  })

  it('rollback after a push: one restore, and production has its content from before the push again', async () => {
    const before = { ...sim().state.sites.get('1002')!.content }
    const push = await runActionVirtually(sim(), { operation: 'push', 'site-id': '1002' })
    expect(push.code).toBe(0)
    expect(sim().state.sites.get('1002')!.content).not.toEqual(before)
    const back = await runActionVirtually(sim(), { operation: 'rollback', 'site-id': '1002' })
    expect(back.code).toBe(0)
    expect(back.outputs).toMatchObject({
      result: 'succeeded',
      'checkpoint-id': push.outputs['checkpoint-id'],
    })
    expect(sentTo(sim(), 'PUT', `/restore-versions/${push.outputs['checkpoint-id']}`)).toHaveLength(1)
    expect(sim().state.sites.get('1002')!.content).toEqual(before)
  })

  it.each([
    ['absent-404', 404],
    ['absent-405', 405],
    ['plan-403', 403],
    ['quota', 422],
  ] as ['absent-404' | 'absent-405' | 'plan-403' | 'quota', number][])(
    'versions %s: the run fails (HTTP %i) and no push is sent',
    async (versions, status) => {
      sim().setOptions({ versions })
      const run = await runActionVirtually(sim(), { operation: 'push', 'site-id': '1002' })
      expect(run.code).toBe(1)
      expect(run.outputs.result).toBe('failed')
      expect(run.stdout).toContain('The push was not sent')
      expect(run.stdout).toMatch(/checkpoint: none/)
      expect(sentTo(sim(), 'POST', '/site-versions')[0]!.status).toBe(status)
      expect(sentTo(sim(), 'POST', '/staging/push')).toHaveLength(0)
    },
  )

  it("under a tight rate limit the checkpoint shares the run's budget: slower, not refused", async () => {
    sim().setOptions({ rateLimit: { limit: 4, windowMs: 3000 } })
    const run = await runActionVirtually(sim(), { operation: 'push', 'site-id': '1002', 'max-retries': '0' })
    expect(run.outputs.result).toBe('succeeded')
    expect(sim().requests.length).toBeGreaterThan(4)
    const refused = sim().requests.filter((r) => r.status === 429).length
    if (profile === 'spec') expect(refused).toBe(0)
    else expect(refused).toBeLessThanOrEqual(3)
    expect(sentTo(sim(), 'POST', '/staging/push')).toHaveLength(1)
  })

  it("a version create with no task id: the version's status in the list is followed, then the push", async () => {
    sim().setOptions({ versions: 'no-task-id' })
    const run = await runActionVirtually(sim(), { operation: 'push', 'site-id': '1002' })
    expect(run.code).toBe(0)
    const order = paths().filter((x) => !x.startsWith('GET /sites'))
    const push = order.indexOf('POST /sites/1002/staging/push')
    expect(order[0]).toBe('POST /site-versions')
    expect(order[1]).toMatch(/^PUT \/site-versions\//)
    // Between the name and the push: the version list only, until it said completed.
    expect(order.slice(2, push)).toEqual(order.slice(2, push).map(() => 'GET /site-versions'))
    expect(push).toBeGreaterThan(2)
    const version = [...sim().state.siteVersions.values()][0]!
    const versionRead = sentTo(sim(), 'GET', '/site-versions')[push - 3]!
    expect(versionRead.at).toBeGreaterThanOrEqual(sim().state.tasks.get(version.task_id!)!.ends_at)
    expect(sentTo(sim(), 'POST', '/staging/push')).toHaveLength(1)
    expect(run.outputs['checkpoint-id']).toBe(String(profile === 'spec' ? `v-${version.id}` : version.id))
  })

  it('rollback with wait: false: one restore, not followed; accepted', async () => {
    const push = await runActionVirtually(sim(), { operation: 'push', 'site-id': '1002' })
    expect(push.code).toBe(0)
    const id = push.outputs['checkpoint-id']!
    const before = sim().requests.length
    const back = await runActionVirtually(sim(), {
      operation: 'rollback',
      'site-id': '1002',
      'checkpoint-id': id,
      wait: 'false',
    })
    expect(back.code).toBe(0)
    expect(back.outputs).toMatchObject({ result: 'accepted', 'checkpoint-id': '' }) // none restored yet
    expect(back.summary).toContain(id)
    expect(back.summary).not.toContain('Restored version')
    const after = sim().requests.slice(before)
    expect(after.filter((r) => r.method === 'PUT')).toHaveLength(1)
    expect(after.filter((r) => r.path.includes('/tasks/'))).toEqual([])
  })

  it('a rollback whose restore fails: no checkpoint-id output, no "Restored version" row', async () => {
    expect((await runActionVirtually(sim(), { operation: 'push', 'site-id': '1002' })).code).toBe(0)
    sim().setOptions({ versions: 'restore-half' })
    const back = await runActionVirtually(sim(), { operation: 'rollback', 'site-id': '1002' })
    expect(back.outputs).toMatchObject({ result: 'failed', 'checkpoint-id': '' })
    expect(back.summary).toMatch(/partly restored/)
    expect(back.summary).not.toContain('Restored version')
  })

  it('a version task that fails: no push', async () => {
    sim().setOptions({ versions: 'task-fails' })
    const run = await runActionVirtually(sim(), { operation: 'push', 'site-id': '1002' })
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('The push was not sent')
    expect(sentTo(sim(), 'POST', '/staging/push')).toHaveLength(0)
  })

  it('a version that does not complete within the timeout: timed out, no push', async () => {
    sim().setOptions({ versions: 'slow' })
    const run = await runActionVirtually(sim(), { operation: 'push', 'site-id': '1002', timeout: '5s' })
    expect(run.code).toBe(1)
    expect(run.outputs.result).toBe('timed-out')
    expect(sentTo(sim(), 'POST', '/staging/push')).toHaveLength(0)
  })

  it('maintenance: on before the push, off after it; protect-production: protection on after it', async () => {
    const run = await runActionVirtually(sim(), {
      operation: 'push',
      'site-id': '1002',
      maintenance: 'true',
      'protect-production': 'true',
    })
    expect(run.code).toBe(0)
    const tools = sentTo(sim(), 'POST', '/sites/1002/tools')
    expect(tools).toHaveLength(3)
    const site = sim().state.sites.get('1002')!
    expect(site.maintenance).toBe(false)
    expect(site.password_protected).toBe(true)
    expect(run.stdout).not.toMatch(/protection is now off/)
  })
})
