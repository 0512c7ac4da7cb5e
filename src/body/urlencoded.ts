// fw.urlencoded(): parse application/x-www-form-urlencoded bodies with qs,
// flat (extended: false) or nested (extended: true).
import type { IncomingMessage } from 'node:http'
import qs from 'qs'
import { commonReader, optionsObject, requestCharset, type BaseOptions } from './options'
import { read, type BodyRequest, type Reader } from './read'
import { depthExceeded, tooManyParameters, unsupportedCharset } from './errors'
import type { BodyParser } from './json'

/** Options of `urlencoded()`. */
export interface UrlencodedOptions extends BaseOptions {
  /** false (default): flat values (strings and arrays); true: nested objects and arrays. */
  extended?: boolean
  /** Most parameters accepted (default 1000); more gives 413 `parameters.too.many`. */
  parameterLimit?: number
  /** Most nesting levels when `extended` (default 32); deeper gives a 400. */
  depth?: number
  /** Charset when the Content-Type names none: 'utf-8' (default) or 'iso-8859-1'. */
  defaultCharset?: 'utf-8' | 'iso-8859-1'
  /** Let a `utf8=` parameter carrying the sentinel character decide the charset. */
  charsetSentinel?: boolean
  /** Decode numeric character references (`&#9786;`) in iso-8859-1 forms. */
  interpretNumericEntities?: boolean
}

/**
 * Create a middleware that parses `application/x-www-form-urlencoded` bodies
 * into an object at `req.body`.
 * @example app.use(fw.urlencoded({ extended: true, parameterLimit: 100 }))
 */
export function urlencoded(options?: UrlencodedOptions): BodyParser {
  const opts = optionsObject<UrlencodedOptions>(options)
  const defaultCharset = compileDefaultCharset(opts.defaultCharset)
  const reader: Reader = {
    ...commonReader(opts, 'application/x-www-form-urlencoded'),
    charset: (req: IncomingMessage) => {
      const charset = requestCharset(req) ?? defaultCharset
      return charset === 'utf-8' || charset === 'iso-8859-1' ? charset : unsupportedCharset(charset)
    },
    parse: compileParser(opts)
  }
  return function urlencodedParser(req, res, next) {
    read(req as BodyRequest, res, next, reader)
  }
}

function compileDefaultCharset(charset: unknown): 'utf-8' | 'iso-8859-1' {
  if (charset === undefined || charset === null || charset === false || charset === '') return 'utf-8'
  if (charset !== 'utf-8' && charset !== 'iso-8859-1') {
    throw new TypeError('option defaultCharset must be either utf-8 or iso-8859-1')
  }
  return charset
}

function compileParameterLimit(limit: unknown): number {
  if (limit === undefined) return 1000
  const n = Number(limit)
  if (limit === null || Number.isNaN(n) || n < 1) throw new TypeError('option parameterLimit must be a positive number')
  return n
}

function compileDepth(depth: unknown): number {
  if (depth === undefined) return 32
  const n = Number(depth)
  if (Number.isNaN(n) || n < 0) throw new TypeError('option depth must be a zero or a positive number')
  return n
}

/** Arrays may grow to this many items, or to the number of parameters when that is larger. */
const MIN_ARRAY_LIMIT = 100

/** Build the parse function once: the qs options never change per request. */
function compileParser(opts: Partial<UrlencodedOptions>): (body: string, charset: string | null) => unknown {
  const extended = Boolean(opts.extended)
  const parameterLimit = compileParameterLimit(opts.parameterLimit)
  const depth = extended ? compileDepth(opts.depth) : 0
  const base: qs.IParseOptions = {
    allowPrototypes: true,
    depth,
    strictDepth: extended,
    parameterLimit,
    charsetSentinel: Boolean(opts.charsetSentinel),
    interpretNumericEntities: Boolean(opts.interpretNumericEntities),
    arrayLimit: MIN_ARRAY_LIMIT
  }
  const byCharset = {
    'utf-8': { ...base, charset: 'utf-8' as const },
    'iso-8859-1': { ...base, charset: 'iso-8859-1' as const }
  }
  const sentinel = base.charsetSentinel
  return (body, charset) => {
    const count = countParameters(body, parameterLimit)
    if (count > parameterLimit) throw tooManyParameters()
    if (charset === 'utf-8' && !sentinel && !NESTED.test(body)) return parseFlat(body)
    const options = byCharset[charset as 'utf-8' | 'iso-8859-1']
    try {
      return qs.parse(body, count <= MIN_ARRAY_LIMIT ? options : { ...options, arrayLimit: count })
    } catch (err) {
      if (err instanceof RangeError) throw depthExceeded()
      throw err
    }
  }
}

/** Count `&`-separated parameters, stopping as soon as the limit is passed. */
function countParameters(body: string, limit: number): number {
  let count = 1
  let at = body.indexOf('&')
  while (at !== -1 && count <= limit) {
    count++
    at = body.indexOf('&', at + 1)
  }
  return count
}

/**
 * Brackets, raw or percent-encoded, are what make qs build nested objects or
 * arrays; a body without any is flat whatever `extended` says.
 */
export const NESTED = /[[\]]|%5[bBdD]/

const hasOwn = Object.prototype.hasOwnProperty

/**
 * qs's answer for a flat UTF-8 body (no brackets, no charset sentinel, at
 * most parameterLimit parts), without its general machinery: each `&` part
 * splits at its first `=` (none: the value is ''), `+` turns into a space
 * and percent-escapes are decoded (a malformed one leaves the part as is),
 * an empty key and `__proto__` are dropped, a repeated key collects its
 * values into an array in order. Never more values than parts, and arrays
 * may hold at least 100 or the number of parts, so none overflows into an
 * object. `test/body/urlencoded.test.ts` compares it with qs on generated
 * bodies.
 */
export function parseFlat(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const end = body.length
  let start = 0
  while (start <= end) {
    let amp = body.indexOf('&', start)
    if (amp === -1) amp = end
    if (amp > start) {
      const eq = body.indexOf('=', start)
      let key: string
      let value: string
      if (eq === -1 || eq > amp) {
        key = decodePart(body.slice(start, amp))
        value = ''
      } else {
        key = decodePart(body.slice(start, eq))
        value = decodePart(body.slice(eq + 1, amp))
      }
      if (key !== '' && key !== '__proto__') {
        if (!hasOwn.call(out, key)) out[key] = value
        else {
          const prev = out[key]
          if (Array.isArray(prev)) prev.push(value)
          else out[key] = [prev, value]
        }
      }
    }
    start = amp + 1
  }
  return out
}

/** `+` is a space; percent-escapes decode as UTF-8, or stay as they are when malformed. */
function decodePart(part: string): string {
  if (part.indexOf('%') === -1) return part.indexOf('+') === -1 ? part : part.replace(PLUS, ' ')
  const spaced = part.replace(PLUS, ' ')
  try {
    return decodeURIComponent(spaced)
  } catch {
    return spaced
  }
}

const PLUS = /\+/g
