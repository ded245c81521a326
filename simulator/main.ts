/**
 * The simulator's command: `npm run simulator -- --port 0`. Prints `Simulator listening on <url>`,
 * then serves until SIGINT or SIGTERM. The argument parsing lives in args.ts (tested there).
 */
import { ArgsError } from './args.js'
import { runSimulator } from './run.js'

try {
  const sim = await runSimulator(process.argv.slice(2), process.env, (line) => console.log(line))
  if (sim) {
    const shutdown = (signal: string): void => {
      console.log(`Simulator stopping (${signal})`)
      void sim.stop().then(() => process.exit(0))
    }
    process.once('SIGINT', () => shutdown('SIGINT'))
    process.once('SIGTERM', () => shutdown('SIGTERM'))
  }
} catch (error) {
  console.error(`simulator: ${(error as Error).message}`)
  process.exit(error instanceof ArgsError ? 2 : 1)
}
