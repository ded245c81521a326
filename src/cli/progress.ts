import { realClock } from '../clock.js'
import { durationText } from '../duration.js'
import { bound } from '../text.js'
import type { ProgressUpdate } from '../types.js'

/**
 * The CLI's live progress line on an interactive terminal: one line under the log, redrawn in place
 * (percentage, elapsed time, estimated time left), cleared before every log line and at the end. In
 * CI logs (no terminal, or CI set) it stays off and the core writes plain lines now and then.
 * Everything drawn is ours: numbers, operation names and site ids (checked inputs).
 */
export class LiveLine {
  readonly enabled: boolean
  private readonly jobs = new Map<string, { update: ProgressUpdate; at: number }>()
  private drawn = false
  private ticker: NodeJS.Timeout | null = null

  constructor(
    private readonly stream: NodeJS.WriteStream,
    env: Record<string, string | undefined> = process.env,
  ) {
    this.enabled = stream.isTTY === true && !env.CI && env.TERM !== 'dumb'
    // However the process ends (a second Ctrl-C, the cancel deadline, an unexpected error), the
    // shell's prompt must not start on the live line: clear it (a terminal write is synchronous).
    if (this.enabled) process.once('exit', () => this.stop())
  }

  /** A log line: above the live line, which is drawn again below it. */
  print(line: string): void {
    this.erase()
    this.stream.write(`${line}\n`)
    this.draw()
  }

  update(update: ProgressUpdate): void {
    if (!this.enabled) return
    if (update.ended) this.jobs.delete(update.siteId)
    else this.jobs.set(update.siteId, { update, at: realClock.now() })
    if (this.jobs.size > 0 && !this.ticker) {
      // The elapsed time moves every second, between answers too.
      this.ticker = setInterval(() => this.draw(), 1000)
      this.ticker.unref()
    }
    if (this.jobs.size === 0) this.stopTicker()
    this.draw()
  }

  /** Clears the line for good (before the last lines of a run). */
  stop(): void {
    this.jobs.clear()
    this.stopTicker()
    this.erase()
  }

  /** The text of the line, or '' when no job runs. */
  render(now = realClock.now()): string {
    const jobs = [...this.jobs.values()]
    if (jobs.length === 0) return ''
    const pct = (u: ProgressUpdate) => (u.percent === null ? '…' : `${Math.round(u.percent)}%`)
    const oldest = Math.max(...jobs.map((j) => j.update.elapsedMs + (now - j.at)))
    if (jobs.length === 1) {
      const { update: u, at } = jobs[0]!
      // Once the estimate is used up, it says nothing rather than "about 0s left" for as long as it lasts.
      const leftMs = u.etaMs === null ? 0 : u.etaMs - (now - at)
      const left = leftMs >= 1000 ? `, about ${durationText(leftMs)} left` : ''
      return `${u.operation} on site ${u.siteId}: ${pct(u)}, ${durationText(oldest)} elapsed${left}`
    }
    const shown = jobs.slice(0, 4).map((j) => `${j.update.siteId} ${pct(j.update)}`)
    const more = jobs.length > 4 ? ` +${jobs.length - 4} more` : ''
    return `${jobs[0]!.update.operation}: ${jobs.length} jobs running (${shown.join(', ')}${more}), ${durationText(oldest)} elapsed`
  }

  private draw(): void {
    if (!this.enabled) return
    const text = this.render()
    if (!text) return this.erase()
    // Shorter than the terminal is wide: a line that wrapped could not be erased with one \r.
    const width = Math.max(1, (this.stream.columns || 80) - 1)
    this.stream.write(`\r\u001b[2K${bound(text, width)}`)
    this.drawn = true
  }

  private erase(): void {
    if (!this.drawn) return
    this.stream.write('\r\u001b[2K')
    this.drawn = false
  }

  private stopTicker(): void {
    if (this.ticker) clearInterval(this.ticker)
    this.ticker = null
  }
}
