// The `site-staging` command: argv + environment -> parseConfig -> runAll -> stderr / --json /
// --dotenv -> exit code. Nothing happens when this module is imported: src/cli/index.ts (the bundle's
// entry, dist/cli.js) calls run() and exits, as src/index.ts does for the action. Reference: README.md.
import { writeFileSync } from 'node:fs'
import pkg from '../../package.json' with { type: 'json' }
import { cancelOnSignals } from '../cancel.js'
import { realClock } from '../clock.js'
import { EXIT, USAGE, UsageError, describeInputError, parse, rawInputs, type Parsed } from './args.js'
import { ciEnv, type CiEnv } from './ci-env.js'
import { dotenvFor, envFileText } from './dotenv.js'
import { LiveLine } from './progress.js'
import { InputError, parseConfig, type RawInputs } from '../inputs/index.js'
import { assembleReport } from '../report/assembly.js'
import { failedOutputs, publicResult, type Outputs } from '../report/outputs.js'
import { Redactor } from '../secrets/redactor.js'
import type { RunDeps } from '../staging/operations.js'
import type { Logger, ProgressUpdate, Result } from '../types.js'
import { cliDoor } from '../words.js'

/** Where the CLI writes, and how it learns of a cancellation. */
export interface CliIo {
  stdout: { write(text: string): unknown }
  /** Progress and the log; a terminal gets the live line. */
  stderr: NodeJS.WriteStream
  /** Starts listening for cancellation; default: SIGINT/SIGTERM (src/cancel.ts). */
  cancelOn?: (say: (message: string) => void, exitCode: number) => AbortSignal
}

/**
 * Runs the CLI once; resolves with its exit code and never exits the process. `seams`: tests run the
 * same command in virtual time (a clock, the core's transport and the site's own GET). Four short
 * steps: parse the command line, configure (the outputs files, the inputs), run, write.
 */
export async function run(
  cliArgv: string[],
  cliEnv: NodeJS.ProcessEnv,
  io: CliIo,
  seams: Seams = {},
): Promise<number> {
  // The token (also one named by --token-variable) is registered before anything else runs: every
  // line written below goes through scrub.
  const ci = ciEnv(cliArgv, cliEnv)
  const w = writer(io, cliEnv, ci.env)
  try {
    const parsed = parseCommand(ci, w)
    if (typeof parsed === 'number') return parsed
    const configured = configure(ci, parsed, w)
    if (typeof configured === 'number') return configured
    return write(configured, await runOnce(configured, w, io, seams), w)
  } catch (e) {
    w.err(`site-staging: unexpected error: ${(e as Error)?.message ?? String(e)}`)
    return EXIT.failed
  }
}

/**
 * The one writer of the CLI: every line on stderr is inert (one line, no escape sequence or control
 * character from a server, nothing a CI system reads as a command) and without secrets. On a
 * terminal, a live progress line sits below the log and is redrawn after each line.
 */
function writer(io: CliIo, cliEnv: NodeJS.ProcessEnv, env: NodeJS.ProcessEnv) {
  const redactor = new Redactor()
  redactor.add(cliEnv.STAGING_API_TOKEN)
  redactor.add(env.STAGING_API_TOKEN)
  const live = new LiveLine(io.stderr, env)
  return {
    redactor,
    live,
    door: cliDoor(cliEnv),
    warned: new Set<string>(), // warnings the log printed: the report does not print them again
    err: (line: string): void => live.print(redactor.inert(line)),
    out: (text: string): void => void io.stdout.write(redactor.scrub(text) + '\n'),
    writeFile: (file: string, text: string): void =>
      writeFileSync(file, redactor.scrub(text), { mode: 0o600 }),
  }
}
type Writer = ReturnType<typeof writer>

/** Parse: the command line as the inputs' raw text, or the exit code of --help, --version or bad usage. */
function parseCommand(ci: CiEnv, w: Writer): (Parsed & { raw: RawInputs }) | number {
  try {
    const parsed = parse(ci.argv)
    if (parsed.values.help) return (w.out(USAGE.trimEnd()), EXIT.ok)
    if (parsed.values.version) return (w.out(pkg.version), EXIT.ok)
    return { ...parsed, raw: rawInputs(parsed, ci.env) }
  } catch (e) {
    if (!(e instanceof UsageError)) throw e
    w.err(`site-staging: ${e.message}`)
    if (w.door === 'cli') w.err('Run site-staging --help for usage.') // no such command in a job or a pipe
    // The outputs files named say the run failed (docs/cli.md), never the last run's values.
    ci.argv.forEach((arg, i) => {
      const [flag, file = ci.argv[i + 1]] = arg.split(/=(.*)/s)
      const render = Object.hasOwn(RENDERS, flag!) && RENDERS[flag as keyof typeof RENDERS]
      if (!render || !file || file.startsWith('-')) return
      try {
        w.writeFile(file, render(failedOutputs(e.message), []).text)
      } catch {} // eslint-disable-line no-empty -- a file that cannot be written: the usage error is said already
    })
    return EXIT.usage
  }
}

