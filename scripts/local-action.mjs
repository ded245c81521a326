// npm run local-action: runs the action's entry module (src/main.ts, its exported run()) with
// @github/local-action, GitHub's tool for running an action on your own machine, against the API
// simulator. local-action runs the TypeScript sources (through tsx), replaces @actions/core and
// @actions/github with its own stand-ins, reads the inputs from a dotenv file (INPUT_<NAME>=value),
// and prints the log, then the outputs. This script starts the simulator (dist/simulator.js), writes
// that file, runs local-action, prints the job summary and stops the simulator.
//
//   npm run local-action                                create on site 1001, against the simulator
//   npm run local-action -- operation=pull site-id=1002 any input as name=value
//   npm run local-action -- --inputs my.env             inputs from your own file (see --help)
//
// Exit code: 0 when the action's result is succeeded, skipped, accepted or dry-run; 1 when it failed,
// timed out, was cancelled or set no result (local-action itself always exits 0 after run()); 2 on
// bad usage.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseEnv, stripVTControlCharacters } from 'node:util'
import { ROOT, SIM_TOKENS, actionInputs, startSimulator } from './lib/runner.mjs'

// local-action's own program (its bin only finds the package manager, then starts this file with
// `npm exec tsx`: a second npm and a second Node, about 1.5 s of CPU a run), and tsx's loader,
// which local-action depends on: the script starts it with Node directly, as its bin would.
const LOCAL_ACTION = path.join(ROOT, 'node_modules/@github/local-action/src/index.ts')
const TSX = path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')
const ENTRY = 'src/main.ts'
const FAILED = new Set(['failed', 'timed-out', 'cancelled'])

const USAGE = `Usage: npm run local-action -- [name=value ...] [--inputs FILE]

Runs the action (${ENTRY}, its run()) with @github/local-action against the API
simulator: by default operation=create on site 1001 with the simulator's token.

  name=value        an action input (see action.yml), e.g. operation=pull
                    site-id=1002 if-exists=skip; api-token is never taken here
  --inputs FILE     a dotenv file of inputs, written as local-action reads them:
                    INPUT_OPERATION=pull, INPUT_SITE-ID=1002, INPUT_API-URL=...,
                    INPUT_API-TOKEN=... (other lines, such as
                    ACTIONS_STEP_DEBUG=true, are passed on as they are)
  -h, --help        show this help

When neither gives api-url, the simulator is started and its API root and
read-write token are used. With your own api-url, the token comes from
INPUT_API-TOKEN in the file or from STAGING_API_TOKEN in the environment.
Exit code: 0 when the result is succeeded, skipped, accepted or dry-run; 1 when
it failed, timed out, was cancelled or no result was set; 2 on bad usage.`

class UsageError extends Error {}

/** The variable local-action reads an input from: `INPUT_` + the name upper-cased, dashes kept. */
const inputVar = (name) => `INPUT_${name.replace(/ /g, '_').toUpperCase()}`

function parseCommandLine(argv) {
  const known = actionInputs()
  const inputs = {}
  let envFile = null
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '-h' || arg === '--help') return { help: true }
    if (arg === '--inputs' || arg.startsWith('--inputs=')) {
      envFile = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i]
      if (!envFile) throw new UsageError('--inputs needs a file name')
      continue
    }
    const m = /^([a-z][a-z-]*)=(.*)$/s.exec(arg)
    if (!m) throw new UsageError(`not an input (name=value) or option: ${arg.slice(0, 60)}`)
    const [, name, value] = m
    if (name === 'api-token')
      throw new UsageError(
        'the token is not taken from the command line (it would show in the process list): ' +
          'put INPUT_API-TOKEN in an --inputs file, or export STAGING_API_TOKEN',
      )
    if (!known.includes(name)) throw new UsageError(`no input named ${name}; the inputs: ${known.join(', ')}`)
    inputs[inputVar(name)] = value
  }
  return { help: false, inputs, envFile }
}

/** The user's dotenv file: its text (handed to local-action as it is) and what it sets. */
function readEnvFile(file) {
  try {
    const text = readFileSync(file, 'utf8')
    return { text, vars: parseEnv(text) }
  } catch (e) {
    throw new UsageError(`--inputs ${file}: ${e.message}`)
  }
}

/**
 * A dotenv line as local-action's parser (dotenv) reads it: single quotes keep the value as it is;
 * backticks when it holds a single quote; double quotes (which turn \n into a line break) for
 * several lines, such as a list of site ids.
 */
