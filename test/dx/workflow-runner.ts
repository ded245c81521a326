/**
 * A small stand-in for GitHub's runner, enough to run an example workflow here: jobs in the order
 * of their `needs`, steps in order, `if:` conditions and `${{ }}` expressions over the contexts the
 * examples use (vars, secrets, steps, needs, github, env), `uses:` steps of this action as the
 * runner runs them (dist/index.js: npm run build first) against the simulator, and `run:` steps with
 * bash.
 * What GitHub alone does (approvals of a protected environment, concurrency groups) is recorded,
 * not emulated.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { parse } from 'yaml'
import { ROOT, runBundledAction } from '../helpers/run-action.js'

interface Step {
  id?: string
  name?: string
  if?: string
  uses?: string
  run?: string
  with?: Record<string, unknown>
  env?: Record<string, string>
}
interface Job {
  needs?: string | string[]
  /** Evaluated as a step's `if:` (over the contexts and `needs`); a job it skips is not in `jobs`. */
  if?: string
  steps: Step[]
  outputs?: Record<string, string>
  environment?: { name: string } | string
}

export interface StepRun {
  job: string
  name: string
  skipped: boolean
  ok: boolean
  outputs: Record<string, string>
  /** What the step printed (the action's log and its job summary, or the shell's output). */
  log: string
  /** How long it ran (real time). */
  elapsedMs: number
}

export interface WorkflowRun {
  steps: StepRun[]
  /** Jobs in the order they ran, with the environment each ran in (its approval is GitHub's). */
  jobs: { name: string; environment: string | null; ok: boolean }[]
  step(name: string): StepRun
}

export interface Contexts {
  vars: Record<string, string>
  secrets: Record<string, string>
  github: Record<string, unknown>
  /** Environment of every process (e.g. GITHUB_API_URL of a fake GitHub). */
  env: Record<string, string>
  /** A workflow_dispatch's inputs. */
  inputs?: Record<string, string>
}

type Ctx = Record<string, unknown>

/** The value of a `${{ }}` expression: `a || b`, `a && b`, `x == 'v'`, `x != 'v'`, `always()`, paths, literals. */
export function evaluate(expr: string, ctx: Ctx): unknown {
  const e = expr.trim()
  const split = (op: string) => {
    const parts: string[] = []
    let depth = 0
    let quote = false
    let from = 0
    for (let i = 0; i < e.length; i++) {
      const c = e[i]
      if (c === "'") quote = !quote
      if (quote) continue
      if (c === '(') depth++
      if (c === ')') depth--
      if (depth === 0 && e.startsWith(op, i)) {
        parts.push(e.slice(from, i))
        from = i + op.length
        i += op.length - 1
      }
    }
    parts.push(e.slice(from))
    return parts
  }
  const or = split('||')
  if (or.length > 1) {
    for (const part of or) {
      const v = evaluate(part, ctx)
      if (v) return v
    }
    return evaluate(or.at(-1)!, ctx)
  }
  const and = split('&&')
  if (and.length > 1) {
    let v: unknown = true
    for (const part of and) if (!(v = evaluate(part, ctx))) return v
    return v
  }
  for (const op of ['==', '!=']) {
    const sides = split(op)
    if (sides.length === 2) {
      const same = String(evaluate(sides[0]!, ctx) ?? '') === String(evaluate(sides[1]!, ctx) ?? '')
      return op === '==' ? same : !same
    }
  }
  if (e === 'always()') return true
  if (e === 'success()') return ctx.__success
  if (e === 'failure()') return !ctx.__success
  if (/^'.*'$/.test(e)) return e.slice(1, -1).replace(/''/g, "'")
  if (e === 'true' || e === 'false') return e === 'true'
  if (/^[\d.]+$/.test(e)) return Number(e)
  let v: unknown = ctx
  for (const key of e.split('.')) v = v && typeof v === 'object' ? (v as Ctx)[key] : undefined
  return v ?? ''
}

/** `text` with each `${{ expr }}` replaced by its value. */
export function interpolate(text: string, ctx: Ctx): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_, expr: string) => String(evaluate(expr, ctx) ?? ''))
}

/** The jobs of `workflow` in an order that respects `needs`. */
function order(jobs: Record<string, Job>): string[] {
  const done: string[] = []
  while (done.length < Object.keys(jobs).length) {
    const next = Object.keys(jobs).find(
      (name) => !done.includes(name) && [jobs[name]!.needs ?? []].flat().every((n) => done.includes(n)),
    )
    if (!next) throw new Error('a cycle in needs')
    done.push(next)
  }
  return done
}

