import { parse as parseQuerystring } from 'node:querystring'
import { entityTag, stringTag } from './etag'
import proxyaddr from 'proxy-addr'
import qs from 'qs'

/** An ETag generator as stored in the `etag fn` setting. */
export type ETagFn = (body: string | Buffer, encoding?: BufferEncoding) => string
/** A query-string parser as stored in the `query parser fn` setting. */
export type QueryParserFn = (str: string) => Record<string, unknown>
/** A proxy trust test as stored in the `trust proxy fn` setting. */
export type TrustFn = (addr: string, i: number) => boolean

/** Weak ETag of a body (the default `etag` setting). */
export const weakETag: ETagFn = function generateETag(body, encoding) {
  return entityTag(body, encoding, true)
}
/** Strong ETag of a body. */
export const strongETag: ETagFn = function generateETag(body, encoding) {
  return entityTag(body, encoding, false)
}

/** Is `fn` one of the built-in generators (which accept utf-8 strings as they are)? */
export function isBuiltinETag(fn: unknown): boolean {
  return fn === weakETag || fn === strongETag
}

/**
 * The tag a built-in generator gives a UTF-8 string body whose byte length
 * the caller already knows (res.send computed it for Content-Length).
 */
export function builtinStringTag(fn: ETagFn, body: string, length: number): string {
  return stringTag(body, length, fn === weakETag)
}

/** Compile the `etag` setting (true/'weak', 'strong', false, or a function). */
export function compileETag(val: unknown): ETagFn | undefined {
  if (typeof val === 'function') return val as ETagFn
  switch (val) {
    case true:
    case 'weak':
      return weakETag
    case false:
      return undefined
    case 'strong':
      return strongETag
    default:
      throw new TypeError('unknown value for etag function: ' + (val as string)) // a symbol throws here, as in Express
  }
}

function parseExtendedQueryString(str: string): Record<string, unknown> {
  return qs.parse(str, { allowPrototypes: true })
}

/** Compile the `query parser` setting (true/'simple', 'extended', false, or a function). */
export function compileQueryParser(val: unknown): QueryParserFn | undefined {
  if (typeof val === 'function') return val as QueryParserFn
  switch (val) {
    case true:
    case 'simple':
      return parseQuerystring as QueryParserFn
    case false:
      return undefined
    case 'extended':
      return parseExtendedQueryString
    default:
      throw new TypeError('unknown value for query parser function: ' + (val as string)) // a symbol throws here, as in Express
  }
}

/** Compile the `trust proxy` setting (boolean, hop count, address list, or a function). */
export function compileTrust(val: unknown): TrustFn {
  if (typeof val === 'function') return val as TrustFn
  if (val === true) return () => true
  if (typeof val === 'number') return (_addr, i) => i < val
  const list = typeof val === 'string' ? val.split(',').map((v) => v.trim()) : val
  return proxyaddr.compile((list as string[]) || [])
}