function envLine(key, value) {
  const v = String(value)
  if (!/['\r\n]/.test(v)) return `${key}='${v}'`
  if (!/[`\r\n]/.test(v)) return `${key}=\`${v}\``
  if (!/["\\\r]/.test(v)) return `${key}="${v.replace(/\n/g, '\\n')}"`
  throw new UsageError(`${key}: this value cannot be written to a dotenv file; put it in an --inputs file`)
}

/** What we print of the inputs: everything but secrets. */
const shown = (vars) =>
  Object.entries(vars)
    .filter(([k]) => k.startsWith('INPUT_'))
    .map(([k, v]) => `${k.slice(6).toLowerCase()}=${/TOKEN/.test(k) ? '***' : v}`)
    .join(' ')

async function main(argv) {
  let cmd
  try {
    cmd = parseCommandLine(argv)
  } catch (e) {
    if (!(e instanceof UsageError)) throw e
    console.error(`local-action: ${e.message}\nRun npm run local-action -- --help for usage.`)
    return 2
  }
  if (cmd.help) {
    console.log(USAGE)
    return 0
  }
  if (!existsSync(LOCAL_ACTION) || !existsSync(TSX)) {
    console.error('local-action: @github/local-action is not installed: run npm ci first.')
    return 2
  }
  let fromFile = { text: '', vars: {} }
  try {
    if (cmd.envFile) fromFile = readEnvFile(cmd.envFile)
  } catch (e) {
    console.error(`local-action: ${e.message}`)
    return 2
  }
  const given = { ...fromFile.vars, ...cmd.inputs }
  const useSimulator = !given['INPUT_API-URL']
  const defaults = { INPUT_OPERATION: 'create', 'INPUT_SITE-ID': '1001' }
  if (!useSimulator && !given['INPUT_API-TOKEN']) {
    if (!process.env.STAGING_API_TOKEN) {
      console.error(
        'local-action: with your own api-url, give the token: INPUT_API-TOKEN in the --inputs file, or STAGING_API_TOKEN in the environment',
      )
      return 2
    }
    defaults['INPUT_API-TOKEN'] = process.env.STAGING_API_TOKEN
  }

  const dir = mkdtempSync(path.join(tmpdir(), 'local-action-'))
  const summaryFile = path.join(dir, 'summary.md')
  writeFileSync(summaryFile, '')
  let sim = null
  let child = null
  // Ctrl-C reaches every process of the terminal's group: the action gets it and reports
  // `cancelled`; this script only waits for it. A SIGTERM sent to this script alone is passed on.
  process.on('SIGINT', () => {})
  process.on('SIGTERM', () => child?.kill('SIGTERM'))
  try {
    if (useSimulator) {
      sim = await startSimulator()
      defaults['INPUT_API-URL'] = sim.apiUrl
      defaults['INPUT_API-TOKEN'] = SIM_TOKENS.readWrite
      console.log(`Simulator listening on ${sim.url} (api-url: ${sim.apiUrl})`)
    }
    // One file for local-action, read top to bottom (a later line wins): our defaults, the user's
    // file as it is, the name=value inputs, and where the job summary goes.
    const lines = (vars) => Object.entries(vars).map(([k, v]) => envLine(k, v))
    const envFile = path.join(dir, 'inputs.env')
    writeFileSync(
      envFile,
      [
        ...lines(defaults),
        fromFile.text,
        ...lines(cmd.inputs),
        ...lines({ GITHUB_STEP_SUMMARY: summaryFile }),
      ].join('\n') + '\n',
      { mode: 0o600 },
    )
    console.log(`Inputs: ${shown({ ...defaults, ...given })}`)
    console.log(`Running: local-action run . ${ENTRY} <inputs file>`)

    // local-action colours its output on a terminal; its output goes through a pipe here (to read
    // the result), so ask for the colours it would have used.
    // What local-action's bin sets before it starts the program: the action's directory, the
    // package manager (npm: local-action finds the @actions/* it replaces with `npm ls`), no
    // experimental warnings.
    const env = {
      ...process.env,
      TARGET_ACTION_PATH: ROOT,
      NODE_PACKAGE_MANAGER: 'npm',
      NODE_NO_WARNINGS: '1',
    }
    if (process.stdout.isTTY && !env.NO_COLOR) env.FORCE_COLOR ??= '1'
    const program = ['--import', pathToFileURL(TSX).href, LOCAL_ACTION]
    child = spawn(process.execPath, [...program, 'run', ROOT, ENTRY, envFile], {
      cwd: ROOT,
      env,
      stdio: ['inherit', 'pipe', 'inherit'],
    })
    let result = null
    let rest = ''
    child.stdout.on('data', (d) => {
      process.stdout.write(d)
      const lines = (rest + d).split('\n')
      rest = lines.pop()
      for (const line of lines) {
        const m = /^::set-output name=result::(.*)$/.exec(stripVTControlCharacters(line).trim())
        if (m) result = m[1]
      }
    })
    const code = await new Promise((resolve, reject) => {
      child.on('error', reject)
      child.on('close', (c, signal) => resolve(c ?? (signal ? 1 : 0)))
    })
    child = null

    const summary = readFileSync(summaryFile, 'utf8').trim()
    if (summary)
      console.log(`\nJob summary (Markdown, as GitHub would show it on the run's page):\n\n${summary}\n`)
    if (code !== 0) {
      console.error(`local-action: local-action exited with code ${code}`)
      return code
    }
    if (result === null) {
      console.error('local-action: the action set no result output')
      return 1
    }
    console.log(`local-action: result ${result}`)
    return FAILED.has(result) ? 1 : 0
  } finally {
    sim?.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

process.exitCode = await main(process.argv.slice(2))
