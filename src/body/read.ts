// The one read core shared by json, raw, text and urlencoded: skip rules,
// charset policy, inflation, the size limit, verify, decoding, parsing, and
// draining the request when anything goes wrong.
import { AsyncResource } from 'node:async_hooks'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Readable, Transform } from 'node:stream'
import zlib from 'node:zlib'
import createError from 'http-errors'
import getRawBody from 'raw-body'
import iconv from 'iconv-lite'
import onFinished from 'on-finished'
import typeis from 'type-is'
import { parseFailed, readFailed, unsupportedCharset, unsupportedEncoding, verifyFailed, type BodyError } from './errors'
import type { Matcher, VerifyFunction } from './options'
import { http2HasBody } from '../http2'
import type { DebugNamespace } from '../utils/debug'

// The packages' functions held once: each use of a default import compiles
// to a load of `default` from the bundle's import object, which V8's
// optimized code leaves as a generic LoadIC call
const rawBody = getRawBody
const finished = onFinished
const types = typeis

/** The continuation a parser middleware receives. */
export type Next = (err?: unknown) => void

/** A request as the parsers see it: `body` is where the result goes. */
export type BodyRequest = IncomingMessage & { body?: unknown }

/** Everything the read core needs to know about one parser, compiled once at creation. */
export interface Reader {
  /** Largest accepted (inflated) body in bytes. */
  limit: number
  /** Whether compressed bodies are inflated (false: 415). */
  inflate: boolean
  /** The user's verify hook, if any. */
  verify: VerifyFunction | undefined
  /** True when this parser handles the request's Content-Type. */
  matches: Matcher
  /** The charset to decode with (null: keep the Buffer), or a 415 error to answer with. */
  charset: (req: IncomingMessage) => string | null | BodyError
  /**
   * Turn the decoded body into `req.body`; throwing gives a 400 (or the
   * error's own status). `bytes`: what a UTF-8 body was decoded from, when
   * the read gave bytes (for the form's scan: src/body/urlencoded.ts).
   */
  parse: (body: string & Buffer, charset: string | null, bytes: Buffer | undefined) => unknown
  /** body-parser's debug namespace for this parser (`body-parser:json`...), with its messages. */
  debug: DebugNamespace
}

/** What body-parser prints when it inflates a body, by Content-Encoding. */
const INFLATING: Record<string, string> = { gzip: 'gunzip body', deflate: 'inflate body', br: 'brotli decompress body' }

type Inflater = () => Transform

const zstd = (zlib as unknown as { createZstdDecompress?: Inflater }).createZstdDecompress

/** The decompressor for a Content-Encoding, or undefined when it is not supported. */
function inflaterFor(encoding: string): Inflater | undefined {
  switch (encoding) {
    case 'deflate': return zlib.createInflate
    case 'gzip': return zlib.createGunzip
    case 'br': return zlib.createBrotliDecompress
    case 'zstd': return zstd
    default: return undefined
  }
}

const knownCharsets = new Map<string, boolean>([['utf-8', true]])

function charsetExists(charset: string): boolean {
  let known = knownCharsets.get(charset)
  if (known === undefined) {
    known = iconv.encodingExists(charset)
    if (knownCharsets.size >= 64) knownCharsets.clear()
    knownCharsets.set(charset, known)
  }
  return known
}

/**
 * Run one parser over a request. Skips (plain `next()`) when the body was
 * already read, when there is no body or when the Content-Type does not match;
 * otherwise reads, verifies and parses the body into `req.body`, or passes an
 * http-errors error to `next` once the request stream has been drained.
 * @example read(req, res, next, reader)
 */