/** Configure: the outputs files emptied, then the inputs read into a Config; or the usage exit code. */
function configure(ci: CiEnv, parsed: Parsed & { raw: RawInputs }, w: Writer) {
  const { values } = parsed
  // The outputs files asked for (RENDERS).
  const files: OutputsFile[] = []
  if (values.dotenv !== undefined)
    files.push({ flag: '--dotenv', path: values.dotenv, render: RENDERS['--dotenv'] })
  if (values['shell-env'] !== undefined)
    files.push({ flag: '--shell-env', path: values['shell-env'], render: RENDERS['--shell-env'] })
  // Empty each file first: a run that stops early never leaves the last run's values behind.
  for (const f of files) {
    try {
      w.writeFile(f.path, '')
    } catch (e) {
      w.err(`site-staging: ${f.flag}: cannot write ${f.path}: ${(e as Error).message}`)
      return EXIT.usage
    }
  }
  const refuse = (message: string, then: string): number => {
    w.err(`site-staging: ${message}`)
    w.err(then)
    for (const f of files) w.writeFile(f.path, f.render(failedOutputs(message), []).text)
    return EXIT.usage
  }
  // --token-variable NAME that cannot be used (src/cli/ci-env.ts): refused like an input.
  if (ci.error !== undefined) return refuse(ci.error, 'No request was sent.')
  if (ci.warning) w.err(`site-staging: warning: ${ci.warning}`)
  try {
    return { config: parseConfig(parsed.raw), files, json: values.json === true, verbose: values.verbose }
  } catch (e) {
    if (!(e instanceof InputError)) throw e
    const usage = w.door === 'cli' ? ' Run site-staging --help for usage.' : '' // no such command in a job or a pipe
    return refuse(describeInputError(e, w.door), `No request was sent.${usage}`)
  }
}

/** Run: every site, with the log on stderr; cancellation as in the action (stop waiting, report, exit 1). */
async function runOnce({ config, verbose }: Configured, w: Writer, io: CliIo, seams: Seams) {
  const logger: Logger = {
    info: (m) => w.err(m),
    warn: (m) => (w.warned.add(m), w.err(`warning: ${m}`)),
    debug: (m) => void (verbose && w.err(`debug: ${m}`)),
    ...(w.live.enabled ? { progress: (u: ProgressUpdate) => w.live.update(u) } : {}),
  }
  const signal = (io.cancelOn ?? cancelOnSignals)(w.err, EXIT.failed)
  const clock = seams.clock ?? realClock
  const started = clock.now()
  // The staging and HTTP stack loads only for a run (issue 26 §6): not for --help, --version or an input error.
  const { runAll } = await import(/* webpackMode: "eager" */ '../staging/batch.js')
  const results = await runAll(config, { ...seams, logger, redactor: w.redactor, signal, door: w.door })
  return { results, report: assembleReport(results, clock.now() - started) }
}

/** Write: the report on stderr, --json on stdout, the outputs files; the exit code. */
function write({ files, json }: Configured, { results, report }: Ran, w: Writer): number {
  for (const warning of report.warnings) if (!w.warned.has(warning)) w.err(`warning: ${warning}`)
  for (const e of report.errors) w.err(`error: ${e.title}: ${e.hint}`)
  for (const r of results)
    if (r.stagingUrl) w.err(`Staging URL${results.length > 1 ? ` (site ${r.siteId})` : ''}: ${r.stagingUrl}`)
  w.live.stop()
  w.err(report.finalLine)
  let code: number = report.failed ? EXIT.failed : EXIT.ok
  if (json)
    w.out(
      JSON.stringify(results.length === 1 ? publicResult(results[0]!) : results.map(publicResult), null, 2),
    )
  for (const f of files) {
    const { text, note } = f.render(report.outputs, results)
    try {
      w.writeFile(f.path, text)
      if (note) w.err(`warning: ${note}`)
    } catch (e) {
      w.err(`error: could not write the ${f.flag} file ${f.path}: ${(e as Error).message}`)
      code = EXIT.failed
    }
  }
  return code
}

type Seams = Pick<RunDeps, 'clock' | 'transport' | 'siteGet'>
type Ran = Awaited<ReturnType<typeof runOnce>>
type Configured = Exclude<ReturnType<typeof configure>, number>

/** A file the outputs are written to, and how. */
/** How each outputs file the command line names is written: --dotenv for GitLab's parser, --shell-env for `source`. */
const RENDERS = {
  '--dotenv': dotenvFor,
  '--shell-env': (o: Outputs) => ({ text: envFileText(o), note: null }),
} satisfies Record<string, OutputsFile['render']>

interface OutputsFile {
  flag: '--dotenv' | '--shell-env'
  path: string
  render: (outputs: Outputs, results: Result[]) => { text: string; note: string | null }
}
