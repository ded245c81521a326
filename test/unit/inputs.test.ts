import { describe, expect, it } from '@jest/globals'
import { InputError, normaliseApiUrl, parseConfig, type RawInputs } from '../../src/inputs/index.js'
import { parseDuration } from '../../src/duration.js'

const base: RawInputs = {
  operation: 'create',
  'site-id': '1001',
  'api-token': 'tok_0123456789',
  'api-url': 'https://api.example.com',
}
const fails = (raw: RawInputs) => {
  try {
    parseConfig({ ...base, ...raw })
  } catch (e) {
    expect(e).toBeInstanceOf(InputError)
    return e as InputError
  }
  throw new Error('expected an InputError')
}

describe('parseConfig', () => {
  it('fills the defaults of action.yml', () => {
    const c = parseConfig(base)
    expect(c).toMatchObject({
      operation: 'create',
      siteIds: ['1001'],
      apiUrl: 'https://api.example.com/v2',
      wait: true,
      timeoutMs: 30 * 60_000,
      language: 'en',
      maxRetries: 5,
      ifExists: 'fail',
      ifMissing: 'fail',
      ifBusy: 'wait',
      dryRun: false,
      concurrency: 100,
      failFast: false,
    })
  })
  it("uses the hosted service's API root when api-url is absent or empty", () => {
    const { 'api-url': _absent, ...withoutUrl } = base
    expect(parseConfig(withoutUrl).apiUrl).toBe('https://app.instawp.io/api/v2')
    expect(parseConfig({ ...base, 'api-url': '  ' }).apiUrl).toBe('https://app.instawp.io/api/v2')
    expect(parseConfig({ ...base, 'api-url': 'http://localhost:8099' }).apiUrl).toBe(
      'http://localhost:8099/v2',
    )
  })
  it('accepts reset as another name for pull, in any case', () => {
    expect(parseConfig({ ...base, operation: 'Reset' }).operation).toBe('pull')
    expect(parseConfig({ ...base, operation: ' PUSH ' }).operation).toBe('push')
  })
  it('takes up to 1000 site ids in one step, all at once if asked', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => String(10_000 + i))
    const c = parseConfig({ ...base, 'site-id': ids.join('\n'), concurrency: '1000' })
    expect(c.siteIds).toHaveLength(1000)
    expect(c.concurrency).toBe(1000)
  })
  it('splits several site ids on newlines and commas', () => {
    expect(parseConfig({ ...base, 'site-id': '1001,1002\n 1003 \n' }).siteIds).toEqual([
      '1001',
      '1002',
      '1003',
    ])
  })
  it.each([
    ['operation', { operation: 'destroy' }, /"destroy" is not one of create, pull, push, delete, status/],
    ['site-id', { 'site-id': '../1001' }, /not a site id/],
    ['site-id', { 'site-id': '1001/staging' }, /not a site id/],
    ['site-id', { 'site-id': 'https://evil.example/1' }, /not a site id/],
    ['site-id', { 'site-id': 'a'.repeat(65) }, /not a site id/],
    ['site-id', { 'site-id': '1001;x' }, /"x" is not a site id/],
    ['site-id', { 'site-id': '1001:x' }, /"1001:x" is not a site id/],
    ['site-id', { 'site-id': '1001, 1002, x9' }, /"x9" is not a site id/],
    ['site-id', { 'site-id': '1001 x' }, /"x" is not a site id/],
    ['site-id', { 'site-id': 'staging' }, /"staging" is not a site id/],
    ['site-id', { 'site-id': '-1' }, /"-1" is not a site id/],
    ['site-id', { 'site-id': '1e3' }, /"1e3" is not a site id/],
    ['site-id', { 'site-id': '1001%2F..' }, /not a site id/],
    ['site-id', { 'site-id': '1'.repeat(21) }, /not a site id/],
    ['site-id', { 'site-id': '１００１' }, /not a site id/],
    ['site-id', { 'site-id': '1001,1001' }, /more than once/],
    ['site-id', { 'site-id': ' ' }, /required/],
    ['api-token', { 'api-token': '' }, /required/],
    ['api-token', { 'api-token': 'abc def' }, /spaces/],
    ['api-url', { 'api-url': 'http://api.example.com' }, /must use https/],
    ['api-url', { 'api-url': 'ftp://api.example.com' }, /must use https/],
    ['api-url', { 'api-url': 'not a url' }, /not a URL/],
    ['api-url', { 'api-url': 'https://user:pw@api.example.com' }, /credentials/],
    ['wait', { wait: 'yes' }, /true or false/],
    ['timeout', { timeout: 'forever' }, /not a duration/],
    ['timeout', { timeout: '0s' }, /from 1s to 6h/],
    ['timeout', { timeout: '7h' }, /from 1s to 6h/],
    ['language', { language: 'fr' }, /en, es/],
    ['max-retries', { 'max-retries': '-1' }, /whole number/],
    ['max-retries', { 'max-retries': '21' }, /at most 20/],
    ['if-exists', { 'if-exists': 'overwrite' }, /fail, skip, recreate/],
    ['if-missing', { 'if-missing': 'recreate' }, /fail, skip/],
    ['if-busy', { 'if-busy': 'queue' }, /wait, fail/],
    ['concurrency', { concurrency: '0' }, /at least 1/],
    ['concurrency', { concurrency: '1001' }, /at most 1000/],
    [
      'site-id',
      { 'site-id': Array.from({ length: 1001 }, (_, i) => String(10_000 + i)).join(',') },
      /1001 sites; at most 1000/,
    ],
  ])('refuses a bad %s, naming it', (input, raw, message) => {
    const e = fails(raw as RawInputs)
    expect(e.input).toBe(input)
    expect(e.message).toContain(`Input "${input}"`)
    expect(e.message).toMatch(message)
  })
})

