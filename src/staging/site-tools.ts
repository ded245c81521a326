import { ApiError } from '../api/errors.js'
import { DeadlineError } from '../api/client.js'
import { CancelledError } from '../clock.js'
import { toolBody, toolsPath, type SiteTool } from '../contract.js'
import { warn, type RunContext } from './context.js'

/**
 * How long a toggle after the push may take when the run's deadline has passed or it was cancelled:
 * the runner's cancel window is 7.5 s and src/cancel.ts exits 5 s after the first signal.
 */
export const CLEANUP_MS = 4000

const WHAT: Record<SiteTool, string> = {
  maintenance_mode: 'maintenance mode',
  password_protection: 'password protection',
}

/**
 * Switches one of production's tools (contract §14): true when the service took it. `late`: the
 * request goes even after the deadline or a cancellation, on a short clock of its own (CLEANUP_MS).
 * Never throws for an answer: a refusal or no answer is false, and the caller says what it means.
 */
export async function switchTool(
  ctx: RunContext,
  tool: SiteTool,
  on: boolean,
  late = false,
): Promise<{ ok: true } | { ok: false; why: string; mayHaveHappened: boolean; stopped?: Error }> {
  const client = late ? ctx.client.cleanup(CLEANUP_MS) : ctx.client
  try {
    await client.call('POST', toolsPath(ctx.siteId), 'setting', { body: toolBody(tool, on) })
    ctx.logger.info(`Site ${ctx.siteId}: ${WHAT[tool]} switched ${on ? 'on' : 'off'}.`)
    return { ok: true }
  } catch (e) {
    if (e instanceof ApiError)
      return { ok: false, why: e.message, mayHaveHappened: e.processing === 'unknown' }
    if (e instanceof DeadlineError)
      return { ok: false, why: 'no answer in time', mayHaveHappened: true, stopped: e }
    if (e instanceof CancelledError)
      return { ok: false, why: 'the run was cancelled', mayHaveHappened: true, stopped: e }
    throw e
  } finally {
    if (client !== ctx.client) ctx.client.absorb(client)
  }
}

/** Maintenance mode off after the push, in every ending; a refusal says what state production is in. */
export async function maintenanceOff(ctx: RunContext): Promise<void> {
  const off = await switchTool(ctx, 'maintenance_mode', false, true)
  if (!off.ok)
    warn(
      ctx,
      `Production (site ${ctx.siteId}) may still be in maintenance mode: switching it off failed (${off.why}). Visitors may see the maintenance page: switch it off in the dashboard.`,
    )
}

/** Password protection back on after a push (spec push rule 2 turns it off). */
export async function protectAgain(ctx: RunContext): Promise<boolean> {
  const on = await switchTool(ctx, 'password_protection', true, true)
  if (!on.ok)
    warn(
      ctx,
      `Production (site ${ctx.siteId}) is now NOT password-protected: switching protection back on failed (${on.why}). Turn it on in the dashboard.`,
    )
  return on.ok
}
