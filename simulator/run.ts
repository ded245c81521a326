/** What main.ts does, as a function a test can call: parse, start, print the banner. */
import { parseArgs, USAGE } from './args.js'
import { SIM_SITES, SIM_TOKENS } from './seed.js'
import { start, type Simulator } from './server.js'

const SITE_NOTES: Record<keyof typeof SIM_SITES, string> = {
  eligible: 'eligible, no staging',
  withStaging: 'eligible, has a staging site (s-1002)',
  passwordProtected: 'eligible, password protection on',
  planWithoutStaging: 'plan without staging (create: 403)',
  waas: 'WaaS site (create: 403)',
  clientPortal: 'in a client portal (create: 403)',
}

/** The lines printed on start; the first is `Simulator listening on <url>`. */
export function banner(sim: Simulator): string[] {
  const d = sim.options.durationsMs
  const rate = sim.options.rateLimit
  return [
    `Simulator listening on ${sim.url}`,
    `API root: ${sim.apiUrl}   (pass it as api-url; requests go to ${sim.apiUrl}/v2/...)   admin: ${sim.url}/__sim/state`,
    `Profile: ${sim.options.profile}${sim.options.profile === 'service' ? " (answers shaped like the hosted service's: task row ids, string percentages, 405 on reading staging)" : ' (answers exactly as the API documentation shows them)'}`,
    `Tokens: read-write ${SIM_TOKENS.readWrite}   read-only ${SIM_TOKENS.readOnly}`,
    'Sites:',
    ...Object.entries(SIM_SITES).map(([key, id]) => `  ${id}  ${SITE_NOTES[key as keyof typeof SIM_SITES]}`),
    `Jobs: create ${d.create}ms, pull ${d.pull}ms, push ${d.push}ms, delete ${d.delete}ms, version ${d.version}ms, restore ${d.restore}ms; progress ${sim.options.progress}`,
    `Site versions: ${sim.options.versions} (quota ${sim.options.versionQuota} per site plus 1 in progress); site tools: ${sim.options.tools}`,
    `Rate limit: ${rate ? `${rate.limit} per ${rate.windowMs}ms per token (${rate.kind ?? 'fixed'} window${rate.resetHeader ? `, reset header ${rate.resetHeader}` : ''})` : 'none'}`,
    `Staging sites: ${sim.url}/staging-sites/<id>/ (answer ${sim.options.siteDelayMs}ms after their creation completed)`,
    `Production pages: ${sim.url}/production-sites/<site>/ (its content; 503 in maintenance mode, 401 while password protected)`,
  ]
}

/** Parses `argv`, starts the simulator and prints the banner; null after --help. Throws ArgsError. */
export async function runSimulator(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  print: (line: string) => void,
): Promise<Simulator | null> {
  const parsed = parseArgs(argv, env)
  if (parsed.help) {
    print(USAGE)
    return null
  }
  const sim = await start(parsed.options)
  for (const line of banner(sim)) print(line)
  return sim
}