describe('normaliseApiUrl', () => {
  it.each([
    ['https://api.example.com', 'https://api.example.com/v2'],
    ['https://api.example.com/', 'https://api.example.com/v2'],
    ['https://api.example.com/v2', 'https://api.example.com/v2'],
    ['https://api.example.com/v2///', 'https://api.example.com/v2'],
    ['https://example.com/api', 'https://example.com/api/v2'],
    ['http://127.0.0.1:8787', 'http://127.0.0.1:8787/v2'],
    ['http://localhost:8787/v2/', 'http://localhost:8787/v2'],
    ['http://[::1]:8787', 'http://[::1]:8787/v2'],
  ])('%s -> %s', (input, expected) => {
    expect(normaliseApiUrl(input)).toBe(expected)
  })
})

describe('parseDuration', () => {
  it.each([
    ['90s', 90_000],
    ['20m', 1_200_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['45', 45_000],
    ['1500ms', 1500],
  ])('%s = %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms)
  })
  it('refuses garbage', () => {
    for (const bad of ['', 'm', '10 fortnights', '5d', '1h-2m', 'h1'])
      expect(() => parseDuration(bad)).toThrow()
  })
  it("refuses a unit named like an object's own property (no NaN timeout)", () => {
    for (const bad of ['5constructor', '1tostring', '2valueof'])
      expect(() => parseDuration(bad)).toThrow('bad duration')
    expect(() => parseConfig({ ...base, timeout: '5constructor' })).toThrow('is not a duration')
  })
})

