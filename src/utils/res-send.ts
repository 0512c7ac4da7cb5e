// res.send's work: the body's Content-Type, Content-Length and ETag, the
// 304/204/205 rules and the write. `calls` says whether a middleware replaced
// or wrapped res.get, set, type or status (see src/response.ts): then every
// header goes through them, with Express's arguments in Express's order;
// otherwise the same headers are written directly.
import http from 'node:http'
import { Buffer } from 'node:buffer'
import { builtinStringTag, isBuiltinETag, type ETagFn } from './compile'
import { holdsHeader, nodeOwn, putHeader, readHeader } from './headers'
import { withUtf8Charset } from './res-type'
import type { Response, ResponseRequest } from '../response'

const HTML_UTF8 = 'text/html; charset=utf-8'

/** A body on its way to `res.end`: a view other than a Buffer stays one where Express keeps it. */
type Chunk = string | Buffer | ArrayBufferView | undefined

// (Node's own only: see nodeOwn)
const nativeEnd = nodeOwn(http.OutgoingMessage.prototype.end, 'function end(chunk, encoding, callback) {')
const nativeWriteHead = nodeOwn(http.ServerResponse.prototype.writeHead, 'function writeHead(statusCode, reason, obj) {')
const nativeImplicitHeader = nodeOwn((http.ServerResponse.prototype as any)._implicitHeader, 'function _implicitHeader() {')

/** `res.send(body)`: see its description in src/response.ts. */
export function sendBody(res: Response, req: ResponseRequest, body: unknown, calls: boolean): Response {
  let chunk: Chunk
  switch (typeof body) {
    case 'string':
      chunk = body
      stringType(res, calls)
      break
    case 'undefined':
      break
    case 'object':
      if (body === null) {
        // an empty body; the Content-Type stays as it is (express@5.3 adds no charset here)
        chunk = ''
        break
      }
      if (ArrayBuffer.isView(body)) {
        chunk = body
        if (!res.get('Content-Type')) res.type('bin')
        break
      }
      return res.json(body)
    case 'boolean':
    case 'number':
      return res.json(body)
    default:
      refuseBody(res, body, calls)
  }

  // would Express have turned the body into bytes? (see writeBody)
  let bytesInExpress = false
  let ascii = false
  // (asked with or without a body, as Express asks)
  const etagFn = etagToMake(res, calls)
  if (chunk !== undefined) {
    const generate = etagFn !== undefined
    let length: number
    if (typeof chunk === 'string') {
      bytesInExpress = generate || chunk.length >= 1000
      length = Buffer.byteLength(chunk, 'utf8')
      // a character above 0x7F takes two or more UTF-8 bytes
      ascii = length === chunk.length
    } else {
      // a view other than a Buffer: Express copies it into one, element by
      // element, when it makes a tag or its length (of elements) is not below
      // 1000 (a Uint16Array's values cut to bytes; a DataView, which has no
      // length, gives no bytes), and otherwise hands it to end() as it is
      // (where Node takes only a Uint8Array)
      if (!Buffer.isBuffer(chunk) && (generate || !((chunk as Uint8Array).length < 1000))) chunk = Buffer.from(chunk as Uint8Array)
      length = chunk.byteLength
    }
    chunk = lengthAndEtag(res, chunk, length, etagFn, calls)
  }
  // what Express passes to end() with the body: 'utf8' for a string it keeps
  const encoding: BufferEncoding | undefined = typeof body === 'string' && !bytesInExpress ? 'utf8' : undefined
  if (req.fresh) res.status(304)
  const code = res.statusCode
  if (code === 204 || code === 304) {
    // no body nor entity headers
    res.removeHeader('Content-Type')
    res.removeHeader('Content-Length')
    res.removeHeader('Transfer-Encoding')
    chunk = ''
    bytesInExpress = false // Express sends the emptied body as a string too
  } else if (code === 205) {
    // an empty body
    res.set('Content-Length', '0')
    res.removeHeader('Transfer-Encoding')
    chunk = ''
    bytesInExpress = false
  }

  if (req.method === 'HEAD') res.end()
  else writeBody(res, chunk, bytesInExpress, ascii, encoding)
  return res
}

/**
 * A string body gets `text/html` unless a string type is set (any other value
 * is replaced, as Express does), and a set type gets the utf-8 charset. An
 * empty type stays empty through Express's setCharset, and its `res.set`
 * turns '' into `false` (mime-types' `contentType('')`): the header is sent
 * as "false".
 */
function stringType(res: Response, calls: boolean): void {
  if (calls) {
    const set = res.get('Content-Type')
    if (typeof set !== 'string') res.type('html')
    else res.set('Content-Type', set === '' ? '' : withUtf8Charset(set))
    return
  }
  const type = readHeader(res, 'Content-Type', 'content-type')
  if (typeof type !== 'string') {
    putHeader(res, 'Content-Type', 'content-type', HTML_UTF8)
  } else if (type === '') {
    res.setHeader('Content-Type', false as unknown as string)
  } else {
    const value = withUtf8Charset(type)
    // the same value again (res.json's type): setHeader validated it already
    if (value === type) putHeader(res, 'Content-Type', 'content-type', value)
    else res.setHeader('Content-Type', value)
  }
}