export function read(req: BodyRequest, res: ServerResponse, next: Next, reader: Reader): void {
  const debug = reader.debug
  const log = debug.on()
  if (finished.isFinished(req)) {
    if (log) debug.log('body already parsed')
    next()
    return
  }
  if (!('body' in req)) req.body = undefined
  // an HTTP/2 body needs no Content-Length nor Transfer-Encoding
  if (!types.hasBody(req) && !http2HasBody(req)) {
    if (log) debug.log('skip empty body')
    next()
    return
  }
  if (log) debug.log('content-type %j', req.headers['content-type'])
  if (!reader.matches(req)) {
    if (log) debug.log('skip parsing')
    next()
    return
  }

  const charset = reader.charset(req)
  if (charset !== null && typeof charset !== 'string') {
    if (log) debug.log('invalid charset')
    next(charset)
    return
  }
  // A charset iconv does not know is refused, as body-parser refuses it:
  // - with `verify` (which gets the raw bytes), at once, before anything else;
  // - without, by the read (raw-body asked to decode), below.
  const unknownCharset = charset !== null && !charsetExists(charset)
  if (unknownCharset && reader.verify !== undefined) { next(unsupportedCharset(charset)); return }

  let encoding: string
  try {
    // (a Content-Encoding that is not a string, from a hand-made request,
    // fails here and goes to next, as in body-parser)
    encoding = ((req.headers['content-encoding'] || 'identity') as string).toLowerCase()
  } catch (err) {
    next(err)
    return
  }
  if (log) debug.log('content-encoding "%s"', encoding)
  let inflater: Inflater | undefined
  if (encoding !== 'identity') {
    if (!reader.inflate) { next(unsupportedEncoding(encoding, true)); return }
    inflater = inflaterFor(encoding)
    if (inflater === undefined) { next(unsupportedEncoding(encoding, false)); return }
    if (log) debug.log(INFLATING[encoding] ?? encoding + ' body')
  }
  // the Content-Length as given, for raw-body to read as body-parser has it
  // read; and the number raw-body makes of it
  const declared = inflater === undefined ? req.headers['content-length'] : undefined
  const length = declared != null && !isNaN(declared as unknown as number) ? parseInt(declared, 10) : undefined
  if (log) debug.log('read body')
  // without `verify`: a declared length over the limit answers 413 first;
  // otherwise the body is read off and the 415 reported once the request is
  // finished, as any failed read is
  if (unknownCharset && !(length !== undefined && length > reader.limit)) { fail(req, req, unsupportedCharset(charset), next); return }

  // nothing has touched the stream so far: on the errors above Node discards the body itself
  let stream: Readable = req
  if (inflater !== undefined) stream = req.pipe(inflater())
  // body-parser has raw-body decode the body when there is no `verify`. For
  // a request that is the same as decoding the bytes once read (below), but
  // a hand-made stream in object mode may give strings: that one is read as
  // body-parser reads it, decoded chunk by chunk
  const decodeAs = charset !== null && reader.verify === undefined && stream.readableObjectMode === true ? charset : undefined

  // a request's own bytes (the common case) are read here, raw-body's way;
  // an inflated or object-mode stream goes through raw-body itself
  const readWith = stream === req && decodeAs === undefined && haltable(stream) ? readBytes : rawBody
  // (the bytes are only decoded when they have a charset and no `verify`
  // sees them: then a body that came in one chunk is decoded from it)
  const own = charset === null || reader.verify !== undefined
  readWith(stream, { length: declared, limit: reader.limit, encoding: decodeAs, parsedLength: length, own }, (err, buf: Buffer | string) => {
    if (err) { fail(req, stream, readFailed(err), next); return }
    if (stream !== req) {
      // the inflater is done: detach it and let req flow, as body-parser does
      req.unpipe(stream as unknown as NodeJS.WritableStream)
      stream.on('error', ignore)
      stream.destroy()
      req.resume()
    }
    finish(req, res, next, reader, buf, charset)
  })
}

/** An error the detached inflater may still emit goes nowhere. */
function ignore(): void {}

/** Verify, decode and parse a fully read body (a string only when decoded by the read, with no `verify`). */
function finish(req: BodyRequest, res: ServerResponse, next: Next, reader: Reader, buf: Buffer | string, charset: string | null): void {
  const debug = reader.debug
  if (reader.verify !== undefined) {
    if (debug.on()) debug.log('verify body')
    try {
      reader.verify(req, res, buf as Buffer, charset)
    } catch (err) {
      next(verifyFailed(err, buf as Buffer))
      return
    }
  }
  // decoding, parsing and storing req.body in one try, as body-parser does
  // (a req.body that cannot be written gives the 400 too)
  if (debug.on()) debug.log('parse body')
  let body: string | Buffer = buf
  try {
    let bytes: Buffer | undefined
    if (charset !== null && typeof buf !== 'string') {
      body = decode(buf, charset)
      if (charset === 'utf-8') bytes = buf
    }
    req.body = reader.parse(body as string & Buffer, charset, bytes)
  } catch (err) {
    next(parseFailed(err, body))
    return
  }
  next()
}

/** Decode with the charset; UTF-8 (the common case) skips iconv, dropping a BOM like iconv does. */
function decode(buf: Buffer, charset: string): string {
  if (charset === 'utf-8') {
    const start = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0
    return buf.toString('utf8', start)
  }
  return iconv.decode(buf, charset)
}

/** Detach an inflater that will not be read. */
function drop(req: IncomingMessage, stream: Readable): void {
  if (stream !== req) {
    req.unpipe(stream as unknown as NodeJS.WritableStream)
    stream.destroy()
  }
}

/**
 * A read failed: detach the inflater, let the rest of the request body flow
 * away, and report once the request is finished (so a keep-alive connection
 * is never left half-read and the client is not cut off mid-upload).
 */
