import { ApiError } from '../api/errors.js'
import { DeadlineError } from '../api/client.js'
import { CancelledError } from '../clock.js'
import { saysPlan, toolBody, toolsPath, type SiteTool } from '../contract.js'
import type { RunContext } from './context.js'
import { at, learnt } from './record.js'

/** How long the toggles after the push may take, together, past the deadline or a cancel (src/cancel.ts exits 5 s after it). */
export const CLEANUP_MS = 4000

/** Switches one of production's tools (contract §14). `late`: it goes even after the deadline or a cancel, on a
 * clock of its own (CLEANUP_MS). Never throws for an answer: the caller says what a refusal means. */
export async function switchTool(
  ctx: RunContext,
  tool: SiteTool,
  on: boolean,
  late = false,
): Promise<
  { ok: true } | { ok: false; why: string; mayHaveHappened: boolean; stopped?: Error; token?: boolean }
> {
  const client = late ? ctx.client.cleanup(CLEANUP_MS) : ctx.client
  const what = tool.replace('_', ' ') // `maintenance mode`, `password protection`
  at(ctx, `switching ${what} ${on ? 'on' : 'off'}`)
  const sentBefore = client.sent.length
  try {
    await client.call('POST', toolsPath(ctx.siteId), 'setting', { body: toolBody(tool, on) })
    ctx.logger.info(`Site ${ctx.siteId}: ${what} switched ${on ? 'on' : 'off'}.`)
    return { ok: true }
  } catch (e) {
    if (e instanceof ApiError)
      return {
        ok: false,
        why: e.message,
        mayHaveHappened: e.processing === 'unknown',
        // Refused as a token's right, not a plan's (a read-only token): a token problem on any step.
        token: e.kind === 'forbidden' && !saysPlan(`${e.serverMessage} ${e.message}`),
      }
    if (!(e instanceof DeadlineError) && !(e instanceof CancelledError)) throw e
    // Stopped: it may have happened only if it left, unless all its tries were answered "not processed".
    const said = (e as DeadlineError).lastError ?? client.waitingAfter
    const never = said?.processing === 'not-processed' && !said.afterUnknown
    const why = e instanceof DeadlineError ? 'no answer in time' : 'the run was cancelled'
    return { ok: false, why, mayHaveHappened: client.sent.length > sentBefore && !never, stopped: e }
  } finally {
    if (client !== ctx.client) ctx.client.absorb(client)
  }
}

/** Maintenance mode off after the push, in every ending: the record says what state production is in. */
export async function maintenanceOff(ctx: RunContext): Promise<void> {
  const off = await switchTool(ctx, 'maintenance_mode', false, true)
  const sure = ctx.record.production.maintenance === 'on'
  learnt(ctx, { maintenance: off.ok ? 'off' : off.mayHaveHappened || !sure ? 'unknown' : 'on' })
}

/** Password protection back on after a push job ended (spec push rule 2 turns it off). */
export async function protectAgain(ctx: RunContext): Promise<void> {
  const on = await switchTool(ctx, 'password_protection', true, true)
  learnt(ctx, { protection: on.ok ? 'on-again' : on.mayHaveHappened ? 'unknown' : 'off' })
}