/**
 * A function, symbol or bigint body: Express passes it on to Buffer, which
 * refuses it with its own TypeError; the same call here gives the same error
 * (`Buffer.byteLength` when Express would only measure it: no ETag to make
 * and a `length` below 1000; `Buffer.from` otherwise).
 */
function refuseBody(res: Response, body: unknown, calls: boolean): never {
  if (etagToMake(res, calls) === undefined && (body as { length?: number }).length! < 1000) Buffer.byteLength(body as string)
  Buffer.from(body as string)
  throw new TypeError('res.send() cannot send a ' + typeof body) // (Buffer.from refuses all three)
}

/** The app's etag function when `res.send` makes a tag (the handler set no ETag), as Express decides it; otherwise undefined. */
function etagToMake(res: Response, calls: boolean): ETagFn | undefined {
  const etagFn = res.app.get('etag fn')
  const set = calls ? res.get('ETag') : readHeader(res, 'ETag', 'etag')
  return typeof etagFn === 'function' && !set ? etagFn : undefined
}

/**
 * Content-Length (a string, as Express stores it; `length` is the body's
 * byte length) and, when the app has an etag function, the ETag. Returns the
 * body to write: bytes for a user's etag function, which gets them as in
 * Express.
 */
function lengthAndEtag(res: Response, chunk: string | ArrayBufferView, length: number, etagFn: ETagFn | undefined, calls: boolean): string | ArrayBufferView {
  const body = typeof chunk === 'string' && etagFn !== undefined && !isBuiltinETag(etagFn) ? Buffer.from(chunk, 'utf8') : chunk
  if (calls) {
    // (Express passes the length as a number; res.set makes it a string)
    if (!res.get('Transfer-Encoding')) res.set('Content-Length', length as unknown as string)
  } else if (!readHeader(res, 'Transfer-Encoding', 'transfer-encoding')) {
    putHeader(res, 'Content-Length', 'content-length', String(length))
  }
  if (etagFn === undefined) return body
  if (typeof body === 'string') {
    // the built-in tag: W/"<hex length>-<base64>", always a valid value
    const tag = builtinStringTag(etagFn, body, length)
    if (calls) res.set('ETag', tag)
    else putHeader(res, 'ETag', 'etag', tag)
  } else {
    // a user's tag goes through res.set, as in Express (a number is stored as a string)
    const tag = etagFn(body as Buffer, undefined)
    if (tag) res.set('ETag', tag as string)
  }
  return body
}

/**
 * End the response with `chunk`, as `res.send` would in Express:
 * `res.end(chunk, encoding)`, where `chunk` is a Buffer when Express makes
 * one (`bytesInExpress`) and `encoding` is what Express passes ('utf8' for a
 * string it keeps).
 *
 * Only a `res.end` of a middleware's own (a body logger, compression,
 * express-session) can tell what it is called with, and while it runs it may
 * still set headers: it gets exactly that. Node's own `end` only shows the
 * bytes, so the string stays a string, and Node writes head and body in one
 * piece instead of two:
 * - an ASCII body goes as latin1: the head then leaves in latin1 as Express's
 *   does, and the body's bytes are the same in either encoding;
 * - any other body goes as UTF-8 unless the head holds a byte above 0x7F
 *   (Node would then send the head in UTF-8, where Express's goes in
 *   latin1); the head is built by `writeHead` first, to see, when that is
 *   Node's own and no Content-Disposition is set; otherwise as bytes.
 */
function writeBody(res: Response, chunk: Chunk, bytesInExpress: boolean, ascii: boolean, encoding: BufferEncoding | undefined): void {
  if (res.end !== nativeEnd) {
    ;(res.end as (chunk: unknown, encoding: unknown) => void)(bytesInExpress && typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk, encoding)
    return
  }
  if (bytesInExpress && typeof chunk === 'string') {
    const socket = res.socket
    if (socket != null && socket.destroyed) {
      // no client will read it, but what is left shows: Node keeps the head
      // of a Buffer body in its output queue (writableLength,
      // writableFinished, 'prefinish', stream.finished), as in Express.
      // (Not for a response still queued behind a pipelined one, which has
      // no socket yet: its one write keeps a 100 Continue out of it, test/fuzz/regressions.test.ts)
      res.end(Buffer.from(chunk, 'utf8'))
      return
    }
    if (ascii) {
      res.end(chunk, 'latin1')
      return
    }
    if (res.writeHead !== nativeWriteHead || (res as any)._implicitHeader !== nativeImplicitHeader || holdsHeader(res, 'content-disposition') !== false) {
      // a wrapped writeHead (on-headers), or a hook on the private
      // _implicitHeader that end() calls, runs inside end() in Express, after
      // Node has noted the body's length; and Node rewrites a
      // Content-Disposition value when end() builds the head with that length
      // known (latin1 bytes read back as UTF-8): building the head here first
      // would differ in both, so these go as bytes, through end() (and so do
      // they when the header cannot be looked for unseen: Express never asks)
      chunk = Buffer.from(chunk, 'utf8')
    } else {
      if (!res.headersSent) res.writeHead(res.statusCode)
      const head = (res as { _header?: unknown })._header
      // a character above 0x7F takes two or more UTF-8 bytes
      if (typeof head !== 'string' || Buffer.byteLength(head, 'utf8') !== head.length) chunk = Buffer.from(chunk, 'utf8')
    }
  }
  res.end(chunk)
}
