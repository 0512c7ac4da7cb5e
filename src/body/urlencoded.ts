// fw.urlencoded(): parse application/x-www-form-urlencoded bodies with qs,
// flat (extended: false) or nested (extended: true).
import type { IncomingMessage } from 'node:http'
import { debugNamespace } from '../utils/debug'
import qs from 'qs'
import { commonReader, optionsObject, requestCharset, type BaseOptions } from './options'
import { read, type BodyRequest, type Reader } from './read'
import { depthExceeded, tooManyParameters, unsupportedCharset } from './errors'
import type { BodyParser } from './json'

/** body-parser's debug namespace for this parser (`DEBUG=body-parser:urlencoded`). */
const debug = debugNamespace('body-parser:urlencoded')

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
    debug,
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
  if (!charset) return 'utf-8'
  if (charset !== 'utf-8' && charset !== 'iso-8859-1') {
    throw new TypeError('option defaultCharset must be either utf-8 or iso-8859-1')
  }
  return charset
}

/**
 * Check `parameterLimit` as body-parser does, and make it what body-parser
 * passes on: a finite value cut to an integer (`'10'` gives 10, 2.7 gives 2),
 * anything else as given (`Infinity`, or the string `'Infinity'`, which the
 * count compares as Infinity and qs replaces with its own limit of 1000).
 */
function compileParameterLimit(limit: unknown): number {
  if (limit === undefined) return 1000
  // (unary plus, as body-parser's isNaN: a BigInt is refused with the same TypeError)
  const n = +(limit as number)
  if (Number.isNaN(n) || n < 1) throw new TypeError('option parameterLimit must be a positive number')
  return (Number.isFinite(n) ? n | 0 : limit) as number
}

/** Check `depth` as body-parser does, and keep it as given: qs then takes a number (or false) as it is, and anything else (null, '3') as its own default of 5. */
function compileDepth(depth: unknown): number {
  if (depth === undefined) return 32
  const n = +(depth as number)
  if (Number.isNaN(n) || n < 0) throw new TypeError('option depth must be a zero or a positive number')
  return depth as number
}

/** Arrays may grow to this many items, or to the number of parameters when that is larger. */
const MIN_ARRAY_LIMIT = 100

