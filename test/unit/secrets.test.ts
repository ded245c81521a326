import { describe, expect, it } from '@jest/globals'
import { Redactor, looksSecret, stripUrlCredentials } from '../../src/secrets.js'

const TOKEN = 'tok_live_0123456789abcdefSECRET'

function withToken() {
  const masked: string[] = []
  const r = new Redactor((v) => masked.push(v))
  r.add(TOKEN)
  return { r, masked }
}

describe('the token, in every common encoding (issue 10)', () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64')
  const b64url = (s: string) => Buffer.from(s).toString('base64url')
  it.each([
    ['raw', TOKEN],
    ['JSON-escaped', JSON.stringify(`a"${TOKEN}`).slice(1, -1)],
    ['URL-encoded', encodeURIComponent(`x/${TOKEN}`)],
    [
      'strictly percent-encoded',
      [...Buffer.from(TOKEN)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
    ],
    [
      'percent-encoded, lower case',
      [...Buffer.from(TOKEN)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
    ],
    ['base64', b64(TOKEN)],
    ['base64 after one byte', b64(`x${TOKEN}`)],
    ['base64 after two bytes', b64(`xy${TOKEN}`)],
    ['base64 of an Authorization header', b64(`Authorization: Bearer ${TOKEN}`)],
    ['base64 of Basic credentials', b64(`user:${TOKEN}`)],
    ['base64url', b64url(`ab${TOKEN}?`)],
    ['hex', Buffer.from(TOKEN).toString('hex')],
  ])('%s is scrubbed', (_, encoded) => {
    const { r } = withToken()
    const text = `before ${encoded} after`
    const out = r.scrub(text)
    expect(out).not.toBe(text)
    expect(out).toContain('***')
    // Whatever is left of the encoded form cannot be decoded back into the token.
    for (const part of out.split(/\s+/)) {
      expect(Buffer.from(part, 'base64').toString('latin1')).not.toContain(TOKEN.slice(4, 20))
      expect(decodeURIComponent(part.replace(/%(?![0-9a-f]{2})/gi, ''))).not.toContain(TOKEN)
    }
  })
  it('hands every form to the runner masker (core.setSecret)', () => {
    const { masked } = withToken()
    const base64 = Buffer.from(TOKEN).toString('base64')
    expect(masked).toEqual(expect.arrayContaining([TOKEN, Buffer.from(TOKEN).toString('hex')]))
    expect(masked.some((m) => base64.includes(m) && m.length >= 16)).toBe(true)
  })
  it('removes a secret that contains another whole, and ignores values too short to be secrets', () => {
    const r = new Redactor()
    r.add('abcd')
    r.add('abcdefgh')
    r.add('ab')
    expect(r.scrub('abcdefgh ab cd')).toBe('*** ab cd')
  })
})

describe('credentials in response data (contract §5, issue 10)', () => {
  it('are removed from every part of a body, error details included, objects and arrays alike', () => {
    const r = new Redactor()
    const body = {
      message: 'failed',
      data: { staging_url: 'https://staging.example.com', nested: [{ db_pass: 'Db-Pass-9876' }] },
      errors: { password: ['Hunter2-Hunter2'], field: ['ok'] },
      error: { session_id: 'Sess-123456789' },
      exception: { private_key: ['-----BEGIN KEY-----abc'] },
      list: [{ passphrase: 'correct horse battery staple' }, { pwd: 'Pwd-4242-x' }],
    }
    const clean = JSON.stringify(r.stripCredentials(body))
    for (const secret of [
      'Db-Pass-9876',
      'Hunter2-Hunter2',
      'Sess-123456789',
      'BEGIN KEY',
      'correct horse',
      'Pwd-4242-x',
    ])
      expect(clean).not.toContain(secret)
    expect(clean).toContain('https://staging.example.com')
    expect(clean).toContain('"field":["ok"]')
  })
  it('a credential field holding null, true or an ordinary word never masks ordinary output', () => {
    const masked: string[] = []
    const r = new Redactor((v) => masked.push(v))
    r.stripCredentials({ token: null, auth: true, password: 'succeeded', secret: 'timed-out', key: 12345 })
    expect(masked).toEqual([])
    // Our own words stay intact...
    expect(r.scrub('result: succeeded, then timed-out, site 12345')).toBe(
      'result: succeeded, then timed-out, site 12345',
    )
    // ...while the server's text that repeats a credential loses it.
    expect(r.server('your password is succeeded')).toBe('your password is ***')
  })
  it('a credential that looks like a secret is scrubbed everywhere and given to the runner', () => {
    const masked: string[] = []
    const r = new Redactor((v) => masked.push(v))
    r.stripCredentials({ data: { wp_password: 'sim-wp-3f9a8b7c6d5e' } })
    expect(masked).toContain('sim-wp-3f9a8b7c6d5e')
    expect(r.scrub('log sim-wp-3f9a8b7c6d5e')).toBe('log ***')
  })
  it('looksSecret: long and mixed, never a word', () => {
    for (const v of ['Hunter22', 'a1b2c3d4', 'sk_live_0123456789abcdefghij'])
      expect(looksSecret(v)).toBe(true)
    for (const v of ['succeeded', 'timed-out', 'true', 'null', 'dry-run', 'a sentence with Spaces 1'])
      expect(looksSecret(v)).toBe(false)
  })
})

describe('URLs never carry credentials (contract §5)', () => {
  it('drops user-info and credential query parameters, keeps the rest', () => {
    const found: string[] = []
    const out = stripUrlCredentials(
      'https://admin:Pa55word@staging.example.com/wp-login.php?autologin=abc123&token=t0k&page=2',
      (v) => found.push(v),
    )
    expect(out).toBe('https://staging.example.com/wp-login.php?page=2')
    expect(found).toEqual(expect.arrayContaining(['admin', 'Pa55word', 'abc123', 't0k']))
  })
  it('also inside free text from a server', () => {
    const r = new Redactor()
    const out = r.server('Ready at https://u:SeCrEt99@staging.example.com/?login=magic123 now')
    expect(out).not.toContain('SeCrEt99')
    expect(out).not.toContain('magic123')
    expect(out).toContain('staging.example.com')
  })
})

describe('server text is inert, one line, bounded (issue 10)', () => {
  it('keeps server text on its line and makes workflow commands inert', () => {
    const r = new Redactor()
    const out = r.server('done\n::add-mask::succeeded\r::stop-commands::x\u2028##[error]boom')
    expect(out).not.toMatch(/[\r\n\u2028]/)
    expect(out).not.toContain('##[')
    expect(out.startsWith('::')).toBe(false)
    const leading = r.server('  ::error::forged')
    expect(leading.trimStart().startsWith('::')).toBe(false)
  })
  it("makes Azure Pipelines' ##vso[ logging commands inert, in any case, anywhere in the line", () => {
    const r = new Redactor()
    for (const text of [
      '##vso[task.setvariable variable=RESULT]succeeded',
      'done ##VSO[task.complete result=Succeeded;]forged',
      'x ##Vso[task.prependpath]/tmp/evil',
    ]) {
      const out = r.server(text)
      expect(out).not.toMatch(/##vso\[/i)
      expect(out.replace(/\u200b/g, '')).toBe(text)
      expect(r.inert(text)).not.toMatch(/##vso\[/i)
    }
  })
  it('drops ANSI escapes and control characters, and they cannot rejoin a token', () => {
    const { r } = withToken()
    const split = `${TOKEN.slice(0, 10)}\u0000${TOKEN.slice(10)}`
    const out = r.server(
      `\u001b[31mred\u001b[0m \u001b]8;;https://evil/\u0007link\u001b]8;;\u0007 ${split} \u0007bell`,
    )
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(out).not.toMatch(/[\u0000-\u001f\u007f]/)
    expect(out).toContain('red')
    const joined = out.replace(/\s/g, '')
    expect(joined).not.toContain(TOKEN)
  })
  it('a token split by line breaks or spaces (a wrapped base64 text) is still found', () => {
    const { r } = withToken()
    const wrapped = Buffer.from(`Bearer ${TOKEN}`)
      .toString('base64')
      .replace(/(.{8})/g, '$1\n')
    expect(r.scrub(`${TOKEN.slice(0, 12)}\n  ${TOKEN.slice(12)}`)).toBe('***')
    expect(r.server(wrapped)).toContain('***')
    expect(r.server(wrapped).replace(/\s/g, '')).not.toContain(
      Buffer.from(TOKEN).toString('base64').slice(4, 20),
    )
  })
  it('scrubs before it cuts: no part of a token survives at the cut', () => {
    const { r } = withToken()
    const text = 'x'.repeat(990) + TOKEN + 'y'.repeat(5000)
    const out = r.server(text, 1000)
    expect(out.length).toBeLessThanOrEqual(1000)
    expect(out).not.toContain(TOKEN.slice(0, 6))
  })
  it('bounds megabytes to the limit', () => {
    expect(new Redactor().server('z'.repeat(3_000_000)).length).toBeLessThanOrEqual(1000)
  })
  it('inert(): our own lines get the same treatment, token removed', () => {
    const { r } = withToken()
    expect(r.inert(`a\nb ${TOKEN}`)).toBe('a b ***')
  })
})
