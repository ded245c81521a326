import { isCredentialField } from './contract.js'

/** Shortest value treated as a secret: masking "1" or "true" would blank out ordinary log text. */
const MIN_SECRET_LENGTH = 4
const MASK = '***'

/**
 * Knows every secret of the run (the token, credentials seen in responses) and removes them from
 * any text before it is written anywhere. Front ends also hand each new secret to their own masker
 * (`core.setSecret` for the action) through `onSecret`.
 */
export class Redactor {
  private readonly secrets = new Set<string>()
  constructor(private readonly onSecret: (value: string) => void = () => {}) {}

  add(value: string | undefined | null): void {
    if (typeof value !== 'string') return
    const v = value.trim()
    if (v.length < MIN_SECRET_LENGTH || this.secrets.has(v)) return
    for (const variant of new Set([v, encodeURIComponent(v), JSON.stringify(v).slice(1, -1)])) {
      this.secrets.add(variant)
      this.onSecret(variant)
    }
  }

  scrub(text: string): string {
    let out = text
    // Longest first, so a secret that contains another is removed whole.
    for (const s of [...this.secrets].sort((a, b) => b.length - a.length)) out = out.split(s).join(MASK)
    return out
  }

  /** Walks response data and registers every credential-looking value (contract §5). */
  maskCredentials(data: unknown, depth = 0): void {
    if (depth > 8 || data === null || typeof data !== 'object') return
    if (Array.isArray(data)) {
      for (const item of data) this.maskCredentials(item, depth + 1)
      return
    }
    for (const [name, value] of Object.entries(data as Record<string, unknown>)) {
      if (typeof value === 'string' && isCredentialField(name)) this.add(value)
      else if (typeof value === 'string' && /^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(value))
        this.add(userinfoOf(value))
      else this.maskCredentials(value, depth + 1)
    }
  }
}

/** `https://user:pass@host/` -> `pass` (or `user` when there is no password). */
function userinfoOf(url: string): string | null {
  try {
    const u = new URL(url)
    return u.password ? decodeURIComponent(u.password) : u.username ? decodeURIComponent(u.username) : null
  } catch {
    return null
  }
}
