/**
 * Jest's TypeScript transform: Node's own type stripping (`module.stripTypeScriptTypes`, in
 * 'transform' mode for parameter properties and enums), not ts-jest. Types are checked by
 * `npm run typecheck`, never here; what this saves is loading the TypeScript compiler in every
 * Jest worker (8 of them) and compiling each file with it.
 */
import { createHash } from 'node:crypto'
import { stripTypeScriptTypes } from 'node:module'

const VERSION = `strip-types-1 ${process.version}`

export default {
  getCacheKey(source, file) {
    return createHash('sha256')
      .update(VERSION)
      .update('\0')
      .update(file)
      .update('\0')
      .update(source)
      .digest('hex')
  },
  process(source, file) {
    const out = stripTypeScriptTypes(source, { mode: 'transform', sourceMap: true, sourceUrl: file })
    return { code: out }
  },
}
