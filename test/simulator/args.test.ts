import { describe, expect, it } from '@jest/globals'
import { ArgsError, parseArgs, parseDuration, USAGE } from '../../simulator/args.js'
import { MESSAGE_KEYS, t } from '../../simulator/i18n.js'
import { runSimulator } from '../../simulator/run.js'
import { SIM_TOKENS } from '../../simulator/server.js'

describe('parseArgs', () => {
  it('defaults to port 0 and nothing else', () => {
    expect(parseArgs([], {})).toEqual({ help: false, options: { port: 0 } })
  })

  it('reads --port in both forms, and PORT from the environment when --port is absent', () => {
    expect(parseArgs(['--port', '8123'], {})).toEqual({ help: false, options: { port: 8123 } })
    expect(parseArgs(['--port=8124'], { PORT: '9000' })).toEqual({ help: false, options: { port: 8124 } })
    expect(parseArgs([], { PORT: '9001' })).toEqual({ help: false, options: { port: 9001 } })
    expect(parseArgs(['--port', '0'], { PORT: '9001' })).toEqual({ help: false, options: { port: 0 } })
  })

  it('reads every option', () => {
    const parsed = parseArgs(
      [
        '--realistic',
        '--rate-limit',
        '120',
        '--rate-window',
        '60s',
        '--retry-after=http-date',
        '--progress',
        'linear',
        '--busy-status',
        '423',
        '--no-task-ids',
        '--no-probe',
        '--task-visibility-delay',
        '5s',
        '--duration',
        'create=10s',
        '--duration=push=500ms',
        '--profile',
        'service',
        '--site-delay=1500ms',
      ],
      {},
    )
    expect(parsed).toEqual({
      help: false,
      options: {
        port: 0,
        realistic: true,
        rateLimit: { limit: 120, windowMs: 60_000, retryAfter: 'http-date', kind: 'fixed' },
        progress: 'linear',
        busyStatus: 423,
        taskIds: false,
        probe: false,
        taskVisibilityDelayMs: 5000,
        durationsMs: { create: 10_000, push: 500 },
        profile: 'service',
        siteDelayMs: 1500,
      },
    })
  })

  it('defaults the rate window to 60 seconds and Retry-After to seconds', () => {
    const parsed = parseArgs(['--rate-limit', '5'], {})
    expect(parsed).toEqual({
      help: false,
      options: { port: 0, rateLimit: { limit: 5, windowMs: 60_000, retryAfter: 'seconds', kind: 'fixed' } },
    })
  })

  it('reads the limiter kind, the reset header, a spread of job lengths and answers without a URL', () => {
    const parsed = parseArgs(
      [
        '--rate-limit=60',
        '--rate-kind',
        'sliding',
        '--rate-reset=on-429',
        '--duration-spread',
        '0.3',
        '--no-url-in-answers',
      ],
      {},
    )
    expect(parsed).toEqual({
      help: false,
      options: {
        port: 0,
        rateLimit: {
          limit: 60,
          windowMs: 60_000,
          retryAfter: 'seconds',
          kind: 'sliding',
          resetHeader: 'on-429',
        },
        durationSpread: 0.3,
        urlInAnswers: false,
      },
    })
    expect(() => parseArgs(['--rate-limit=6', '--rate-kind=leaky'], {})).toThrow(/--rate-kind/)
    expect(() => parseArgs(['--rate-limit=6', '--rate-reset=never'], {})).toThrow(/--rate-reset/)
    expect(() => parseArgs(['--duration-spread=1.5'], {})).toThrow(/--duration-spread/)
    expect(() => parseArgs(['--rate-kind=sliding'], {})).toThrow(/need --rate-limit/)
  })

  it('answers --help and -h', () => {
    expect(parseArgs(['--port', '1', '--help'], {})).toEqual({ help: true })
    expect(parseArgs(['-h'], {})).toEqual({ help: true })
    expect(USAGE).toMatch(/--realistic/)
  })

  it.each([
    [['--port'], /needs a value/],
    [['--port', 'abc'], /integer/],
    [['--port', '70000'], /from 0 to 65535/],
    [['--progress', 'fast'], /nonlinear, linear or none/],
    [['--busy-status', '500'], /409 or 423/],
    [['--rate-window', '10s'], /need --rate-limit/],
    [['--duration', 'nap=1s'], /KIND=TIME/],
    [['--rate-limit', '5', '--rate-window', 'soon'], /not a duration/],
    [['--host', '0.0.0.0'], /unknown argument/],
    [['--profile', 'laravel'], /--profile: spec or service, got laravel/],
    [['--profile'], /--profile needs a value/],
    [['--site-delay', 'later'], /not a duration/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseArgs(argv, {})).toThrow(ArgsError)
    expect(() => parseArgs(argv, {})).toThrow(message)
  })

  it('refuses a bad PORT', () => {
    expect(() => parseArgs([], { PORT: 'eighty' })).toThrow(/PORT must be an integer/)
  })

  it('parses durations in ms, s and m, plain numbers as seconds', () => {
    expect(parseDuration('500ms')).toBe(500)
    expect(parseDuration('1.5s')).toBe(1500)
    expect(parseDuration('2m')).toBe(120_000)
    expect(parseDuration('7')).toBe(7000)
  })
})

