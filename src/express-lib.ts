// What express@5's own files under lib/ export, for code that requires them by
// path (`require('express/lib/response')` to extend the response prototype,
// `require('express/lib/utils')` for compileTrust...). Under the npm alias
// (`"express": "npm:switchyardjs"`) those paths reach the package's "exports"
// map, which points them at dist/lib/*.cjs and *.mjs; the build writes those
// files, and they take what they export from the one bundle through
// `libExports` (a non-enumerable symbol-keyed property of fw, so that the
// module's own keys stay Express's).
import { METHODS } from 'node:http'
import { format as formatContentType, parse as parseContentType } from 'content-type'
import mime from 'mime-types'
import { compileETag, compileQueryParser as compileQuery, compileTrust, strongETag, weakETag } from './utils/compile'
import { View } from './view'
import { methodOf } from './utils/res-type'

/** The key fw carries the lib/ modules under. */
export const libExports = Symbol.for('switchyard.express-lib')

/** A media type with its quality and parameters, as lib/utils' normalizeType gives it. */
interface NormalizedType {
  value: string
  quality?: number
  params: Record<string, string>
}

// Functions that are anonymous in Express's file (`exports.x = function (...)`)
// are anonymous here too, and each has Express's arity: code may print or
// compare `name` and `length`. (A function passed as an argument gets no inferred name.)
const anonymous = <F extends (...args: any[]) => any>(fn: F): F => fn

/** A type ('text/html;q=0.5') split into its value, quality and parameters; an extension looked up. */
const normalizeType = anonymous(function (type: string): NormalizedType {
  if (typeof type !== 'string') methodOf(type, 'indexOf', 'type') // V8's words for Express's call
  return type.indexOf('/') !== -1 ? acceptParams(type) : { value: mime.lookup(type) || 'application/octet-stream', params: {} }
})

/** normalizeType over a list. */
const normalizeTypes = anonymous(function (types: string[]): NormalizedType[] {
  if (!Array.isArray(types)) methodOf(types, 'map', 'types')
  return types.map(normalizeType)
})

/**
 * An Accept-style entry: the part before the first ';' (trimmed) is the
 * value; `q=` gives the quality (parseFloat of it, the last one wins, 1 when
 * absent); every other `key=value` (both trimmed, split at the first '=') is
 * a parameter; pieces without '=' are dropped.
 */
function acceptParams(str: string): NormalizedType {
  const pieces = str.split(';')
  const result: NormalizedType = { value: pieces[0].trim(), quality: 1, params: {} }
  for (let i = 1; i < pieces.length; i++) {
    const piece = pieces[i]
    const eq = piece.indexOf('=')
    if (eq === -1) continue
    const key = piece.slice(0, eq).trim()
    const val = piece.slice(eq + 1).trim()
    if (key === 'q') result.quality = parseFloat(val)
    else result.params[key] = val
  }
  return result
}

/** `type` with its charset parameter set to `charset`; either one empty leaves `type` as it is. */
function setCharset(type: string, charset: string): string {
  if (!type || !charset) return type
  const parsed = parseContentType(type)
  parsed.parameters.charset = charset
  return formatContentType(parsed)
}

/** lib/utils.js, in Express's key order. */
const utils = {
  methods: METHODS.map((m) => m.toLowerCase()),
  etag: strongETag,
  wetag: weakETag,
  normalizeType,
  normalizeTypes,
  compileETag: anonymous(function (val: unknown) { return compileETag(val) }),
  compileQueryParser: function compileQueryParser(val: unknown) { return compileQuery(val) },
  compileTrust: anonymous(function (val: unknown) { return compileTrust(val) }),
  setCharset
}

/** The lib/ modules that are not a property of fw: the build's dist/lib files read them. */
export const lib = { View, utils }