describe('inputs that forgive what users type (issue 11)', () => {
  it('site ids separated by spaces, commas, semicolons or newlines', () => {
    expect(parseConfig({ ...base, 'site-id': '1001 1002, 1003;1004\n1005' }).siteIds).toEqual([
      '1001',
      '1002',
      '1003',
      '1004',
      '1005',
    ])
  })
  it.each([
    ['30min', 30 * 60_000],
    ['30 min', 30 * 60_000],
    ['2 hours', 2 * 3_600_000],
    ['1 h 30 min', 90 * 60_000],
    ['90 seconds', 90_000],
    ['1hr', 3_600_000],
  ])('timeout %p', (timeout, ms) => {
    expect(parseConfig({ ...base, timeout }).timeoutMs).toBe(ms)
  })
  it.each([
    ['es-ES', 'es'],
    ['ES_mx', 'es'],
    ['en-US', 'en'],
    [' EN ', 'en'],
  ])('language %p is sent as %p', (language, sent) => {
    expect(parseConfig({ ...base, language }).language).toBe(sent)
  })
  it('a token pasted with its Bearer prefix is refused, saying to drop it', () => {
    const e = fails({ 'api-token': 'Bearer tok_0123456789' })
    expect(e.input).toBe('api-token')
    expect(e.message).toMatch(/drop the Bearer prefix/)
    expect(e.message).not.toContain('tok_0123456789')
  })
  it('an api-url without a scheme gets https:// suggested; loopback is understood as http', () => {
    const e = fails({ 'api-url': 'app.instawp.io/api' })
    expect(e.message).toMatch(/did you mean https:\/\/app\.instawp\.io\/api/)
    expect(parseConfig({ ...base, 'api-url': 'localhost:8099' }).apiUrl).toBe('http://localhost:8099/v2')
    expect(parseConfig({ ...base, 'api-url': '127.0.0.1:8099/api' }).apiUrl).toBe(
      'http://127.0.0.1:8099/api/v2',
    )
  })
  it.each([
    [{ operation: 'pul' }, /did you mean "pull"/],
    [{ operation: 'creat' }, /did you mean "create"/],
    [{ operation: 'rest' }, /did you mean "reset"/],
    [{ 'if-exists': 'skp' }, /did you mean "skip"/],
    [{ 'if-busy': 'wiat' }, /did you mean "wait"/],
  ])('did you mean: %p', (raw, message) => {
    expect(fails(raw as RawInputs).message).toMatch(message)
  })
  it('no guess when nothing is close', () => {
    expect(fails({ operation: 'restore-backup' }).message).not.toMatch(/did you mean/)
  })
})

describe('status and its task-id', () => {
  it('status is an operation; task-id is read for it', () => {
    const c = parseConfig({ ...base, operation: 'status', 'task-id': 'd53a490af3cd' })
    expect(c).toMatchObject({ operation: 'status', taskId: 'd53a490af3cd' })
    expect(parseConfig({ ...base, operation: 'status' }).taskId).toBeNull()
  })
  it.each([
    [{ operation: 'push', 'task-id': 'abc' }, /is for operation: status/],
    [{ operation: 'status', 'task-id': '../x' }, /not a task id/],
    [{ operation: 'status', 'task-id': 'abc', 'site-id': '1001,1002' }, /one site-id/],
  ])('refuses %p', (raw, message) => {
    const e = fails(raw as RawInputs)
    expect(e.input).toBe('task-id')
    expect(e.message).toMatch(message)
  })
})

describe('duplicate sites, as the server reads ids (issue 10)', () => {
  it.each([['1001,01001'], ['1001 001001'], ['1001;0001001']])(
    '%p lists the same site twice: refused before any request',
    (ids) => {
      const e = fails({ operation: 'push', 'site-id': ids })
      expect(e.input).toBe('site-id')
      expect(e.message).toMatch(/more than once/)
    },
  )
  it('different sites stay different', () => {
    expect(parseConfig({ ...base, 'site-id': '1001,10010,100' }).siteIds).toHaveLength(3)
  })
})

describe('staging-url and production-url (issue 20 §1, §3)', () => {
  it('are http(s) URLs without credentials, or nothing', () => {
    expect(parseConfig(base)).toMatchObject({ stagingUrl: null, productionUrl: null })
    expect(parseConfig({ ...base, 'staging-url': ' https://staging.example.test ' }).stagingUrl).toBe(
      'https://staging.example.test/',
    )
    expect(
      parseConfig({ ...base, operation: 'push', 'production-url': 'https://www.example.test/shop' })
        .productionUrl,
    ).toBe('https://www.example.test/shop')
    expect(fails({ 'staging-url': 'javascript:alert(1)' }).message).toBe(
      'Input "staging-url": "javascript:alert(1)" is not an http(s) URL',
    )
    expect(fails({ 'staging-url': 'https://u:p@staging.test' }).message).toMatch(
      /must not contain credentials/,
    )
  })
  it('production-url is for push; staging-url names one site', () => {
    expect(fails({ 'production-url': 'https://www.example.test' }).message).toBe(
      'Input "production-url": is for operation: push or operation: rollback, not for create',
    )
    expect(fails({ 'site-id': '1001,1002', 'staging-url': 'https://s.test' }).input).toBe('staging-url')
  })
})
