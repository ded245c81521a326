import { describe, expect, it } from '@jest/globals'
import { looksSecret } from '../../src/secrets/encodings.js'
import { Redactor } from '../../src/secrets/redactor.js'
import { stripUrlCredentials } from '../../src/secrets/urls.js'

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
  it("a base64 token as other languages' URL escapes write it (Python's quote keeps /, Go's PathEscape keeps =)", () => {
    const token = 'q8Zr/2Wm9Kx4Vb6Nd8FhT1Lp3Sx9QvLm3Pw8Rt2Yk7H='
    const r = new Redactor()
    r.add(token)
    for (const form of [
      'q8Zr/2Wm9Kx4Vb6Nd8FhT1Lp3Sx9QvLm3Pw8Rt2Yk7H%3D',
      'q8Zr%2F2Wm9Kx4Vb6Nd8FhT1Lp3Sx9QvLm3Pw8Rt2Yk7H=',
    ])
      expect(r.scrub(`https://hooks.example.com/t/${form}/pull`)).toBe('https://hooks.example.com/t/***/pull')
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
  it('a credential in a fragment (#access_token=) or in a query named pw or magic goes too', () => {
    const found: string[] = []
    expect(
      stripUrlCredentials('https://stg.example.com/#access_token=Zz9Yy8Xx7Ww6', (v) => found.push(v)),
    ).toBe('https://stg.example.com/')
    expect(stripUrlCredentials('https://stg.example.com/?pw=hunter2hunter2&magic=eyJabc&page=2')).toBe(
      'https://stg.example.com/?page=2',
    )
    expect(stripUrlCredentials('https://stg.example.com/#section-2')).toBe(
      'https://stg.example.com/#section-2',
    )
    // A page's own route in the fragment is kept.
    expect(stripUrlCredentials('https://stg.example.com/#/home?code=1')).toBe(
      'https://stg.example.com/#/home?code=1',
    )
    expect(found).toEqual(['Zz9Yy8Xx7Ww6'])
    expect(new Redactor().server('see https://stg.example.com/#access_token=Zz9Yy8Xx7Ww6')).not.toContain(
      'Zz9Y',
    )
  })
  it('credentials a server writes in words: a header, a JSON field inside a string, an escaped or scheme-less URL', () => {
    const r = new Redactor()
    const cases = {
      'Upstream said: Authorization: Bearer sk_live_51HxYzAbCdEfGhIjKlMnOpQr': 'sk_live_51Hx',
      'DB error {"password":"hunter2","user":"wp"}': 'hunter2',
      'redirect to https:\\/\\/admin:S3cretPass@stg.example.com\\/': 'S3cretPass',
      'see //admin:S3cretPass@stg.example.com/': 'S3cretPass',
      'auth: Basic YWRtaW46UzNjcjN0UGFzcw==': 'YWRtaW46',
      'cookie: laravel_session=eyJpdiI6IkR3a2xRZz09': 'eyJpdiI6',
      // After a word that reads as a key too, nested in another key's value, with other headers' names.
      'Database connection failed: password: Qp7Zr2Wm9Kx4Vb6Nd8Fh': 'Qp7Zr2Wm',
      'Refused: "password": "Qp7Zr2Wm9Kx4Vb6Nd8Fh"': 'Qp7Zr2Wm',
      'Refused: DB_PASSWORD=Qp7Zr2Wm9Kx4Vb6Nd8Fh': 'Qp7Zr2Wm',
      'Refused: Set-Cookie: session=Qp7Zr2Wm9Kx4Vb6Nd8Fh': 'Qp7Zr2Wm',
      'X-Api-Key: Qp7Zr2Wm9Kx4Vb6Nd8Fh': 'Qp7Zr2Wm',
      'Authorization=Bearer%20Qp7Zr2Wm9Kx4Vb6Nd8Fh': 'Qp7Zr2Wm',
      'Authorization=Bearer+Qp7Zr2Wm9Kx4Vb6Nd8Fh': 'Qp7Zr2Wm',
      // A value longer than most (a framework's session cookie), or followed by a colon or a separator.
      [`Set-Cookie: laravel_session=${'eyJpdiI6Ik'.repeat(39)}; path=/`]: 'eyJpdiI6Ik',
      'Authentication failed for token=sk_live_4eC39HqLyjWDarjtT1zdp7dc: expired': 'sk_live_4e',
      'password=Hunter2x9 = wrong': 'Hunter2x9',
      // A URL percent-encoded inside a query value.
      'see ?next=https%3A%2F%2Fwp.example.com%2Fcb%3Faccess_token%3DQp7Zr2Wm9Kx4Vb6Nd8Fh': 'Qp7Zr2Wm',
      'see ?next=https%3A%2F%2Fadmin%3AQp7Zr2Wm9Kx4Vb6Nd8Fh%40wp.example.com%2F': 'Qp7Zr2Wm',
    }
    for (const [text, secret] of Object.entries(cases)) {
      const out = r.server(text)
      expect(out).not.toContain(secret)
      if (!/@|%40/.test(text)) expect(out).toContain('***')
    }
    // Ordinary words after the same names stay, and none becomes a secret that would mask it in our own text.
    const masked: string[] = []
    const plain = new Redactor((v) => masked.push(v))
    for (const text of [
      'Invalid token: expired',
      'pass: 3 of 5',
      'Basic plan',
      '"error_code":"E_RATE"',
      'Invalid Token Provided',
      'Basic Authentication Required',
      'Author: JohnSmith2024',
      'error_code=ERR_DISK_FULL_507',
      'Promo code: SPRING2024',
      '{"password":"required"}',
      '(sourceKey=prod-1001-main)',
      'at time: 12:30:45 on retry: 3',
      // A session's domain and a token's expiry are no credentials.
      'The given data was invalid: SESSION_DOMAIN=staging-1002.example.com',
      'Warning: token_expires_at: 2026-05-03T12:30:45Z',
    ])
      expect(plain.server(text)).toBe(text)
    expect(masked).toEqual([])
    expect(plain.scrub('Provided Required')).toBe('Provided Required')
    // Percent signs in query after query: one pass each, no nesting without end.
    for (const text of ['?a=%'.repeat(30_000), ';a=%3A%2F%2F'.repeat(10_000)])
      expect(plain.server(text)).toBeTruthy()
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
  it('a token split by a character that renders as nothing (joiner, filler, variation selector, tag) is still found', () => {
    const { r } = withToken()
    for (const hidden of [
      '\u034f',
      '\u115f',
      '\u180e',
      '\u3164',
      '\ufe0f',
      '\uffa0',
      '\u{e0041}',
      '\u{e0100}',
    ]) {
      const out = r.server(`Token: ${TOKEN.slice(0, 15)}${hidden}${TOKEN.slice(15)} done`)
      expect(out).toBe('Token: *** done')
    }
    // Tag characters carry hidden text on their own: none reaches a reader.
    expect(r.server('ok\u{e0069}\u{e0067}\u{e006e} fine')).toBe('ok fine')
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

/** PHP's rawurlencode (RFC 3986): every byte but A-Za-z0-9-_.~ as %XX. */
const rawurlencode = (s: string) =>
  [...Buffer.from(s)]
    .map((b) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('')
/** PHP's urlencode: as rawurlencode, but a space is + and ~ is %7E. */
const urlencode = (s: string) => rawurlencode(s).replace(/%20/g, '+').replace(/~/g, '%7E')

const SSH_KEY = [
  '-----BEGIN OPENSSH PRIVATE KEY-----',
  'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
  'QyNTUxOQAAACDx1fQ7m2vJc9Pj0eXq8Lr3Kw5zT6uH4bN1yA2sD3fG4hAAAAJgq1w2Eq9c',
  'NgAAAAtzc2gtZWQyNTUxOQAAACDx1fQ7m2vJc9Pj0eXq8Lr3Kw5zT6uH4bN1yA2sD3fG4h',
  'AAAAQCaZ3Yx==',
  '-----END OPENSSH PRIVATE KEY-----',
].join('\n')
const KEY_LINES = SSH_KEY.split('\n').slice(1, 4)

describe('a multi-line credential (an SSH private key) that a server repeats (issue 17 §4)', () => {
  function withKey() {
    const masked: string[] = []
    const r = new Redactor((v) => masked.push(v))
    r.stripCredentials({ data: { ssh_private_key: SSH_KEY, host: 'stg.example.test' } })
    return { r, masked }
  }
  it.each([
    ['as sent', `key was ${SSH_KEY}`],
    ['with CRLF line ends', `key was ${SSH_KEY.replace(/\n/g, '\r\n')}`],
    ['JSON-escaped in a message', `key was ${JSON.stringify(SSH_KEY).slice(1, -1)}`],
    ['indented by a template', `key:\n    ${SSH_KEY.replace(/\n/g, '\n    ')}`],
  ])('%s: no line of it reaches server text, our text or its one-line form', (_, text) => {
    const { r } = withKey()
    for (const out of [
      r.server(text, 100_000),
      r.scrub(text),
      r.inert(text, 100_000),
      r.scrub(r.server(text, 100_000)),
    ])
      for (const line of KEY_LINES) {
        expect(out).not.toContain(line)
        expect(out).not.toContain(line.slice(10, 40))
      }
  })
  it('one line of it alone (the server printed a part of the key) is still removed', () => {
    const { r } = withKey()
    for (const line of KEY_LINES)
      expect(r.server(`bad key near ${line}, line 2`)).toBe('bad key near ***, line 2')
  })
  it('each long line goes to the runner masker (it masks what one log line holds), the armour and short bits do not', () => {
    const { masked } = withKey()
    for (const line of KEY_LINES) expect(masked).toContain(line)
    expect(masked.some((m) => m.includes('\n'))).toBe(false)
    expect(masked.some((m) => /BEGIN|END/.test(m))).toBe(false)
    expect(masked.every((m) => m.length >= 8)).toBe(true)
  })
  it('a private key block no field named is removed from server text, whole or cut short', () => {
    const r = new Redactor()
    expect(r.server(`bad key ${SSH_KEY} (line 3)`)).toBe('bad key *** (line 3)')
    expect(r.server(`bad key ${SSH_KEY.slice(0, 150)}`)).toBe('bad key ***')
    expect(r.server('-----BEGIN PUBLIC KEY----- is fine')).toBe('-----BEGIN PUBLIC KEY----- is fine')
  })
  it('re-wrapped at another width, nothing of the key is left', () => {
    const { r } = withKey()
    const body = KEY_LINES.join('')
    const rewrapped = body.match(/.{1,50}/g)!.join('\n')
    const out = r.server(`key ${rewrapped} end`, 100_000)
    expect(out).toMatch(/^key (\*\*\*)+ end$/)
  })
  it('one secret word among ordinary ones (Bearer <token>) masks only that word', () => {
    const r = new Redactor()
    r.stripCredentials({ errors: { authorization: ['Bearer sk_live_0123456789abcdefXYZ'] } })
    expect(r.server('header was Bearer sk_live_0123456789abcdefXYZ')).toBe('header was Bearer ***')
  })
  it('a passphrase of words is removed from server text but never masks our own words', () => {
    const masked: string[] = []
    const r = new Redactor((v) => masked.push(v))
    r.stripCredentials({ data: { passphrase: 'correct horse\nbattery staple' } })
    expect(r.server('it was correct horse battery staple')).toBe('it was ***')
    expect(masked).toEqual([])
    expect(r.scrub('a correct result')).toBe('a correct result')
  })
})

describe('the token as a server re-encodes or cuts it (issue 17 §4)', () => {
  const SPECIAL = "Tk!0*9'(aZ)~8_x-7.yQ3wE5rT"
  it.each([
    ["PHP rawurlencode (!*'() encoded, ~ kept)", rawurlencode(SPECIAL)],
    ['PHP urlencode (~ as %7E)', urlencode(`a ${SPECIAL}`)],
    ['rawurlencode in lower case', rawurlencode(SPECIAL).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
    ['HTML-escaped (htmlspecialchars, ENT_QUOTES)', SPECIAL.replace(/'/g, '&#039;')],
    ['HTML-escaped (&#39;)', SPECIAL.replace(/'/g, '&#39;')],
    ['rawurlencode twice (a URL inside a query)', rawurlencode(rawurlencode(SPECIAL))],
    ['upper-cased', SPECIAL.toUpperCase()],
    ['lower-cased', SPECIAL.toLowerCase()],
  ])('%s is scrubbed', (_, echoed) => {
    const r = new Redactor()
    r.add(SPECIAL)
    const out = r.server(`token ${echoed} refused`)
    expect(out).toContain('***')
    expect(out).not.toContain(echoed)
    expect(r.scrub(`token ${echoed} refused`)).not.toContain(echoed)
  })
  it("a token with slashes echoed by PHP's json_encode (every / as \\/) is scrubbed", () => {
    const token = 'aB3/dE6+gH9/jK2mN5pQ8=='
    const r = new Redactor()
    r.add(token)
    const echoed = JSON.stringify(token).slice(1, -1).replace(/\//g, '\\/')
    expect(echoed).toContain('\\/')
    expect(r.server(`token ${echoed} refused`)).toBe('token *** refused')
  })
  it('a two-part token (id|secret): the secret part echoed alone, in any case, is scrubbed; the id is not masked', () => {
    const secretPart = 'Zk3vQ9mX2pL7wR4tY8uB1nC6dF0gH5jK9sA2eW7q'
    const masked: string[] = []
    const r = new Redactor((v) => masked.push(v))
    r.add(`42|${secretPart}`)
    for (const echoed of [
      secretPart,
      secretPart.toUpperCase(),
      encodeURIComponent(secretPart),
      Buffer.from(secretPart).toString('base64'),
    ])
      // (base64 keeps at most its last group, which depends on what follows: it cannot give the secret back)
      expect(r.server(`invalid token ${echoed}.`)).toMatch(/^invalid token \*\*\*[A-Za-z0-9+/=]{0,4}\.$/)
    expect(masked).toContain(secretPart)
    expect(r.scrub('site 42 ok')).toBe('site 42 ok')
  })
  it('short forms are scrubbed but never handed to the runner (they would blank out ordinary words)', () => {
    const masked: string[] = []
    const r = new Redactor((v) => masked.push(v))
    r.add('abc1234')
    expect(r.scrub('x abc1234 y')).toBe('x *** y')
    expect(masked.every((m) => m.length >= 8)).toBe(true)
  })
  it('case is ignored only for long secrets: a short one does not mask a word in another case', () => {
    const r = new Redactor()
    r.add('Pass')
    expect(r.scrub('PASS pass Pass')).toBe('PASS pass ***')
  })
})

describe('a URL that carries a secret of the run (wait-for-url, issue 17 §4)', () => {
  const T = 'tok_live_0123456789abcdefSECRET'
  const r = () => {
    const x = new Redactor()
    x.add(T)
    return x
  }
  it.each([
    ['a plain query value', `https://stg.example.test/?preview=${T}&lang=en`],
    ['a percent-encoded value', `https://stg.example.test/?p=${rawurlencode(T)}&lang=en`],
    ['a base64 value', `https://stg.example.test/?lang=en&s=${Buffer.from(T).toString('base64url')}`],
    ['an upper-cased value', `https://stg.example.test/?X=${T.toUpperCase()}&lang=en`],
    ['a name with no value', `https://stg.example.test/?${T}&lang=en`],
  ])('%s is dropped before the URL is used or shown; the rest stays', (_, url) => {
    const out = r().stripUrl(url)
    expect(out).toBe('https://stg.example.test/?lang=en')
  })
  it('a fragment holding it is dropped; a host or path holding it makes the URL unusable', () => {
    expect(r().stripUrl(`https://stg.example.test/a#${T}`)).toBe('https://stg.example.test/a')
    expect(r().stripUrl(`https://stg.example.test/${T}/`)).toBeNull()
  })
  it('a URL without secrets is unchanged', () => {
    expect(r().stripUrl('https://stg.example.test/wp-admin/?lang=en&page=2')).toBe(
      'https://stg.example.test/wp-admin/?lang=en&page=2',
    )
  })
})