describe('runSimulator (what main.ts runs)', () => {
  it('starts on 127.0.0.1, prints the listening line, tokens and sites, and serves', async () => {
    const lines: string[] = []
    const sim = await runSimulator(['--port', '0', '--rate-limit', '50'], {}, (line) => lines.push(line))
    try {
      expect(sim).not.toBeNull()
      expect(lines[0]).toMatch(/^Simulator listening on http:\/\/127\.0\.0\.1:\d+$/)
      expect(lines[0]).toBe(`Simulator listening on ${sim!.url}`)
      const text = lines.join('\n')
      expect(text).toContain(SIM_TOKENS.readWrite)
      expect(text).toContain(SIM_TOKENS.readOnly)
      for (const id of ['1001', '1002', '1003', '2001', '3001', '4001']) expect(text).toContain(id)
      const reply = await fetch(`${sim!.url}/v2/sites`, {
        headers: { Authorization: `Bearer ${SIM_TOKENS.readWrite}` },
      })
      expect(reply.status).toBe(200)
      expect(reply.headers.get('x-ratelimit-limit')).toBe('50')
    } finally {
      await sim?.stop()
    }
  })

  it('prints the API root a user passes as api-url, per profile, and the profile', async () => {
    for (const [profile, suffix] of [
      ['spec', ''],
      ['service', '/api'],
    ] as const) {
      const lines: string[] = []
      const sim = await runSimulator(['--profile', profile, '--site-delay', '2s'], {}, (line) =>
        lines.push(line),
      )
      try {
        expect(sim!.apiUrl).toBe(`${sim!.url}${suffix}`)
        const root = lines.find((l) => l.startsWith('API root: '))
        expect(root?.split(/\s+/)[2]).toBe(sim!.apiUrl)
        expect(lines.some((l) => l.startsWith(`Profile: ${profile} `))).toBe(true)
        expect(lines.join('\n')).toContain('answer 2000ms after their creation completed')
        const reply = await fetch(`${sim!.apiUrl}/v2/sites`, {
          headers: { Authorization: `Bearer ${SIM_TOKENS.readWrite}`, Accept: 'application/json' },
        })
        expect(reply.status).toBe(200)
      } finally {
        await sim?.stop()
      }
    }
  })

  it('prints the usage and starts nothing with --help', async () => {
    const lines: string[] = []
    expect(await runSimulator(['--help'], {}, (line) => lines.push(line))).toBeNull()
    expect(lines).toEqual([USAGE])
  })
})

describe('messages', () => {
  it('has an English and a Spanish text for every message, and they differ', () => {
    for (const key of MESSAGE_KEYS) {
      const en = t('en', key)
      const es = t('es', key)
      expect([key, en.length > 0, es.length > 0, en !== es]).toEqual([key, true, true, true])
    }
  })
})
