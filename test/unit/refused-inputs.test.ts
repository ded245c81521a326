/**
 * Issue 24 §6: an input that is refused (a URL that is not http(s), does not parse, or carries
 * credentials) is never quoted with its credentials: not in the action's message (InputError), not in
 * the CLI's (describeInputError, UsageError), whichever input it was given to.
 */
import { describe, expect, it } from '@jest/globals'
import {
  InputError,
  parseActionInputs,
  parseConfig,
  type ActionRawInputs,
  type RawInputs,
} from '../../src/inputs/index.js'
import { UsageError, describeInputError, parse, rawInputs } from '../../src/cli/args.js'
import { ciEnv } from '../../src/cli/ci-env.js'
import { PipeVariableError, argsFrom } from '../../src/cli/pipe.js'
import { echoed } from '../../src/secrets/urls.js'
import { Redactor } from '../../src/secrets/redactor.js'

const SECRET = 'Hunter2Pass'
const base: RawInputs = {
  operation: 'create',
  'site-id': '1001',
  'api-token': 'tok_0123456789',
  'api-url': 'https://api.example.com',
}

/** Values that carry SECRET as a credential, each refused by every input below. */
const HOSTILE = [
  `https://user:${SECRET}@host.example`,
  `ftp://user:${SECRET}@host.example/x`,
  `javascript://user:${SECRET}@host.example`,
  `user:${SECRET}@host.example`,
  `https://user:${SECRET} x@host.example`,
  `https://user:${SECRET}/x@host.example`,
  `https://${SECRET}@exa mple.com`,
  `https://host.example/?token=${SECRET}`,
  `https://host.example/?a=1&api_key=${SECRET}&b=2`,
  `not a url ?password=${SECRET}`,
]
const INPUTS = [
  'operation',
  'site-id',
  'api-url',
  'timeout',
  'if-exists',
  'if-missing',
  'if-busy',
  'staging-url',
  'production-url',
] as const

function refusal(raw: RawInputs): InputError {
  try {
    parseConfig({ ...base, operation: 'push', ...raw })
  } catch (e) {
    if (e instanceof InputError) return e
    throw e
  }
  throw new Error(`accepted: ${JSON.stringify(raw)}`)
}

describe('a refused input is never quoted with its credentials', () => {
  it.each(INPUTS.flatMap((input) => HOSTILE.map((value) => [input, value] as const)))(
    '%s = %s',
    (input, value) => {
      const e = refusal({ [input]: value })
      expect(e.input).toBe(input)
      for (const text of [e.message, e.detailIn('cli'), describeInputError(e)]) {
        expect(text).not.toContain(SECRET)
        expect(text).not.toContain('Hunter2')
      }
    },
  )

  it('staging-url and production-url carrying a credential query parameter are refused, naming it only', () => {
    const e = refusal({ 'production-url': `https://live.example/?preview_token=${SECRET}` })
    expect(e.message).toBe(
      'Input "production-url": must not carry credentials in its query ("preview_token=…"): it is shown in logs, outputs and summaries',
    )
    // Checked once the push has ended: a push not waited for has not.
    expect(refusal({ wait: 'false', 'production-url': 'https://live.example/' }).message).toMatch(
      /^Input "production-url": acts when the push has ended: it needs wait: true/,
    )
    // One live page is one site's: refused with several sites (one failing page restored them all).
    expect(refusal({ 'site-id': '1001,1002', 'production-url': 'https://live.example/' }).message).toMatch(
      /^Input "production-url": is one site's live page: give one site-id with it/,
    )
    // Named in each door's words (the CLI's flag), as the refusals beside it are.
    const oneStaging = refusal({ 'site-id': '1001,1002', 'staging-url': 'https://stg.example/' })
    expect(oneStaging.detailIn('cli')).toContain('give one --site-id with it')
    // In the fragment (`#access_token=`, OAuth's implicit flow) as in the query.
    expect(refusal({ 'staging-url': `https://stg.example/#access_token=${SECRET}` }).message).toMatch(
      /^Input "staging-url": must not carry credentials in its fragment \("access_token=…"\)/,
    )
    // An ordinary query is kept.
    expect(
      parseConfig({ ...base, operation: 'push', 'production-url': 'https://live.example/?lang=es' })
        .productionUrl,
    ).toBe('https://live.example/?lang=es')
  })

  it('api-url with user-info is refused as credentials, with or without a scheme', () => {
    for (const v of [`user:${SECRET}@api.example.com`, `https://user:${SECRET}@api.example.com`])
      expect(refusal({ 'api-url': v }).detailIn('cli')).toBe(
        'must not contain credentials (the token goes in the STAGING_API_TOKEN environment variable)',
      )
  })

  it('what is quoted still says what was typed, without the credentials', () => {
    expect(echoed(`https://user:${SECRET}@host.example/a`)).toBe('https://***@host.example/a')
    expect(echoed(`user:${SECRET}@host`)).toBe('***@host')
    expect(echoed(`https://host/?token=${SECRET}&page=2`)).toBe('https://host/?token=***&page=2')
    expect(echoed('1001x')).toBe('1001x')
    // Cut after the removal: nothing of the password is left at the cut.
    expect(echoed(`https://user:${SECRET.repeat(20)}@host`, 20)).toBe('https://***@host')
  })
})

