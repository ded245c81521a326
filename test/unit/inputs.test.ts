import { describe, expect, it } from '@jest/globals'
import { InputError, normaliseApiUrl, parseConfig, parseDuration, type RawInputs } from '../../src/inputs.js'

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
      concurrency: 4,
      failFast: false,
    })
  })
  it('accepts reset as another name for pull, in any case', () => {
    expect(parseConfig({ ...base, operation: 'Reset' }).operation).toBe('pull')
    expect(parseConfig({ ...base, operation: ' PUSH ' }).operation).toBe('push')
  })
  it('splits several site ids on newlines and commas', () => {
    expect(parseConfig({ ...base, 'site-id': '1001,1002\n 1003 \n' }).siteIds).toEqual([
      '1001',
      '1002',
      '1003',
    ])
  })
  it.each([
    ['operation', { operation: 'destroy' }, /must be one of create, pull, push, delete/],
    ['site-id', { 'site-id': '../1001' }, /not a site id/],
    ['site-id', { 'site-id': '1001/staging' }, /not a site id/],
    ['site-id', { 'site-id': 'https://evil.example/1' }, /not a site id/],
    ['site-id', { 'site-id': 'a'.repeat(65) }, /not a site id/],
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
})
