/**
 * Production's own page follows the push and the restore, and the knob livePage breaks it after a
 * push (contract §16): on the API core with a manual clock, on both profiles; the knob through the
 * options, the admin path and the command line.
 */
import { describe, expect, it } from '@jest/globals'
import { parseArgs } from '../../simulator/args.js'
import {
  createApiCore,
  ManualClock,
  productionPageUrl,
  SIM_SITES,
  type SimulatorOptions,
} from '../../simulator/server.js'
import { admin, RW, startOnClock } from './helpers.js'

const BLOG = SIM_SITES.withStaging
const PUSH_MS = 4_000
const RESTORE_MS = 6_000
const PREFIX = { spec: '', service: '/api' } as const

function site(profile: keyof typeof PREFIX, options: SimulatorOptions = {}) {
  const clock = new ManualClock(Date.UTC(2026, 10, 28, 6, 0, 0))
  const core = createApiCore(
    { profile, durationsMs: { push: PUSH_MS, restore: RESTORE_MS }, ...options },
    clock,
  )
  const headers = {
    authorization: `Bearer ${RW}`,
    'content-type': 'application/json',
    accept: 'application/json',
  }
  const send = (method: string, path: string, body = '') => {
    const reply = core.handle({ method, path: `${PREFIX[profile]}/v2${path}`, headers, body })
    return { status: reply.status, json: JSON.parse(reply.body) }
  }
  /** Production's page now: status, its content line, the whole text. */
  const page = () => {
    const path = new URL(productionPageUrl('http://127.0.0.1', BLOG)).pathname
    const reply = core.handle({ method: 'GET', path, headers: {} })
    const text = reply.body
    return { status: reply.status, content: /<p id="content">([^<]*)<\/p>/.exec(text)?.[1] ?? null, text }
  }
  const push = () => {
    expect(send('POST', `/sites/${BLOG}/staging/push`).status).toBeLessThan(300)
    clock.advance(PUSH_MS)
  }
  /** Production restored to version `versionId`, the restore job completed. */
  const restore = (versionId: string) => {
    expect(send('PUT', `/sites/${BLOG}/restore-versions/${versionId}`).status).toBeLessThan(300)
    clock.advance(RESTORE_MS)
  }
  /** A version of production as it is now, completed: its id. */
  const version = () => {
    const made = send('POST', '/site-versions', JSON.stringify({ site_id: BLOG }))
    clock.advance(60_000)
    core.settle()
    return String(made.json.data.id)
  }
  return { core, clock, page, push, restore, version }
}

describe.each(['spec', 'service'] as const)('%s profile', (profile) => {
  it('the page shows staging after a push completes, and the version after a restore', () => {
    const s = site(profile)
    const before = s.version()
    expect(s.page()).toMatchObject({ status: 200, content: 'files prod-v1, database prod-v1' })
    s.push()
    expect(s.page()).toMatchObject({ status: 200, content: 'files staging-v1, database staging-v1' })
    s.restore(before)
    expect(s.page()).toMatchObject({ status: 200, content: 'files prod-v1, database prod-v1' })
  })

  it('livePage down: 500 after the push, for good, until a restore brings the version back', () => {
    const s = site(profile, { livePage: 'down' })
    const before = s.version()
    s.push()
    expect(s.page()).toMatchObject({ status: 500, content: null })
    s.clock.advance(3_600_000)
    expect(s.page().status).toBe(500)
    s.restore(before)
    expect(s.page()).toMatchObject({ status: 200, content: 'files prod-v1, database prod-v1' })
  })

  it('livePage wrong-page: 200 without the site’s own page; a push with the knob back to ok mends it', () => {
    const s = site(profile, { livePage: 'wrong-page' })
    s.push()
    const wrong = s.page()
    expect(wrong.status).toBe(200)
    expect(wrong.text).not.toContain(`Production site ${BLOG}`)
    expect(wrong.content).toBeNull()
    s.core.setOptions({ livePage: 'ok' })
    s.push()
    expect(s.page()).toMatchObject({ status: 200, content: 'files staging-v1, database staging-v1' })
    expect(s.page().text).toContain(`Production site ${BLOG}`)
  })

  it('livePageRecoversMs: broken until that long after the push, then staging’s content', () => {
    const s = site(profile, { livePage: 'down', livePageRecoversMs: 30_000 })
    s.push()
    expect(s.page().status).toBe(500)
    s.clock.advance(29_999)
    expect(s.page().status).toBe(500)
    s.clock.advance(1)
    expect(s.page()).toMatchObject({ status: 200, content: 'files staging-v1, database staging-v1' })
  })

  it('maintenance mode still answers first (503), over a broken page', () => {
    const s = site(profile, { livePage: 'down' })
    s.push()
    s.core.state.sites.get(String(BLOG))!.maintenance = true
    expect(s.page().status).toBe(503)
  })
})

describe('the knob', () => {
  it('is checked as an option', () => {
    const core = createApiCore({}, new ManualClock())
    expect(() => core.setOptions({ livePage: 'broken' as 'down' })).toThrow(
      /livePage must be ok, down, wrong-page/,
    )
    expect(() => core.setOptions({ livePageRecoversMs: -1 })).toThrow(/livePageRecoversMs/)
    core.setOptions({ livePage: 'wrong-page', livePageRecoversMs: null })
    expect(core.options).toMatchObject({ livePage: 'wrong-page', livePageRecoversMs: null })
  })

  it('is set on the command line', () => {
    expect(parseArgs(['--live-page', 'down', '--live-page-recovers=45s'])).toMatchObject({
      options: { livePage: 'down', livePageRecoversMs: 45_000 },
    })
    expect(() => parseArgs(['--live-page', 'slow'])).toThrow(/--live-page: ok, down, wrong-page/)
  })

  it('is set at run time through POST /__sim/options', async () => {
    const { sim } = await startOnClock()
    try {
      expect((await admin(sim, 'POST', '/options', { livePage: 'down' })).status).toBe(200)
      expect(sim.options.livePage).toBe('down')
      expect((await admin(sim, 'POST', '/options', { livePage: 'sometimes' })).status).toBe(400)
    } finally {
      sim.stop()
    }
  })
})
