// Option normalisation shared by the four parsers: everything here runs once,
// when a parser is created, and produces plain values or small closures that
// the read core calls per request.
import type { IncomingMessage, ServerResponse } from 'node:http'
import bytes from 'bytes'
import { parse as parseContentType } from 'content-type'
import typeis from 'type-is'
import type { Reader } from './read'

/** `verify(req, res, buf, encoding)`: throw to reject the body (403 `entity.verify.failed`). */
export type VerifyFunction = (req: IncomingMessage, res: ServerResponse, buf: Buffer, encoding: string | null) => void

/** What `type` may be: a media type, extension or wildcard, a list of them, or a predicate. */
export type TypeOption = string | readonly string[] | ((req: IncomingMessage) => unknown)

/** Options common to every parser. */
export interface BaseOptions {
  /** Inflate gzip/deflate/br (and zstd where available) bodies; `false` answers 415. Default true. */
  inflate?: boolean
  /** Largest body accepted, in bytes or as a byte string ('100kb'). Default '100kb'. */
  limit?: number | string
  /** Which requests to parse: media type(s), extension(s), wildcard(s) or `fn(req)`. */
  type?: TypeOption
  /** Called with the raw (inflated) body before it is decoded and parsed. */
  verify?: VerifyFunction | false | null
}

/** A compiled request matcher: true when the request's Content-Type selects this parser. */
export type Matcher = (req: IncomingMessage) => boolean

const CACHE_MAX = 64

/** Read the options object the way body-parser does: anything but an object counts as empty. */
export function optionsObject<T extends object>(options: unknown): Partial<T> {
  return (options !== null && typeof options === 'object' ? options : {}) as Partial<T>
}

/** The size limit when none is given: 100kb. */
const DEFAULT_LIMIT = 102400

/**
 * Parse `limit` once: absent (`undefined`, `null`) means 100kb, a number is
 * taken as is, a string goes through `bytes`. Anything else, or anything that
 * does not parse (`NaN`, `''`, `false`, 'abc'), is a TypeError at creation, so
 * a bad limit can never switch the size check off.
 */
export function compileLimit(limit: unknown): number {
  if (limit === undefined || limit === null) return DEFAULT_LIMIT
  const parsed = typeof limit === 'number' ? limit : typeof limit === 'string' ? bytes.parse(limit) : null
  if (parsed === null || Number.isNaN(parsed)) {
    throw new TypeError('option limit "' + String(limit) + '" is invalid')
  }
  return parsed
}

/** Validate `verify`: a function, or absent (any falsy value, as body-parser 2 reads it). */
export function compileVerify(verify: unknown): VerifyFunction | undefined {
  if (!verify) return undefined
  if (typeof verify !== 'function') throw new TypeError('option verify must be function')
  return verify as VerifyFunction
}

/**
 * Compile `type` into a matcher. A function is called as `fn(req)`; strings are
 * matched with type-is against the Content-Type header, and the answer for each
 * header value is remembered (type-is is a pure function of the header).
 */
export function compileType(type: unknown, fallback: string): Matcher {
  if (typeof type === 'function') {
    const fn = type as (req: IncomingMessage) => unknown
    return (req) => Boolean(fn(req))
  }
  // as body-parser 2 reads it: any falsy value means the default type
  if (!type) return headerMatcher([fallback])
  if (typeof type === 'string') return headerMatcher([type])
  // type-is matches no value of an array that is not a string (an empty
  // array matches every Content-Type), and a value that is neither: such a
  // parser reads no request
  if (Array.isArray(type)) return listMatcher(type)
  return never
}

/**
 * A matcher for a list of types, read as body-parser reads it: at every
 * request, so an edit of the array after the parser was made counts. The
 * answers are remembered per header while the list holds what it held
 * (compared element by element: lists are short).
 */
function listMatcher(types: unknown[]): Matcher {
  let seen = types.slice()
  let match = headerMatcher(seen as string[])
  return (req) => {
    if (!sameList(types, seen)) {
      seen = types.slice()
      match = headerMatcher(seen as string[])
    }
    return match(req)
  }
}

function sameList(a: unknown[], b: unknown[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

function never(): boolean {
  return false
}

function headerMatcher(types: string[]): Matcher {
  const cache = new Map<string, boolean>()
  return (req) => {
    const header = req.headers['content-type']
    if (header === undefined) return false
    let hit = cache.get(header)
    if (hit === undefined) {
      hit = Boolean(typeis.is(header, types))
      if (cache.size >= CACHE_MAX) cache.clear()
      cache.set(header, hit)
    }
    return hit
  }
}

const charsetCache = new Map<string, string | undefined>()

/**
 * The lower-cased `charset` parameter of the request's Content-Type, or
 * undefined. A Content-Type that content-type cannot parse throws, as
 * body-parser's read throws from the middleware (reached only when the
 * parser's `type` took the request: a function may take anything).
 */
export function requestCharset(req: IncomingMessage): string | undefined {
  const header = req.headers['content-type']
  if (!header) return undefined
  if (charsetCache.has(header)) return charsetCache.get(header)
  const charset = (parseContentType(header).parameters.charset || '').toLowerCase() || undefined
  if (charsetCache.size >= CACHE_MAX) charsetCache.clear()
  charsetCache.set(header, charset)
  return charset
}

/**
 * The reader fields every parser compiles the same way from its options:
 * `limit`, `inflate`, `verify` and `type` (with the parser's default type).
 * Throws a TypeError at creation for a bad value.
 */
export function commonReader(opts: { limit?: unknown; inflate?: unknown; verify?: unknown; type?: unknown }, defaultType: string): Pick<Reader, 'limit' | 'inflate' | 'verify' | 'matches'> {
  return {
    limit: compileLimit(opts.limit),
    inflate: opts.inflate !== false,
    verify: compileVerify(opts.verify),
    matches: compileType(opts.type, defaultType)
  }
}