/** Build the parse function once: the qs options never change per request. */
function compileParser(opts: Partial<UrlencodedOptions>): (body: string, charset: string | null, bytes: Buffer | undefined) => unknown {
  const extended = Boolean(opts.extended)
  const parameterLimit = compileParameterLimit(opts.parameterLimit)
  const depth = extended ? compileDepth(opts.depth) : 0
  const base: qs.IParseOptions = {
    allowPrototypes: true,
    depth,
    strictDepth: extended,
    parameterLimit,
    // given to qs as they are, which takes only a boolean (anything else is
    // its default, false)
    charsetSentinel: opts.charsetSentinel === true,
    interpretNumericEntities: opts.interpretNumericEntities === true,
    arrayLimit: MIN_ARRAY_LIMIT
  }
  const byCharset = {
    'utf-8': { ...base, charset: 'utf-8' as const },
    'iso-8859-1': { ...base, charset: 'iso-8859-1' as const }
  }
  const sentinel = base.charsetSentinel
  // the keys of this parser's last flat form (see parseFlat)
  const keys = newKeyMemo()
  const parsing = extended ? 'parse extended urlencoding' : 'parse urlencoding'
  return (body, charset, bytes) => {
    // (the flat fast path counts as qs does only for a limit qs takes as it is, a number)
    if (charset === 'utf-8' && !sentinel && typeof parameterLimit === 'number') {
      let flat: Record<string, unknown> | undefined
      try {
        flat = parseFlat(body, parameterLimit, keys, bytes)
      } catch (err) {
        // (it throws only parameters.too.many)
        if (debug.on()) debug.log('too many parameters')
        throw err
      }
      if (flat !== undefined) {
        if (debug.on()) debug.log(parsing)
        return flat
      }
    }
    const count = countParameters(body, parameterLimit)
    if (count > parameterLimit) {
      if (debug.on()) debug.log('too many parameters')
      throw tooManyParameters()
    }
    if (debug.on()) debug.log(parsing)
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

const hasOwn = Object.prototype.hasOwnProperty

const AMP = 38 // &
const EQUALS = 61 // =
const PLUS_SIGN = 43 // +
const PERCENT = 37 // %
const FIVE = 53 // 5
const OPEN = 91 // [
const CLOSE = 93 // ]
/** Marks of a key or value seen by parseFlat: it holds a `+`, a `%`. */
const HAS_PLUS = 1
const HAS_PERCENT = 2

/**
 * qs's answer for a flat UTF-8 body (no charset sentinel), without its
 * general machinery, in one pass over the characters. Each `&` part splits
 * at its first `=` (none: the value is ''), `+` turns into a space and
 * percent-escapes are decoded (a malformed one leaves the part as is), an
 * empty key and `__proto__` are dropped, a repeated key collects its values
 * into an array in order. Never more values than parts, and arrays may hold
 * at least 100 or the number of parts, so none overflows into an object.
 *
 * Brackets, raw or percent-encoded (`[`, `]`, `%5B`, `%5D`), are what make
 * qs build nested objects or arrays, whatever `extended` says: on the first
 * one it gives up and returns undefined, for qs to parse the body. Past
 * `limit` parts it throws `parameters.too.many`, as counting them first
 * would. `test/body/urlencoded.test.ts` compares it with qs on generated
 * bodies. `keys`: the parser's memo of its last form (see KeyMemo).
 * `bytes`: what `body` was decoded from as UTF-8, if known. When there are
 * as many bytes as characters, each byte gave the character at its place
 * (a byte below 0x80 itself, any other U+FFFD), and the scan reads the
 * bytes: a byte of a Buffer is one load, where a string's `charCodeAt`
 * reads the string's kind first.
 */
export function parseFlat(body: string, limit: number, keys?: KeyMemo, bytes?: Uint8Array): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {}
  const end = body.length
  // the bytes the body was decoded from, read instead of the string when
  // each byte gave one character
  const raw = bytes !== undefined && bytes.length === end ? bytes : undefined
  let parts = 1
  let start = 0 // of the current part
  let eq = -1 // its first '='
  let keyMarks = 0
  let valueMarks = 0
  for (let i = 0; i < end; i++) {
    const c = raw !== undefined ? raw[i] : body.charCodeAt(i)
    if (c > CLOSE) continue // lower-case letters and most others: nothing to note
    if (c === AMP) {
      if (++parts > limit) throw tooManyParameters()
      if (i > start) addPart(out, body, raw, start, eq, i, keyMarks, valueMarks, keys, parts - 2)
      start = i + 1
      eq = -1
      keyMarks = 0
      valueMarks = 0
    } else if (c === EQUALS) {
      if (eq === -1) eq = i
    } else if (c === PLUS_SIGN) {
      if (eq === -1) keyMarks |= HAS_PLUS
      else valueMarks |= HAS_PLUS
    } else if (c === PERCENT) {
      if (body.charCodeAt(i + 1) === FIVE) {
        const letter = body.charCodeAt(i + 2) | 0x20 // lower case
        if (letter === 98 || letter === 100) return undefined // %5B, %5D
      }
      if (eq === -1) keyMarks |= HAS_PERCENT
      else valueMarks |= HAS_PERCENT
    } else if (c === OPEN || c === CLOSE) {
      return undefined
    }
  }
  if (end > start) addPart(out, body, raw, start, eq, end, keyMarks, valueMarks, keys, parts - 1)
  return out
}

/**
 * The keys of the last flat form a parser read, by part: most forms post
 * the same fields in the same order every time. A key read again from
 * here, compared by its characters, is the string V8 already keeps as a
 * property name; one sliced from the body is new, and every lookup of it
 * (`hasOwnProperty`, the store) first searches V8's string table
 *. Only the first KEY_PARTS parts, and
 * keys of at most KEY_LENGTH characters, are kept.
 */
export type KeyMemo = string[]
const KEY_PARTS = 32
const KEY_LENGTH = 64

/**
 * Does `body` hold `key` at `start`? (A loop: the keys are short.) With
 * `raw`, the body's bytes, one per character: a byte below 0x80 is the
 * character, any other is not (each such byte was decoded as U+FFFD), so a
 * key's character above 0x7F is compared with the string's.
 */
function sameKey(body: string, raw: Uint8Array | undefined, start: number, key: string): boolean {
  for (let i = 0; i < key.length; i++) {
    const k = key.charCodeAt(i)
    if ((raw !== undefined && k < 0x80 ? raw[start + i] : body.charCodeAt(start + i)) !== k) return false
  }
  return true
}

/** A parser's memo, with no keys yet. */
export function newKeyMemo(): KeyMemo {
  return new Array<string>(KEY_PARTS).fill('')
}

/** Decode one part (`eq`: its first '=', or -1; `slot`: its place in the body) and store it in `out` as qs would. */
function addPart(out: Record<string, unknown>, body: string, raw: Uint8Array | undefined, start: number, eq: number, end: number, keyMarks: number, valueMarks: number, keys: KeyMemo | undefined, slot: number): void {
  const keyEnd = eq === -1 ? end : eq
  let key: string
  if (keyMarks === 0 && keys !== undefined && slot < KEY_PARTS) {
    const known = keys[slot]
    if (known.length === keyEnd - start && sameKey(body, raw, start, known)) key = known
    else {
      key = body.slice(start, keyEnd)
      if (key.length <= KEY_LENGTH) keys[slot] = key
    }
  } else {
    key = decodePart(body, raw, start, keyEnd, keyMarks)
  }
  const value = eq === -1 ? '' : decodePart(body, raw, eq + 1, end, valueMarks)
  if (key === '' || key === '__proto__') return
  if (!hasOwn.call(out, key)) out[key] = value
  else {
    const prev = out[key]
    if (Array.isArray(prev)) prev.push(value)
    else out[key] = [prev, value]
  }
}

/**
 * `body[start, end)` as qs decodes it: `+` is a space, then percent-escapes
 * decode as UTF-8, and a part with a malformed one stays as it is (spaces
 * only). Escapes of ASCII characters (`%00` to `%7F`) and `+` are decoded
 * here in one pass; on any other escape, or a malformed one, the part goes
 * through `decodeURIComponent` as qs does.
 */
function decodePart(body: string, raw: Uint8Array | undefined, start: number, end: number, marks: number): string {
  if (marks === 0) return body.slice(start, end)
  let out = ''
  let last = start // the first character not yet in out
  for (let i = start; i < end; i++) {
    const c = raw !== undefined ? raw[i] : body.charCodeAt(i)
    if (c === PLUS_SIGN) {
      out += i > last ? body.slice(last, i) + ' ' : ' '
      last = i + 1
    } else if (c === PERCENT) {
      const high = i + 2 < end ? hexValue(body.charCodeAt(i + 1)) : -1
      const low = high === -1 ? -1 : hexValue(body.charCodeAt(i + 2))
      // malformed, or past ASCII (a UTF-8 sequence to validate and join)
      if (low === -1 || high > 7) return decodeSlow(body.slice(start, end), marks)
      const decoded = String.fromCharCode(high * 16 + low)
      out += i > last ? body.slice(last, i) + decoded : decoded
      last = i + 3
      i += 2
    }
  }
  return last < end ? out + body.slice(last, end) : out
}

/** The value of one hexadecimal digit, or -1. */
function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48 // 0-9
  const lower = c | 0x20
  return lower >= 97 && lower <= 102 ? lower - 87 : -1 // a-f, A-F
}

/** qs's own decoding of a part: `+` to spaces, then decodeURIComponent, or the spaced part when it throws. */
function decodeSlow(part: string, marks: number): string {
  const spaced = (marks & HAS_PLUS) === 0 ? part : part.replace(PLUS, ' ')
  try {
    return decodeURIComponent(spaced)
  } catch {
    return spaced
  }
}

const PLUS = /\+/g
