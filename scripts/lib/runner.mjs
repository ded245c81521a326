// Shared by `npm run demo` and `npm run bench`: start the simulator bundle, and run the action
// bundle as the GitHub runner does (INPUT_* variables with action.yml's defaults, GITHUB_OUTPUT and
// GITHUB_STEP_SUMMARY files).
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
/** The simulator's public, fake tokens. */
export const SIM_TOKENS = {
  readWrite: 'sim-rw-token-0123456789abcdef',
  readOnly: 'sim-ro-token-0123456789abcdef',
}

const actionYml = () => parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8'))

/** action.yml's input names, in order. */
export function actionInputs() {
  return Object.keys(actionYml().inputs)
}

/** action.yml's output names, in order. */
export function actionOutputs() {
  return Object.keys(actionYml().outputs)
}

/** action.yml's input defaults, as the runner fills them in (no GitHub token here). */
export function actionDefaults() {
  const { inputs } = actionYml()
  const out = {}
  for (const [name, spec] of Object.entries(inputs)) {
    if (spec.default !== undefined)
      out[name] = String(spec.default).includes('${{') ? '' : String(spec.default)
  }
  return out
}

/**
 * Starts dist/simulator.js on a free port with `args` (e.g. ['--profile', 'service']); resolves once
 * it has printed its banner up to the API root. `url` is the bare origin; `apiUrl` is what the action
 * takes as `api-url` (the origin, plus /api with the service profile).
 */
export async function startSimulator(args = []) {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/simulator.js'), '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let banner = ''
  const { url, apiUrl } = await new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`simulator exited (${code}) before it listened:\n${banner}`)))
    child.stdout.on('data', (d) => {
      banner += d
      const listening = /listening on (http:\/\/\S+)/.exec(banner)
      const root = /^API root: (http:\/\/\S+)/m.exec(banner)
      if (listening && root) resolve({ url: listening[1], apiUrl: root[1] })
    })
  })
  child.removeAllListeners('exit')
  const call = async (url, method, headers, body) => {
    const res = await fetch(url, { method, headers, body })
    return { status: res.status, body: await res.json().catch(() => null) }
  }
  return {
    url,
    apiUrl,
    banner,
    stop: () => child.kill('SIGTERM'),
    /** The simulator's admin endpoints (/__sim/...): their `data`. */
    admin: async (p, method = 'GET', body) => {
      const res = await call(
        `${url}/__sim/${p}`,
        method,
        body ? { 'content-type': 'application/json' } : {},
        body && JSON.stringify(body),
      )
      return res.body?.data ?? res.body
    },
    /** A v2 API call with a simulator token (under the profile's API root). */
    v2: (method, p, { token = SIM_TOKENS.readWrite, body } = {}) =>
      call(
        `${apiUrl}/v2${p}`,
        method,
        { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': 'application/json' },
        body ? JSON.stringify(body) : method === 'GET' ? undefined : '',
      ),
  }
}

/** Parses the GITHUB_OUTPUT file (`name<<delimiter` blocks). */
export function parseOutputs(text) {
  const out = {}
  for (const m of text.matchAll(/^([^<\n]+)<<(.+)\n([\s\S]*?)\n\2$/gm)) out[m[1]] = m[3]
  return out
}

/**
 * Runs dist/index.js with `inputs` over action.yml's defaults and the simulator's read-write token.
 * `onOutput` gets the log as it comes, `onSpawn` the child process, `env` more variables (RUNNER_DEBUG:
 * '1' for the debug lines). Resolves when the process exits.
 */
export function runBundledAction(inputs, { onOutput, onSpawn, env: extra = {} } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'staging-action-'))
  const outputFile = path.join(dir, 'output')
  const summaryFile = path.join(dir, 'summary')
  writeFileSync(outputFile, '')
  writeFileSync(summaryFile, '')
  const env = {
    PATH: process.env.PATH,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    ...extra,
  }
  for (const [k, v] of Object.entries({ ...actionDefaults(), 'api-token': SIM_TOKENS.readWrite, ...inputs }))
    env[`INPUT_${k.toUpperCase()}`] = v
  const spawnedAt = Date.now()
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/index.js')], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  onSpawn?.(child)
  let log = ''
  const take = (d) => {
    log += d
    onOutput?.(String(d))
  }
  child.stdout.on('data', take)
  child.stderr.on('data', take)
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const outputs = parseOutputs(readFileSync(outputFile, 'utf8'))
      const summary = readFileSync(summaryFile, 'utf8')
      rmSync(dir, { recursive: true, force: true })
      resolve({ code, outputs, summary, log, spawnedAt, exitedAt: Date.now() })
    })
  })
}
