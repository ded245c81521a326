/**
 * Issue 24 §8: the outputs files are safe to use as people use them. --shell-env's file is `source`d in bash
 * and sh (CircleCI's $BASH_ENV, Jenkins): hostile server text in any value runs nothing and reads back
 * as it was written. --dotenv stays valid for GitLab's dotenv parser: one `KEY=value` line per output,
 * no empty line, no line break or control character in a value.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { dotenvText, envFileText, shellQuoted } from '../../src/cli/dotenv.js'
import { failedOutputs, type Outputs } from '../../src/report/outputs.js'
import { neutralizeCommands } from '../../src/text.js'

const dir = mkdtempSync(path.join(tmpdir(), 'env-file-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const PWNED = path.join(dir, 'pwned')
/** Server text that would run `touch PWNED` if a shell expanded or split it. */
const HOSTILE = [
  `$(touch ${PWNED})`,
  `\`touch ${PWNED}\``,
  `'; touch ${PWNED}; echo '`,
  `"; touch ${PWNED}; echo "`,
  `it's $HOME and \${HOME} and \\$(x) !! !$`,
  `line one\ntouch ${PWNED}\nline three`,
  `carriage\r$(touch ${PWNED})`,
  `\u0000nul then $(touch ${PWNED})`,
  `'\\''$(touch ${PWNED})'`,
  `\u001b[31mred\u001b[0m and \u2028 separator`,
]

function outputs(message: string): Outputs {
  return {
    ...failedOutputs(message),
    'staging-url': `https://s.example/?a=b&c='d'`,
    results: JSON.stringify([{ message }]),
  }
}

const SHELLS = ['bash', 'sh'].filter((s) => {
  try {
    execFileSync(s, ['-c', 'true'])
    return true
  } catch {
    return false
  }
})

describe('--shell-env: sourcing it runs nothing', () => {
  it('bash and sh are there to test with', () => {
    expect(SHELLS).toContain('bash')
    expect(SHELLS).toContain('sh')
  })
  it.each(SHELLS.flatMap((shell) => HOSTILE.map((text) => [shell, text] as const)))(
    '%s: %j',
    (shell, text) => {
      const file = path.join(dir, 'out.env')
      writeFileSync(file, envFileText(outputs(text)))
      // Source it, then print each value back NUL-separated, as the shell holds it.
      const printed = execFileSync(
        shell,
        ['-c', '. "$1" && printf "%s\\0" "$MESSAGE" "$STAGING_URL" "$RESULTS" "$RESULT"', 'sh', file],
        { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: '/home/someone' } },
      ).split('\0')
      expect(existsSync(PWNED)).toBe(false)
      const expected = outputs(text)
      // Each value reads back as the dotenv file writes it (one line), nothing expanded.
      const dotenvValue = (key: string) => new RegExp(`^${key}=(.*)$`, 'm').exec(dotenvText(expected))![1]!
      expect(printed.slice(0, 4)).toEqual([
        dotenvValue('MESSAGE'),
        dotenvValue('STAGING_URL'),
        dotenvValue('RESULTS'),
        'failed',
      ])
      // And it was exported: a child of the shell sees it.
      const child = execFileSync(shell, ['-c', '. "$1" && sh -c \'printf "%s" "$RESULT"\'', 'sh', file], {
        encoding: 'utf8',
      })
      expect(child).toBe('failed')
    },
  )
  it('quotes a single quote the POSIX way', () => {
    expect(shellQuoted(`it's`)).toBe(`'it'\\''s'`)
    expect(shellQuoted('')).toBe(`''`)
  })
})

describe("--dotenv: valid for GitLab's dotenv parser", () => {
  it.each(HOSTILE)('%j', (text) => {
    const lines = dotenvText(outputs(text)).split('\n')
    expect(lines.pop()).toBe('')
    expect(lines).toHaveLength(Object.keys(outputs(text)).length)
    for (const line of lines) {
      // GitLab: KEY=value, the key ASCII letters, digits and _; no empty line; one line each.
      expect(line).toMatch(/^[A-Z0-9_]+=/)
      // eslint-disable-next-line no-control-regex -- the point: no control character reaches GitLab
      expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/)
    }
  })
})

describe('both files keep a logging command the CLI made inert', () => {
  it.each(['##vso[task.complete result=Succeeded]', '::error::x', '##[error]x'])('%s', (command) => {
    // As the redactor writes server text: neutralizeCommands put a zero-width space in it.
    const message = neutralizeCommands(`said ${command}`)
    const lead = neutralizeCommands(command)
    for (const text of [
      dotenvText({ ...failedOutputs(message), 'staging-url': lead }),
      envFileText({ ...failedOutputs(message), 'staging-url': lead }),
    ]) {
      expect(text).not.toMatch(/##(vso)?\[/)
      expect(text).not.toMatch(/[='](::)/)
      expect(text).toContain('\u200b')
    }
  })
})
