/**
 * Runs a command with its stderr on a pseudo-terminal, as a person running `site-staging` in a
 * terminal sees it, through Python's `pty` module (python3 is on GitHub's runners and most
 * machines; no native npm module needed). The command's stdout stays a pipe, as in
 * `site-staging ... --json > result.json`.
 *
 * The transcript is the bytes the command wrote to the terminal, unchanged: output post-processing
 * (OPOST, which turns "\n" into "\r\n") is off, so every "\r" in it was written by the command.
 */
import { spawn } from 'node:child_process'

const HELPER = String.raw`
import fcntl, os, pty, struct, subprocess, sys, termios
cols = int(sys.argv[1])
master, slave = pty.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack('HHHH', 24, cols, 0, 0))
attrs = termios.tcgetattr(slave)
attrs[1] &= ~termios.OPOST
termios.tcsetattr(slave, termios.TCSANOW, attrs)
# The command's stdout is this helper's stderr (fd 2); its stderr is the terminal.
child = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=2, stderr=slave)
os.close(slave)
out = os.fdopen(1, 'wb', buffering=0)
while True:
    try:
        data = os.read(master, 65536)
    except OSError:
        break
    if not data:
        break
    out.write(data)
sys.exit(child.wait())
`

export interface PtyResult {
  code: number | null
  /** What the command wrote to the terminal (its stderr). */
  terminal: string
  /** Its stdout (a pipe). */
  stdout: string
}

export function runOnPty(
  command: string[],
  options: { columns?: number; env: Record<string, string>; killAfterMs?: number },
): Promise<PtyResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-c', HELPER, String(options.columns ?? 100), ...command], {
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let terminal = ''
    let stdout = ''
    child.stdout.on('data', (d: Buffer) => (terminal += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stdout += d.toString()))
    const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 90_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(killer)
      resolve({ code, terminal, stdout })
    })
  })
}

/**
 * What a terminal shows after these bytes, for the sequences the CLI may write: printable text,
 * "\n" (a new line: the terminal's ONLCR would add the carriage return), "\r" (back to the start of
 * the line) and ESC[2K (erase the whole line, the cursor stays). `lines` are the lines above the
 * cursor's line, each as it was when a "\n" left it (a live line that ever ended up in the scrollback
 * shows there); `current` is the cursor's line. Any other escape or control character is an error.
 */
export function screen(bytes: string): { lines: string[]; current: string } {
  const lines: string[] = []
  let current: string[] = []
  let col = 0
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!
    if (c === '\n') {
      lines.push(current.join(''))
      current = []
      col = 0
    } else if (c === '\r') col = 0
    else if (c === '\u001b') {
      if (bytes.startsWith('\u001b[2K', i)) {
        current = []
        i += 3
      } else throw new Error(`unexpected escape sequence at ${i}: ${JSON.stringify(bytes.slice(i, i + 8))}`)
    } else if (c < ' ' || c === '\u007f')
      throw new Error(`unexpected control character ${JSON.stringify(c)} at ${i}`)
    else {
      while (current.length < col) current.push(' ')
      current[col++] = c
    }
  }
  return { lines, current: current.join('') }
}
