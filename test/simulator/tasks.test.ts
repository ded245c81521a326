import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { percentage } from '../../simulator/progress.js'
import { resolveOptions } from '../../simulator/options.js'
import { start, type Simulator } from '../../simulator/server.js'
import { call, RO, sleep, waitForTask } from './helpers.js'

let sim: Simulator
beforeAll(async () => {
  sim = await start({ durationsMs: { create: 400, pull: 150, push: 150, delete: 100 } })
})
afterAll(() => sim.stop())
beforeEach(() => {
  sim.reset()
  sim.setOptions({ progress: 'nonlinear', taskVisibilityDelayMs: 0, durationsMs: { create: 400 } })
})

const status = (id: string) => call(sim, 'GET', `/v2/tasks/${id}/status`)

describe('GET /v2/tasks/{id}/status', () => {
  it('reports progress with a string percentage, then completed with 100, and stays queryable', async () => {
    const created = await call(sim, 'POST', '/v2/sites/1001/staging')
    const id = created.json.data.task_id
    const running = await status(id)
    expect(running.status).toBe(200)
    expect(running.json).toMatchObject({ status: true, message: expect.any(String) })
    expect(running.json.data).toMatchObject({
      task_id: id,
      status: 'progress',
      percentage_complete: expect.stringMatching(/^\d{1,2}$/),
    })
    expect(running.json.data).not.toHaveProperty('comment')
    const done = await waitForTask(sim, id)
    expect(done).toMatchObject({ task_id: id, status: 'completed', percentage_complete: '100' })
    await sleep(50)
    const later = await call(sim, 'GET', `/v2/tasks/${id}/status`, { token: RO })
    expect(later.status).toBe(200)
    expect(later.json.data.status).toBe('completed')
  })

  it('completes exactly when the duration has elapsed, without anyone polling', async () => {
    sim.setOptions({ durationsMs: { create: 800 } })
    const created = await call(sim, 'POST', '/v2/sites/1001/staging')
    const task = sim.state.tasks.get(created.json.data.task_id)!
    expect(task.ends_at - task.started_at).toBe(800)
    await sleep(200)
    expect(task.status).toBe('progress')
    expect(sim.state.staging.get('1001')?.status).toBe('creating')
    await sleep(750)
    expect(task.status).toBe('completed')
    expect(sim.state.staging.get('1001')?.status).toBe('ready')
  })

  it('never goes backwards and stays below 100 while running', async () => {
    sim.setOptions({ durationsMs: { create: 300 } })
    const created = await call(sim, 'POST', '/v2/sites/1001/staging')
    const seen: number[] = []
    for (;;) {
      const reply = await status(created.json.data.task_id)
      const value = Number(reply.json.data.percentage_complete)
      if (reply.json.data.status !== 'progress') break
      seen.push(value)
      await sleep(15)
    }
    expect(seen.length).toBeGreaterThan(2)
    expect(seen.every((v, i) => v < 100 && (i === 0 || v >= seen[i - 1]!))).toBe(true)
  })

  it('omits percentage_complete with progress none', async () => {
    sim.setOptions({ progress: 'none' })
    const created = await call(sim, 'POST', '/v2/sites/1001/staging')
    const running = await status(created.json.data.task_id)
    expect(running.json.data.status).toBe('progress')
    expect(running.json.data).not.toHaveProperty('percentage_complete')
    const done = await waitForTask(sim, created.json.data.task_id)
    expect(done).not.toHaveProperty('percentage_complete')
  })

  it('stays invisible (404) for the configured delay after the job starts, then answers', async () => {
    sim.setOptions({ taskVisibilityDelayMs: 600, durationsMs: { create: 2000 } })
    const created = await call(sim, 'POST', '/v2/sites/1001/staging')
    const id = created.json.data.task_id
    const early = await status(id)
    expect(early.status).toBe(404)
    expect(early.json).toMatchObject({ status: false, data: null })
    // the job runs meanwhile: the probe sees it
    expect((await call(sim, 'GET', '/v2/sites/1001/staging')).json.data.status).toBe('creating')
    await sleep(650)
    const visible = await status(id)
    expect(visible.status).toBe(200)
    expect(visible.json.data.status).toBe('progress')
  })

  it('gives each task a 12-hex id and a timeout_at after created_at', async () => {
    const a = await call(sim, 'POST', '/v2/sites/1001/staging')
    const b = await call(sim, 'POST', '/v2/sites/1002/staging/reset')
    expect(a.json.data.task_id).toMatch(/^[0-9a-f]{12}$/)
    expect(b.json.data.task_id).not.toBe(a.json.data.task_id)
    const data = (await status(b.json.data.task_id)).json.data
    expect(data.timeout_at > data.created_at).toBe(true)
  })
})

describe('progress curves', () => {
  const at = (mode: 'linear' | 'nonlinear', fraction: number): number => percentage(mode, fraction)

  it('linear is proportional to time', () => {
    expect(at('linear', 0)).toBe(0)
    expect(at('linear', 0.25)).toBe(25)
    expect(at('linear', 0.5)).toBe(50)
    expect(at('linear', 1)).toBe(99)
  })

  it('nonlinear is quick to ~30%, has a long plateau, a jump and a slow tail to 99', () => {
    expect(at('nonlinear', 0.15)).toBeGreaterThanOrEqual(28)
    // plateau: 40% of the time for a few points
    expect(at('nonlinear', 0.55) - at('nonlinear', 0.15)).toBeLessThanOrEqual(8)
    // jump
    expect(at('nonlinear', 0.62) - at('nonlinear', 0.55)).toBeGreaterThanOrEqual(30)
    // slow tail
    expect(at('nonlinear', 0.99)).toBeGreaterThanOrEqual(95)
    expect(at('nonlinear', 1)).toBe(99)
    let previous = -1
    for (let i = 0; i <= 1000; i++) {
      const value = at('nonlinear', i / 1000)
      expect(value).toBeGreaterThanOrEqual(previous)
      expect(Number.isInteger(value)).toBe(true)
      previous = value
    }
  })

  it('uses the realistic durations with realistic, and lets durationsMs override them', () => {
    expect(resolveOptions({ realistic: true }).durationsMs).toEqual({
      create: 150000,
      pull: 60000,
      push: 60000,
      delete: 15000,
      version: 90000,
      restore: 90000,
    })
    expect(resolveOptions({ realistic: true, durationsMs: { push: 5 } }).durationsMs.push).toBe(5)
    expect(resolveOptions().durationsMs).toEqual({
      create: 3000,
      pull: 2000,
      push: 2000,
      delete: 1000,
      version: 1500,
      restore: 2000,
    })
  })
})