describe("the CLI's usage errors", () => {
  const usage = (argv: string[]): string => {
    try {
      rawInputs(parse(argv), {})
    } catch (e) {
      if (e instanceof UsageError) return e.message
      throw e
    }
    throw new Error('accepted')
  }
  it.each([
    [['create', `https://user:${SECRET}@host`, '--site-id', '1']],
    [['create', `user:${SECRET}@host`]],
    [['create', '--site-id', '1', `--nope=https://u:${SECRET}@h`]],
    [['create', `-u:${SECRET}@h`]],
    [['create', '--json=' + `https://u:${SECRET}@h`]],
  ])('%j', (argv) => {
    const text = usage(argv)
    expect(text.length).toBeGreaterThan(0)
    expect(text).not.toContain(SECRET)
  })
})

/** Values that carry SECRET in user-info or in a credential query parameter (case-insensitive check below). */
const CARRIERS = [`https://a:${SECRET}@c.d`, `x?token=${SECRET}`, `https://c.d/?api_key=${SECRET}`]
const leaks = (text: string): boolean => text.toLowerCase().includes(SECRET.toLowerCase())

describe("the action's GitHub inputs and operation: a refusal never quotes a credential", () => {
  const refusedAction = (raw: ActionRawInputs): InputError => {
    try {
      parseActionInputs({ ...base, ...raw })
    } catch (e) {
      if (e instanceof InputError) return e
      throw e
    }
    throw new Error(`accepted: ${JSON.stringify(raw)}`)
  }
  const cases: [string, (v: string) => ActionRawInputs][] = [
    ['operation', (v) => ({ operation: v })],
    ['if-staging-taken', (v) => ({ 'if-staging-taken': v })],
    ['pr-comment', (v) => ({ 'pr-comment': v })],
    ['comment-author', (v) => ({ 'comment-author': v })],
    // Refused for its new line; the name itself may be any text.
    ['deployment-environment', (v) => ({ 'deployment-environment': `${v}\nx` })],
    // A github-token is never refused for its text: the refusal of another input must not quote it.
    ['if-staging-taken', (v) => ({ 'github-token': v, 'if-staging-taken': 'wait' })],
    // The release path reads the GitHub inputs too.
    ['if-staging-taken', (v) => ({ operation: 'release', 'if-staging-taken': v })],
  ]
  it.each(cases.flatMap(([input, raw]) => CARRIERS.map((v) => [input, v, raw] as const)))(
    '%s refused, value %s',
    (input, value, raw) => {
      const e = refusedAction(raw(value))
      expect(e.input).toBe(input)
      for (const text of [e.message, e.detailIn('cli'), describeInputError(e)])
        expect(leaks(text)).toBe(false)
    },
  )

  it('what is quoted still shows what was typed', () => {
    expect(refusedAction({ 'if-staging-taken': `x?token=${SECRET}` }).message).toBe(
      'Input "if-staging-taken": "x?token=***" is not one of take, wait, fail',
    )
  })
})

describe("the Bitbucket pipe's variables and --token-variable: a refusal never quotes a credential", () => {
  const pipeEnv = { STAGING_API_TOKEN: 'tok_0123456789', OPERATION: 'create', SITE_ID: '1001' }
  const pipeRefusal = (env: Record<string, string>): string => {
    try {
      argsFrom({ ...pipeEnv, ...env })
    } catch (e) {
      if (e instanceof PipeVariableError) return e.message
      throw e
    }
    throw new Error(`accepted: ${JSON.stringify(env)}`)
  }
  it.each(
    ['OPERATION', 'WAIT', 'DRY_RUN', 'FAIL_FAST', 'WAIT_FOR_URL', 'DEBUG'].flatMap((n) =>
      CARRIERS.map((v) => [n, v]),
    ),
  )('%s = %s', (name, value) => {
    const text = pipeRefusal({ [name]: value })
    expect(text).toMatch(new RegExp(`^${name}: "`))
    expect(leaks(text)).toBe(false)
  })

  it.each(CARRIERS)('--token-variable %s', (value) => {
    const error = ciEnv(['pull', '--token-variable', value], {}).error ?? ''
    expect(error).toMatch(/^--token-variable: ".*" is not a variable name\.$/)
    expect(leaks(error)).toBe(false)
  })
})

describe("the run's token in a refused value, longer than the quote: masked before it is cut", () => {
  // The framework's token shape (id|secret): cut at 40 characters, 36 of the secret were quoted.
  const token = '12|AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd'
  new Redactor().add(token)
  const secretPart = (text: string) => /abcdefghijklmnop/i.test(text)
  const cases: [string, RawInputs][] = [
    ['if-exists', { 'if-exists': token }],
    ['operation (lower-cased by the choice)', { operation: token }],
    ['timeout', { timeout: token }],
    ['timeout, the secret part alone', { timeout: token.slice(3) }],
  ]
  it.each(cases)('%s', (_, raw) => {
    const e = refusal(raw)
    for (const text of [e.message, describeInputError(e)]) expect(secretPart(text)).toBe(false)
    expect(e.message).toMatch(/"\*\*\*"/)
  })
  it('echoed: the token whole, in another case, or inside a longer value', () => {
    expect(echoed(token, 40)).toBe('***')
    expect(echoed(token.toUpperCase(), 40)).toBe('***')
    expect(echoed(`x ${token} y`, 20)).toBe('x *** y')
  })
})
