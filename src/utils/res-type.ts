// Content-Type helpers for the response: normalising what res.set / res.type
// receive, putting `charset=utf-8` on text bodies, and the media types of
// res.format keys. Results are memoised in small bounded maps: apps use a
// handful of types, and parsing them again on every response is repeated work.
// Named imports: content-type is compiled with __esModule and has no default export.
import { format as formatContentType, parse as parseContentType } from 'content-type'
import mime from 'mime-types'

const CACHE_LIMIT = 256

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= CACHE_LIMIT) cache.clear()
  cache.set(key, value)
  return value
}

const normalised = new Map<string, string | false>()

/**
 * What a `Content-Type` value becomes when set through `res.set`: a full type
 * gains the charset mime-types knows for it (`text/*`, JSON...), a bare
 * extension is looked up; an unknown extension gives `false` (and the header
 * then reads "false", as in Express).
 */
export function normaliseContentType(value: string): string | false {
  const hit = normalised.get(value)
  if (hit !== undefined) return hit
  return remember(normalised, value, mime.contentType(value))
}

/**
 * The type `res.type(type)` sets: a value containing '/' as is, otherwise the
 * type registered for that extension, or `application/octet-stream`.
 */
export function typeFromName(type: string): string {
  if (typeof type !== 'string') methodOf(type, 'indexOf', 'type')
  return type.indexOf('/') === -1 ? (normaliseContentType(type) || 'application/octet-stream') : type
}

/**
 * Check that `value` has a method `method`, as a call `name.method()` in
 * Express's source would find it; otherwise throw the TypeError V8 throws
 * for that call, word for word (`type.indexOf is not a function`,
 * `Cannot read properties of undefined (reading 'toLowerCase')`). The bundle
 * may rename the variables, and V8 words the message from the source text.
 */
export function methodOf(value: unknown, method: string, name: string): void {
  if (value === null || value === undefined) throw new TypeError(`Cannot read properties of ${value} (reading '${method}')`)
  if (typeof (value as Record<string, unknown>)[method] !== 'function') throw new TypeError(`${name}.${method} is not a function`)
}

const utf8 = new Map<string, string>()

/**
 * `type` with its `charset` parameter set to `utf-8`, other parameters kept.
 * Throws a TypeError for a malformed media type, like `content-type` does.
 */
export function withUtf8Charset(type: string): string {
  const hit = utf8.get(type)
  if (hit !== undefined) return hit
  const parsed = parseContentType(type)
  parsed.parameters.charset = 'utf-8'
  return remember(utf8, type, formatContentType(parsed))
}

/**
 * The media type a `res.format` key stands for: a type ('text/html;q=0.5')
 * without its parameters, or an extension name ('json') looked up, falling
 * back to `application/octet-stream`.
 */
export function formatKeyType(key: string): string {
  if (key.indexOf('/') !== -1) {
    const semi = key.indexOf(';')
    return (semi === -1 ? key : key.slice(0, semi)).trim()
  }
  return mime.lookup(key) || 'application/octet-stream'
}