function fail(req: IncomingMessage, stream: Readable, err: BodyError, next: Next): void {
  drop(req, stream)
  if (onFinished.isFinished(req)) { next(err); return }
  // (named as body-parser's listener: on-finished names the AsyncResource
  // it runs in after it, which async_hooks report)
  onFinished(req, function onfinished() { next(err) })
  req.resume()
}

/** What read hands to raw-body, and to readBytes. */
interface ReadOptions {
  length: string | undefined
  limit: number
  encoding: string | undefined
  /** `length` as raw-body makes a number of it, already made by read (raw-body ignores it) */
  parsedLength: number | undefined
  /**
   * Must the bytes be a Buffer of their own, as raw-body's `Buffer.concat`
   * makes them (they become `req.body`, or `verify` gets them)? When not,
   * readBytes hands over a body read in one chunk as it is.
   */
  own: boolean
}

type ReadCallback = (err: any, buf: Buffer | string) => void

/**
 * raw-body 3's read of a request's bytes (no decoding), with the same
 * answers: the same checks in the same order, the same errors (http-errors
 * objects with the same fields), the callback in an AsyncResource named as
 * raw-body names it (async_hooks and AsyncLocalStorage see what they see
 * with body-parser), a failed read's stream unpiped and paused. What it
 * leaves out is what a read of a request never needs: raw-body's argument
 * checks and option parsing (the options here are body-parser's, already
 * checked), the decoder, and the `close` listener, which only takes the
 * other listeners off a stream that closed without ending (Node emits
 * `aborted` first; the listeners then stay on a closed stream that emits
 * nothing more). Its listeners are methods of one object (no naming call per
 * request) and are all removed when the read ends, as raw-body's are.
 * Measured: ~1.8k instructions per body less than raw-body.
 */
function readBytes(stream: Readable, options: ReadOptions, callback: ReadCallback): void {
  const resource = new AsyncResource('bound-anonymous-fn')
  const limit = options.limit
  const length = options.parsedLength ?? null
  // (before any listener is on, a failure is reported on the next tick, as raw-body reports it)
  if (length !== null && length > limit) {
    process.nextTick(halted, stream, resource, callback, createError(413, 'request entity too large', { expected: length, length, limit, type: 'entity.too.large' }))
    return
  }
  const state = (stream as any)._readableState
  if ((stream as any)._decoder || (state && (state.encoding || state.decoder))) {
    process.nextTick(halted, stream, resource, callback, createError(500, 'stream encoding should not be set', { type: 'stream.encoding.set' }))
    return
  }
  if (typeof stream.readable !== 'undefined' && !stream.readable) {
    process.nextTick(halted, stream, resource, callback, createError(500, 'stream is not readable', { type: 'stream.not.readable' }))
    return
  }
  let complete = false
  let received = 0
  const chunks: Buffer[] = []
  // (methods, not nested functions: the build names each of those with a call per request)
  const on = {
    aborted(): void {
      if (complete) return
      on.fail(createError(400, 'request aborted', { code: 'ECONNABORTED', expected: length, length, received, type: 'request.aborted' }))
    },
    data(chunk: Buffer): void {
      if (complete) return
      received += chunk.length
      if (received > limit) on.fail(createError(413, 'request entity too large', { limit, received, type: 'entity.too.large' }))
      else chunks.push(chunk)
    },
    end(err?: unknown): void {
      if (complete) return
      if (err) on.fail(err)
      else if (length !== null && received !== length) {
        on.fail(createError(400, 'request size did not match content length', { expected: length, length, received, type: 'request.size.invalid' }))
      } else {
        on.off()
        // (a chunk that is not a Buffer, from a hand-made stream, still goes
        // through Buffer.concat, and fails there as it does in raw-body)
        const one = chunks.length === 1 && !options.own ? chunks[0] : undefined
        resource.runInAsyncScope(callback, null, null, one instanceof Buffer ? one : Buffer.concat(chunks))
      }
    },
    fail(err: unknown): void {
      on.off()
      halted(stream, resource, callback, err)
    },
    /** The read is over: every listener comes off. */
    off(): void {
      complete = true
      stream.removeListener('aborted', on.aborted)
      stream.removeListener('data', on.data)
      stream.removeListener('end', on.end)
      stream.removeListener('error', on.end)
    }
  }
  stream.on('aborted', on.aborted)
  stream.on('data', on.data)
  stream.on('end', on.end)
  stream.on('error', on.end)
}

/** Has the stream the `unpipe` and `pause` with which raw-body stops a stream whose read failed (a hand-made request may not)? */
function haltable(stream: Readable): boolean {
  return typeof stream.unpipe === 'function' && typeof stream.pause === 'function'
}

/** A failed read's end: the stream unpiped and paused (as raw-body leaves it), then the callback with the error. */
function halted(stream: Readable, resource: AsyncResource, callback: ReadCallback, err: unknown): void {
  stream.unpipe()
  stream.pause()
  resource.runInAsyncScope(callback, null, err)
}
