import { afterAll, beforeAll, beforeEach, expect } from '@jest/globals'
import path from 'node:path'
import { start, SIM_TOKENS, type Simulator, type SimulatorOptions } from '../../simulator/server.js'
import { runBundledAction, type RunOptions } from './run-action.js'

export const RW = SIM_TOKENS.readWrite
export const RO = SIM_TOKENS.readOnly

/**
 * How the two simulator profiles differ, as a whole-action test sees them (contract §10): the spec's
 * literal shapes, and the service family's (framework bodies, an /api root, numeric staging ids,
 * 200 on acceptance, 422 when busy or for the plan, no probe route).
 */
export const PROFILES = {
  spec: {
    accepted: 202,
    stagingId: (site: string) => `s-${site}`,
    busy: 409,
    plan: 403,
    probe: true,
    prefix: '/v2',
  },
  service: {
    accepted: 200,
    stagingId: (site: string) => String(50_000 + Number(site)),
    busy: 422,
    plan: 422,
    probe: false,
    prefix: '/api/v2',
  },
} as const
export type ProfileName = keyof typeof PROFILES
export type Profile = (typeof PROFILES)[ProfileName]
/** For describe.each: [name, shape] of each profile. */
export const EACH_PROFILE = Object.entries(PROFILES) as [ProfileName, Profile][]

/**
 * For describe.each in a suite that runs against every profile but takes long: its tests live in
 * `X.ts`, and one test file per profile, `X.<profile>-profile.test.ts`, imports it, so Jest runs the
 * profiles in parallel. This is the profile named by the test file being run.
 * (test/dx/test-layout.test.ts checks that every such suite has a file for every profile.)
 */
export function profileOfThisFile(): [ProfileName, Profile][] {
  const file = path.basename(expect.getState().testPath ?? '')
  const name = /\.(\w+)-profile\.test\.ts$/.exec(file)?.[1]
  if (!name || !Object.hasOwn(PROFILES, name))
    throw new Error(
      `${file}: run a profile suite from X.<profile>-profile.test.ts, <profile> one of ${Object.keys(PROFILES).join(', ')}`,
    )
  return EACH_PROFILE.filter(([n]) => n === name)
}

/** Short jobs and a short site delay, so whole-action tests stay quick. */
export const FAST: SimulatorOptions = {
  durationsMs: { create: 400, pull: 300, push: 300, delete: 200 },
  siteDelayMs: 200,
}

/**
 * One simulator for a test file, back to its seeded state and to `options` (over FAST's) before
 * each test: the profile ('spec' unless given) included.
 */
export function useSimulator(options: SimulatorOptions = FAST): { sim: () => Simulator } {
  let sim: Simulator
  beforeAll(async () => {
    sim = await start({ port: 0, ...options })
  })
  beforeEach(() => {
    sim.reset()
    sim.setOptions({
      durationsMs: { create: 400, pull: 300, push: 300, delete: 200, ...options.durationsMs },
      progress: options.progress ?? 'nonlinear',
      taskIds: options.taskIds ?? true,
      probe: options.probe ?? true,
      busyStatus: options.busyStatus ?? 409,
      rateLimit: options.rateLimit ?? null,
      taskVisibilityDelayMs: options.taskVisibilityDelayMs ?? 0,
      profile: options.profile ?? 'spec',
      siteDelayMs: options.siteDelayMs ?? FAST.siteDelayMs,
      urlInAnswers: options.urlInAnswers ?? true,
      versions: options.versions ?? 'ok',
      tools: options.tools ?? 'ok',
    })
  })
  afterAll(async () => {
    await sim?.stop()
  })
  return { sim: () => sim }
}

/** Runs the bundled action against the simulator with the read-write token, at its profile's api-url. */
export function runAgainst(sim: Simulator, inputs: Record<string, string>, options?: RunOptions) {
  return runBundledAction({ 'api-url': sim.apiUrl, 'api-token': RW, timeout: '60s', ...inputs }, options)
}

/** Requests that reached the server for this method and path ending. */
export function sentTo(sim: Pick<Simulator, 'requests'>, method: string, pathEnd: string) {
  return sim.requests.filter((r) => r.method === method && r.path.split('?')[0]!.endsWith(pathEnd))
}

/**
 * Makes a running task due now, as if its time had passed. A test that must see a job still
 * running gives it a long duration and ends it with this, rather than racing a short one on a busy
 * machine. The next request settles it, as it would any job whose time has come. `now`: the
 * simulator's clock when it is not the real one.
 */
export function finishNow(sim: Pick<Simulator, 'state'>, taskId: string, now = Date.now()): void {
  const task = sim.state.tasks.get(taskId)
  if (!task) throw new Error(`no task ${taskId}`)
  task.ends_at = Math.min(task.ends_at, now)
}