/** Runs `file` (a workflow of this repository) as far as it can run here. */
export async function runWorkflow(file: string, contexts: Contexts): Promise<WorkflowRun> {
  const wf = parse(await import('node:fs').then((fs) => fs.readFileSync(path.join(ROOT, file), 'utf8'))) as {
    jobs: Record<string, Job>
    env?: Record<string, string>
  }
  const run: WorkflowRun = {
    steps: [],
    jobs: [],
    step(name) {
      const s = this.steps.find((x) => x.name === name)
      if (!s) throw new Error(`no step "${name}" ran`)
      return s
    },
  }
  const needs: Ctx = {}
  for (const jobName of order(wf.jobs)) {
    const job = wf.jobs[jobName]!
    const needed = [job.needs ?? []].flat()
    const environment =
      typeof job.environment === 'string' ? job.environment : (job.environment?.name ?? null)
    // A job its `if:` skipped skips the jobs that need it, as on GitHub (neither is in `jobs`).
    if (needed.some((n) => (needs[n] as { byIf?: boolean }).byIf)) {
      needs[jobName] = { result: 'skipped', outputs: {}, byIf: true }
      continue
    }
    if (!needed.every((n) => (needs[n] as { result: string }).result === 'success')) {
      run.jobs.push({ name: jobName, environment, ok: false })
      needs[jobName] = { result: 'skipped', outputs: {} }
      continue
    }
    if (job.if !== undefined && !evaluate(job.if.replace(/^\$\{\{|\}\}$/g, ''), { ...contexts, needs })) {
      needs[jobName] = { result: 'skipped', outputs: {}, byIf: true }
      continue
    }
    const steps: Ctx = {}
    let success = true
    for (const [i, step] of job.steps.entries()) {
      const ctx: Ctx = { ...contexts, steps, needs, __success: success }
      const name = step.name ?? step.id ?? `step ${i + 1}`
      const wanted =
        step.if === undefined ? success : Boolean(evaluate(step.if.replace(/^\$\{\{|\}\}$/g, ''), ctx))
      if (!wanted) {
        run.steps.push({ job: jobName, name, skipped: true, ok: true, outputs: {}, log: '', elapsedMs: 0 })
        if (step.id) steps[step.id] = { outputs: {}, outcome: 'skipped', conclusion: 'skipped' }
        continue
      }
      const env: Record<string, string> = {}
      for (const [k, v] of Object.entries(step.env ?? {})) env[k] = interpolate(String(v), ctx)
      const t0 = Date.now()
      const result = step.uses
        ? await actionStep(step, ctx, contexts)
        : await shellStep(interpolate(step.run ?? '', ctx), { ...contexts.env, ...env }, contexts)
      run.steps.push({ job: jobName, name, skipped: false, elapsedMs: Date.now() - t0, ...result })
      if (step.id) steps[step.id] = { outputs: result.outputs, outcome: result.ok ? 'success' : 'failure' }
      if (!result.ok) success = false
    }
    const outputs: Record<string, string> = {}
    for (const [k, v] of Object.entries(job.outputs ?? {}))
      outputs[k] = interpolate(v, { ...contexts, steps, needs })
    needs[jobName] = { result: success ? 'success' : 'failure', outputs }
    run.jobs.push({ name: jobName, environment, ok: success })
  }
  return run
}

/**
 * A `uses:` step of this action, as the runner runs it: `node dist/index.js` (action.yml's `main`)
 * with the step's inputs as INPUT_* (action.yml's defaults filled in), the event's payload in
 * GITHUB_EVENT_PATH, and the outputs and summary files (test/helpers/run-action.ts).
 */
async function actionStep(
  step: Step,
  ctx: Ctx,
  contexts: Contexts,
): Promise<{ ok: boolean; outputs: Record<string, string>; log: string }> {
  if (!/site-staging-action@/.test(step.uses!)) throw new Error(`cannot run ${step.uses} here`)
  const dir = mkdtempSync(path.join(tmpdir(), 'workflow-step-'))
  try {
    const inputs: Record<string, string> = {}
    for (const [k, v] of Object.entries(step.with ?? {})) inputs[k] = interpolate(String(v), ctx)
    const event = path.join(dir, 'event.json')
    writeFileSync(event, JSON.stringify((contexts.github as { event?: unknown }).event ?? {}))
    const run = await runBundledAction(inputs, {
      env: { GITHUB_EVENT_PATH: event, ...contexts.env },
      killAfterMs: 120_000,
    })
    return { ok: run.code === 0, outputs: run.outputs, log: `${run.stdout}${run.stderr}\n${run.summary}` }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A `run:` step: bash -e, with the step's env. */
async function shellStep(
  script: string,
  env: Record<string, string>,
  contexts: Contexts,
): Promise<{ ok: boolean; outputs: Record<string, string>; log: string }> {
  const github = contexts.github as { ref_name?: string }
  const { code, out } = await spawnText('bash', ['-e', '-c', script], {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    GITHUB_REF_NAME: github.ref_name ?? '',
    ...env,
  })
  return { ok: code === 0, outputs: {}, log: out }
}

function spawnText(
  cmd: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; out: string }> {
  for (const name of ['npm_config_cache', 'npm_config_userconfig', 'TMPDIR'])
    if (process.env[name]) env[name] ??= process.env[name]!
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    const killer = setTimeout(() => child.kill('SIGKILL'), 120_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(killer)
      resolve({ code: code ?? 1, out: stripVTControlCharacters(out) })
    })
  })
}
