// Error factories of the body parsers: http-errors objects carrying
// body-parser's machine-readable `type` strings, unchanged for compatibility.
import createError from 'http-errors'

/** An http-errors error as produced by the body parsers. */
export type BodyError = createError.HttpError & { type?: string; [field: string]: unknown }

/**
 * 415 `charset.unsupported`: the request names a charset the parser does not accept.
 * @example next(unsupportedCharset('latin1'))
 */
export function unsupportedCharset(charset: string, lower = true): BodyError {
  return createError(415, 'unsupported charset "' + charset.toUpperCase() + '"', {
    charset: lower ? charset.toLowerCase() : charset,
    type: 'charset.unsupported'
  }) as BodyError
}

/**
 * 415 `encoding.unsupported`: a Content-Encoding the parser cannot (or may not) inflate.
 * `refused` is true when inflation is disabled by `inflate: false`.
 */
export function unsupportedEncoding(encoding: string, refused: boolean): BodyError {
  const message = refused ? 'content encoding unsupported' : 'unsupported content encoding "' + encoding + '"'
  return createError(415, message, { encoding, type: 'encoding.unsupported' }) as BodyError
}

/**
 * Wrap an error thrown by a parse function: keeps its own status and type
 * when it has them, otherwise 400 `entity.parse.failed`; `body` is the text read.
 */
export function parseFailed(err: unknown, body: unknown): BodyError {
  const type = (err as { type?: unknown } | null)?.type
  return createError(400, err as Error, {
    body,
    type: type || 'entity.parse.failed'
  }) as BodyError
}

/**
 * Wrap an error thrown by `verify`: 403 unless it carries its own status, and
 * type `entity.verify.failed` unless it carries its own (truthy) `type`.
 */
export function verifyFailed(err: unknown, body: Buffer): BodyError {
  // `throw null` / `throw undefined`: body-parser 2.4 crashes the process here; answer a plain 403 instead
  if (err === null || err === undefined) return createError(403, { body, type: 'entity.verify.failed' }) as BodyError
  const type = (err as { type?: unknown }).type
  return createError(403, err as Error, { body, type: type || 'entity.verify.failed' }) as BodyError
}

/** Wrap a read error (raw-body, zlib): keeps its status (413, 400, 500...), else 400. */
export function readFailed(err: unknown): BodyError {
  return createError(400, err as Error) as BodyError
}

/** 413 `parameters.too.many`: the urlencoded body has more parameters than `parameterLimit`. */
export function tooManyParameters(): BodyError {
  return createError(413, 'too many parameters', { type: 'parameters.too.many' }) as BodyError
}

/** 400 `querystring.parse.rangeError`: an extended urlencoded body nests deeper than `depth`. */
export function depthExceeded(): BodyError {
  return createError(400, 'The input exceeded the depth', { type: 'querystring.parse.rangeError' }) as BodyError
}
