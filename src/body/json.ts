// fw.json(): parse JSON bodies into req.body.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { debugNamespace } from '../utils/debug'
import { commonReader, optionsObject, requestCharset, type BaseOptions } from './options'
import { read, type BodyRequest, type Next, type Reader } from './read'
import { unsupportedCharset } from './errors'

/** body-parser's debug namespace for this parser (`DEBUG=body-parser:json`). */
const debug = debugNamespace('body-parser:json')

/** Options of `json()`. */
export interface JsonOptions extends BaseOptions {
  /** Second argument of `JSON.parse`. */
  reviver?: ((this: unknown, key: string, value: unknown) => unknown) | null
  /** Accept only objects and arrays at the top level (default true). */
  strict?: boolean
}

/** A body-parsing middleware as returned by the four factories. */
export type BodyParser = (req: IncomingMessage, res: ServerResponse, next: Next) => void

type Reviver = (this: unknown, key: string, value: unknown) => unknown

/** Placeholders for the strict-mode error message: characters no JSON text may start with. */
const PLACEHOLDERS = '#@~`%^|!&*;<>?'

/**
 * Create a middleware that parses `application/json` bodies (any UTF charset)
 * into `req.body`.
 * @example app.use(fw.json({ limit: '1mb', strict: false }))
 */
export function json(options?: JsonOptions): BodyParser {
  const opts = optionsObject<JsonOptions>(options)
  const reviver = typeof opts.reviver === 'function' ? (opts.reviver as Reviver) : undefined
  // body-parser's default for every parser, json's too: a charset that is
  // not UTF is refused as a request's would be
  const defaultCharset = (opts as { defaultCharset?: string }).defaultCharset || 'utf-8'
  const reader: Reader = {
    debug,
    ...commonReader(opts, 'application/json'),
    charset: (req: IncomingMessage) => jsonCharset(req, defaultCharset),
    parse: opts.strict === false ? (body: string) => parseLoose(body, reviver) : (body: string) => parseStrict(body, reviver)
  }
  return function jsonParser(req, res, next) {
    read(req as BodyRequest, res, next, reader)
  }
}

function jsonCharset(req: IncomingMessage, defaultCharset: string): string | ReturnType<typeof unsupportedCharset> {
  const charset = requestCharset(req) ?? defaultCharset
  // (the error names the charset as found: a default keeps its case)
  return charset.startsWith('utf-') ? charset : unsupportedCharset(charset, false)
}

function parseLoose(body: string, reviver: Reviver | undefined): unknown {
  if (body.length === 0) return {}
  if (debug.on()) debug.log('parse json')
  return JSON.parse(body, reviver)
}

function parseStrict(body: string, reviver: Reviver | undefined): unknown {
  if (body.length === 0) return {}
  const first = firstToken(body)
  if (first === -1 || (body[first] !== '{' && body[first] !== '[')) {
    // (body-parser says so for anything but an object or array, and then
    // fails as JSON.parse fails: its own error for a value, JSON.parse's for the rest)
    if (debug.on()) debug.log('strict violation')
    if (first !== -1 && startsValue(body.charCodeAt(first))) throw strictViolation(body, first)
    return JSON.parse(body, reviver)
  }
  if (debug.on()) debug.log('parse json')
  return JSON.parse(body, reviver)
}

/** Index of the first character that is not JSON whitespace, or -1. */
function firstToken(body: string): number {
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i)
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return i
  }
  return -1
}

/** True for a character that starts a valid non-container JSON value: `"`, `-`, a digit, t, f, n. */
function startsValue(c: number): boolean {
  return c === 0x22 || c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e
}

/**
 * The SyntaxError for a top-level primitive in strict mode, worded exactly as
 * `JSON.parse` words an unexpected token at that position: parse a copy with an
 * invalid placeholder there, then put the real character back into the message.
 */
function strictViolation(body: string, index: number): SyntaxError {
  const char = body[index]
  for (const placeholder of PLACEHOLDERS) {
    if (body.includes(placeholder)) continue
    try {
      JSON.parse(body.slice(0, index) + placeholder + body.slice(index + 1))
    } catch (err) {
      const error = err as SyntaxError
      error.message = error.message.split(placeholder).join(char)
      return error
    }
  }
  return new SyntaxError('Unexpected token \'' + char + '\', "' + body + '" is not valid JSON')
}
