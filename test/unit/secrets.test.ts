import { describe, expect, it } from '@jest/globals'
import { Redactor } from '../../src/secrets.js'

describe('Redactor', () => {
  it('scrubs a secret and its URL-encoded form, and tells the masker', () => {
    const masked: string[] = []
    const r = new Redactor((v) => masked.push(v))
    r.add('s3cr3t/+token=')
    expect(r.scrub('a s3cr3t/+token= b s3cr3t%2F%2Btoken%3D c')).toBe('a *** b *** c')
    expect(masked).toContain('s3cr3t/+token=')
    expect(masked).toContain('s3cr3t%2F%2Btoken%3D')
  })
  it('ignores values too short to be secrets', () => {
    const r = new Redactor()
    r.add('ab')
    r.add('')
    expect(r.scrub('ab cd')).toBe('ab cd')
  })
  it('masks credential fields found anywhere in response data, not other fields', () => {
    const r = new Redactor()
    r.maskCredentials({
      staging_url: 'https://staging.example.com',
      wp_password: 'wp-pass-123',
      nested: { ssh_password: 'ssh-pass-456', items: [{ private_key: 'KEYDATA789' }] },
      s_hash: 'hashhash',
      api_token: 'tokentoken',
      client_secret: 'secretsecret',
      status: 'ready',
    })
    const text = r.scrub(
      'wp-pass-123 ssh-pass-456 KEYDATA789 hashhash tokentoken secretsecret ready https://staging.example.com',
    )
    expect(text).toBe('*** *** *** *** *** *** ready https://staging.example.com')
  })
  it('masks the password in a URL with credentials', () => {
    const r = new Redactor()
    r.maskCredentials({ url: 'https://admin:hunter22@staging.example.com/' })
    expect(r.scrub('pw hunter22')).toBe('pw ***')
  })
  it('removes a secret that contains another whole', () => {
    const r = new Redactor()
    r.add('abcd')
    r.add('abcdefgh')
    expect(r.scrub('abcdefgh')).toBe('***')
  })
})
