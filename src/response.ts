// The response prototype: every `res` handed to a middleware inherits from
// `app.response`, which inherits from `response` below, which inherits from
// `http.ServerResponse.prototype`. The methods are Express 5's; the heavier
// pieces (Content-Type rules, JSON, cookies, file transfer) live in
// src/utils/res-*.ts, and `res.send` is split into small private steps.
import { orderKeys } from './utils/prototype'
import http from 'node:http'
import nodeBuffer from 'node:buffer'
import { basename, extname } from 'node:path'
import { create as contentDisposition } from 'content-disposition'
import encodeUrl from 'encodeurl'
import escapeHtml from 'escape-html'
import createError from 'http-errors'
import statuses from 'statuses'
import vary from 'vary'
import { clearingOptions, serializeCookie, type CookieOptions } from './utils/res-cookie'
import {
  downloadCall, sendFilePath, transferFile,
  type SendFileCallback, type SendFileOptions
} from './utils/res-file'
import { jsonpBody, stringifyJson } from './utils/res-json'
import { builtinStringTag, isBuiltinETag, type ETagFn } from './utils/compile'
import { holdsHeader, nativeSetHeaderOf, nodeOwn, putHeader, readHeader } from './utils/headers'
import depd from 'depd'
import { formatKeyType, methodOf, normaliseContentType, typeFromName, withUtf8Charset } from './utils/res-type'

/**
 * node:buffer's Buffer, as Express's response.js takes it (not the global,
 * which Node 20 defines as a getter: each read was a call), held in a module
 * constant.
 */
const Buffer = nodeBuffer.Buffer

export type { CookieOptions } from './utils/res-cookie'
export type { SendFileCallback, SendFileOptions } from './utils/res-file'

/**
 * What the response uses of its request (src/request.ts provides all of it;
 * `secret` comes from cookie-parser, `next` from the router).
 */
export interface ResponseRequest extends http.IncomingMessage {
  app: ResponseApp & Record<string, any>
  readonly fresh: boolean
  readonly query: Record<string, any>
  accepts(types: string[]): string | false
  next?: (err?: unknown) => void
  secret?: string
  [key: string]: any
}

/** What the response needs from its application. */
export interface ResponseApp {
  get(setting: string): any
  render(view: string, options: Record<string, any>, callback: (err: Error | null, html?: string) => void): void
}

/** A header value as `res.set` accepts it (converted with `String`). */
export type HeaderValue = string | number | boolean | ReadonlyArray<string | number | boolean>

/** A `res.format` map: media types or extension names to handlers, plus `default`. */
export type FormatHandlers = Record<string, (req: ResponseRequest, res: Response, next: (err?: unknown) => void) => void>

/** The `res.render` callback. */
export type RenderCallback = (err: Error | null, html?: string) => void

/**
 * The Express-5-compatible response: an `http.ServerResponse` plus the
 * members below. `app`, `req` and `locals` are attached per application and
 * per request.
 */
export interface Response extends http.ServerResponse<ResponseRequest> {
  app: ResponseApp & Record<string, any>
  req: ResponseRequest
  locals: Record<string, any>
  status(code: number): this
  sendStatus(code: number): this
  set(field: string, value: HeaderValue): this
  set(fields: Record<string, HeaderValue>): this
  header(field: string, value: HeaderValue): this
  header(fields: Record<string, HeaderValue>): this
  get(field: string): number | string | string[] | undefined
  append(field: string, value?: string | string[]): this
  vary(field: string | string[]): this
  type(type: string): this
  contentType(type: string): this
  links(links: Record<string, string | string[]>): this
  location(url: string): this
  redirect(url: string): void
  redirect(status: number, url: string): void
  attachment(filename?: string): this
  cookie(name: string, value: unknown, options?: CookieOptions): this
  clearCookie(name: string, options?: CookieOptions): this
  send(body?: unknown): this
  json(body?: unknown): this
  jsonp(body?: unknown): this
  format(handlers: FormatHandlers): this
  render(view: string, locals?: Record<string, any> | RenderCallback, callback?: RenderCallback): void
  sendFile(path: string, options?: SendFileOptions | SendFileCallback, callback?: SendFileCallback): void
  download(path: string, filename?: string | SendFileOptions | SendFileCallback | null,
    options?: SendFileOptions | SendFileCallback | null, callback?: SendFileCallback): void
}

const HTML_UTF8 = 'text/html; charset=utf-8'
const TEXT_UTF8 = 'text/plain; charset=utf-8'
const JSON_UTF8 = 'application/json; charset=utf-8'
const JAVASCRIPT_UTF8 = 'text/javascript; charset=utf-8'
const OCTET_STREAM = 'application/octet-stream'
const REDIRECT_KINDS = ['text', 'html']

/**
 * Express's deprecation warnings (res.redirect's arguments), through depd
 * under Express's namespace, as Express prints them: the same text on stderr
 * ("express deprecated Provide a url argument at app.js:10:7"), once per
 * call site, silenced by NO_DEPRECATION=express and --no-deprecation, thrown
 * by --throw-deprecation, sent to process 'deprecation' listeners instead
 * when there are any. Made in this module: depd names the caller as the
 * first frame outside the module that made it.
 */
const deprecateExpress = depd('express')

/**
 * The response prototype (`fw.response`). Add to it to extend every
 * response of every app, or to `app.response` for one app.
 *
 * @example
 * fw.response.ok = function () { return this.status(200).send('ok') }
 */
export const response: Response = Object.create(http.ServerResponse.prototype)

/**
 * Set the status code; throws a TypeError for a non-integer and a RangeError
 * outside 100-999. Chainable.
 *
 * @example
 * res.status(201).json({ id })
 */
response.status = function status(code) {
  if (!Number.isInteger(code)) {
    throw new TypeError(`Invalid status code: ${JSON.stringify(code)}. Status code must be an integer.`)
  }
  if (code < 100 || code > 999) {
    throw new RangeError(`Invalid status code: ${JSON.stringify(code)}. Status code must be greater than 99 and less than 1000.`)
  }
  this.statusCode = code
  return this
}

/**
 * Set the status and send its registered message (or the number itself for
 * an unregistered code) as `text/plain`.
 *
 * @example
 * res.sendStatus(404) // "Not Found"
 */
response.sendStatus = function sendStatus(code) {
  const body = statuses.message[code] || String(code)
  this.status(code)
  if (expressCalls(this)) this.type('txt')
  else this.setHeader('Content-Type', TEXT_UTF8)
  return this.send(body)
}

/**
 * Set one header, or several from an object. Values are converted with
 * `String` (arrays element-wise); `Content-Type` gains a charset for text
 * types and may not be an array.
 *
 * @example
 * res.set('Cache-Control', 'no-store').set({ 'X-A': '1', 'X-B': ['2', '3'] })
 */
response.set = function header(this: Response, field: any, val?: any): Response {
  if (arguments.length === 2) {
    let value: any = Array.isArray(val) ? val.map(String) : String(val)
    // (the length first: most names are not 12 characters long)
    if (typeof field !== 'string') methodOf(field, 'toLowerCase', 'field')
    if ((typeof field !== 'string' || field.length === 12) && field.toLowerCase() === 'content-type') {
      if (Array.isArray(value)) throw new TypeError('Content-Type cannot be set to an Array')
      value = normaliseContentType(value)
    }
    this.setHeader(field, value)
    return this
  }
  for (const key in field) this.set(key, field[key])
  return this
} as Response['set']

/** Alias of `res.set`. */
response.header = response.set

/**
 * A response header, by case-insensitive name.
 *
 * @example
 * res.get('Content-Type') // 'text/html; charset=utf-8'
 */
response.get = function (field) {
  return this.getHeader(field) as number | string | string[] | undefined
}

/**
 * Add a value (or values) to a header, creating it if needed. A later
 * `res.set` of the same header replaces everything.
 *
 * @example
 * res.append('Warning', '199 Miscellaneous warning')
 */
response.append = function append(field, val) {
  const prev: any = headerOf(this, field)
  let value: any = val
  if (prev) {
    value = Array.isArray(prev) ? prev.concat(val) : Array.isArray(val) ? [prev].concat(val) : [prev, val]
  }
  return this.set(field, value)
}

/**
 * Add a field to the Vary header unless it is already there.
 *
 * @example
 * res.vary('Accept-Encoding')
 */
response.vary = function (field) {
  vary(this, field)
  return this
}

/**
 * Set Content-Type: a value containing '/' is used as is, anything else is
 * looked up as an extension ('json', '.html'), `application/octet-stream`
 * when unknown.
 *
 * @example
 * res.type('json') // application/json; charset=utf-8
 */
response.type = function contentType(type) {
  return this.set('Content-Type', typeFromName(type))
}

/** Alias of `res.type`. */
response.contentType = response.type

/**
 * Add `<url>; rel="name"` entries to the Link header (appending to an
 * existing one); an array value gives one entry per URL.
 *
 * @example
 * res.links({ next: '/page/3', prev: '/page/1' })
 */
response.links = function (links) {
  let link: any = headerOf(this, 'Link') || ''
  if (link) link += ', '
  const entries: string[] = []
  for (const rel of Object.keys(links)) {
    const target = links[rel]
    if (Array.isArray(target)) {
      // one entry per rel, its URLs joined: an empty array leaves an empty
      // entry between the commas, as in Express
      entries.push(target.map((url) => '<' + url + '>; rel="' + rel + '"').join(', '))
    } else {
      entries.push('<' + target + '>; rel="' + rel + '"')
    }
  }
  return this.set('Link', link + entries.join(', '))
}

/**
 * Set the Location header, percent-encoding what is not allowed in a URL
 * (existing escapes are kept). 'back' is not special.
 *
 * @example
 * res.location('/login?next=%2Fcart')
 */
response.location = function location(url) {
  setThrough(this, 'Location', encodeUrl(url))
  return this
}

function redirectText(status: number, location: string): string {
  return statuses.message[status] + '. Redirecting to ' + location
}

function redirectHtml(status: number, location: string): string {
  const message = statuses.message[status]
  return '<!DOCTYPE html><head><title>' + message + '</title></head><body><p>' +
    message + '. Redirecting to ' + escapeHtml(location) + '</p></body>'
}

/** The redirect's body, picked from Accept as `res.format` would pick it, with its Content-Type and `Vary: Accept` set. */
function redirectBody(res: Response, status: number, location: string): string {
  const kind = res.req.accepts(REDIRECT_KINDS)
  vary(res, 'Accept')
  if (kind === 'text') {
    res.setHeader('Content-Type', TEXT_UTF8)
    return redirectText(status, location)
  }
  if (kind === 'html') {
    res.setHeader('Content-Type', HTML_UTF8)
    return redirectHtml(status, location)
  }
  return ''
}

/**
 * `redirectBody` as Express makes it when a middleware would see how:
 * through `res.get`, `res.format` (which calls `res.vary` and `res.set`),
 * then `res.status` and `res.set` for the length.
 */
function redirectThroughMethods(res: Response, status: number): void {
  const location = res.get('Location') as string
  let body = ''
  res.format({
    text() { body = redirectText(status, location) },
    html() { body = redirectHtml(status, location) },
    default() { body = '' }
  })
  res.status(status)
  res.set('Content-Length', Buffer.byteLength(body) as unknown as string)
  if (res.req.method === 'HEAD') res.end()
  else res.end(body)
}

/**
 * Redirect to `url` with `status` (default 302). The body follows Accept:
 * a text line, a small HTML page, or nothing; HEAD gets no body.
 *
 * @example
 * res.redirect(301, '/new-home')
 */
response.redirect = function redirect(this: Response, statusOrUrl: any): void {
  let status = 302
  let address = statusOrUrl
  // exactly two arguments, as Express reads them: with a third, the first is
  // the URL (the second comes from `arguments`: Express's redirect declares one
  // parameter, and `redirect.length` is 1 there too)
  if (arguments.length === 2) {
    status = statusOrUrl
    address = arguments[1]
  }
  // Express 5's warnings for arguments it still takes
  if (!address) deprecateExpress('Provide a url argument')
  if (typeof address !== 'string') deprecateExpress('Url must be a string')
  if (typeof status !== 'number') deprecateExpress('Status must be a number')
  this.location(address)
  if (expressCalls(this) || this.format !== ownFormat || this.vary !== ownVary) return redirectThroughMethods(this, status)
  const body = redirectBody(this, status, this.getHeader('Location') as string)
  this.status(status)
  this.setHeader('Content-Length', String(Buffer.byteLength(body)))
  if (this.req.method === 'HEAD') this.end()
  else this.end(body)
} as Response['redirect']

/**
 * Set `Content-Disposition: attachment`; with a filename, also its
 * `filename` parameter and the Content-Type of its extension.
 *
 * @example
 * res.attachment('report.pdf')
 */
response.attachment = function attachment(filename) {
  // an empty string is a file name (`filename=""`); only a missing one means none
  const name = filename !== undefined ? basename(filename) : undefined
  if (name) this.type(extname(name))
  setThrough(this, 'Content-Disposition', contentDisposition(name))
  return this
}

/**
 * Add a Set-Cookie header. Objects are stored as `j:` + JSON; `maxAge`
 * (milliseconds) sets Expires and Max-Age; `signed` signs with the secret of
 * cookie-parser; `path` defaults to '/'.
 *
 * @example
 * res.cookie('session', id, { httpOnly: true, sameSite: 'lax', maxAge: 86_400_000 })
 */
response.cookie = function (name, value, options) {
  // (the secret is read first, as Express reads it: see send)
  const secret = this.req.secret
  return this.append('Set-Cookie', serializeCookie(name, value, options, secret))
}

/**
 * Clear a cookie: same options as when it was set (`path` defaults to '/');
 * `expires` and `maxAge` given here are ignored.
 *
 * @example
 * res.clearCookie('session', { path: '/admin' })
 */
response.clearCookie = function clearCookie(name, options) {
  return this.cookie(name, '', clearingOptions(options))
}

// ---- res.send and its steps -------------------------------------------

/**
 * Switchyard's own methods, as this module defines them. Express's `send`,
 * `json`, `redirect` and friends read and write headers through
 * `this.get`, `this.set`, `this.type` and `this.status`; while a response's
 * are these, such a call does exactly what writing the header directly does,
 * so Switchyard writes it directly. A middleware that replaces or wraps one
 * of them (on the response, or on `app.response`/`fw.response`) gets every
 * call Express makes, with Express's arguments, in Express's order
 * (`expressCalls`).
 */
const ownGet = response.get
const ownSet = response.set
const ownType = response.type
const ownStatus = response.status
const ownVary = response.vary

/** A header of `res` read as Express reads it, through `res.get`: directly while that is Switchyard's own. */
export function headerOf(res: Response, name: string): number | string | string[] | undefined {
  return res.get === ownGet ? res.getHeader(name) : res.get(name)
}

/** A header (a string needing none of `res.set`'s conversions) written as Express writes it, through `res.set`: directly while that is Switchyard's own. */
function setThrough(res: Response, name: string, value: string): void {
  if (res.set === ownSet) res.setHeader(name, value)
  else res.set(name, value)
}

/** Would a middleware see the calls Express makes to `res.get`, `set`, `type` and `status`? */
function expressCalls(res: Response): boolean {
  return res.get !== ownGet || res.set !== ownSet || res.type !== ownType || res.status !== ownStatus
}

/** A body on its way to `res.end`: a view other than a Buffer stays one where Express keeps it (see `send`). */
type Chunk = string | Buffer | ArrayBufferView | undefined

// (Node's own only: see nodeOwn)
const nativeEnd = nodeOwn(http.OutgoingMessage.prototype.end, 'function end(chunk, encoding, callback) {')
const nativeWriteHead = nodeOwn(http.ServerResponse.prototype.writeHead, 'function writeHead(statusCode, reason, obj) {')
const nativeImplicitHeader = nodeOwn((http.ServerResponse.prototype as any)._implicitHeader, 'function _implicitHeader() {')

/**
 * A string body gets `text/html` unless a string type is set (any other value
 * is replaced, as Express does), and a set type gets the utf-8 charset. An
 * empty type stays empty through Express's setCharset, and its `res.set`
 * turns '' into `false` (mime-types' `contentType('')`): the header is sent
 * as "false".
 */
function stringType(res: Response, calls: boolean): void {
  if (calls) {
    // Express's calls: res.type('html') without a string type, else res.set
    // with the charset ('' stays '', which res.set turns into false)
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
  } else if (type !== HTML_UTF8 || !nativeSetHeaderOf(res)) {
    // (Express sets it again even when it already has the charset: skipped
    // only while nobody wrapped setHeader to see the call)
    const value = withUtf8Charset(type)
    // the same value again (res.json's type): setHeader validated it already
    if (value === type) putHeader(res, 'Content-Type', 'content-type', value)
    else res.setHeader('Content-Type', value)
  }
}

/**
 * Content-Length (a string, as Express stores it; `length` is the body's
 * byte length) and, when the app has an etag function, the ETag. Returns the
 * body to write.
 *
 * Express turns a string body into bytes whenever it makes an ETag or the
 * string has 1000 or more characters; Node then writes the head on its own,
 * in latin1. Switchyard keeps the string where nothing can tell (see
 * `writeBody`).
 */
function lengthAndEtag(res: Response, chunk: string | ArrayBufferView, length: number, etagFn: ETagFn | undefined, calls: boolean): string | ArrayBufferView {
  let body = chunk
  if (typeof body === 'string' && etagFn !== undefined && !isBuiltinETag(etagFn)) {
    // a user's etag function gets the bytes, as in Express
    body = Buffer.from(body, 'utf8')
  }
  if (calls) {
    // (Express passes the length as a number; res.set makes it a string)
    if (!res.get('Transfer-Encoding')) res.set('Content-Length', length as unknown as string)
  } else if (!readHeader(res, 'Transfer-Encoding', 'transfer-encoding')) {
    // ('' + a number is String(number) without the String builtin's call)
    putHeader(res, 'Content-Length', 'content-length', '' + length)
  }
  if (etagFn !== undefined) {
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
  }
  return body
}

/** 204 and 304 carry no body nor entity headers; 205 has an empty one. */
function stripForStatus(res: Response, chunk: Chunk, calls: boolean): Chunk {
  const code = res.statusCode
  if (code === 204 || code === 304) {
    res.removeHeader('Content-Type')
    res.removeHeader('Content-Length')
    res.removeHeader('Transfer-Encoding')
    return ''
  }
  if (code === 205) {
    if (calls) res.set('Content-Length', '0')
    else res.setHeader('Content-Length', '0')
    res.removeHeader('Transfer-Encoding')
    return ''
  }
  return chunk
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
      // a character above 0x7F takes two or more UTF-8 bytes (cheaper than a regexp scan: 70 ns vs 200 ns here)
      if (typeof head !== 'string' || Buffer.byteLength(head, 'utf8') !== head.length) chunk = Buffer.from(chunk, 'utf8')
    }
  }
  res.end(chunk)
}

/** The app's etag function when `res.send` makes a tag (the handler set no ETag), as Express decides it; otherwise undefined. */
function etagToMake(res: Response, calls: boolean): ETagFn | undefined {
  const etagFn = res.app.get('etag fn')
  const set = calls ? res.get('ETag') : readHeader(res, 'ETag', 'etag')
  return typeof etagFn === 'function' && !set ? etagFn : undefined
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

/**
 * Send a response. Strings default to `text/html` (utf-8), Buffers and typed
 * arrays to `application/octet-stream`, other values go through `res.json`;
 * `null` and `undefined` send an empty body. Sets Content-Length and an ETag,
 * answers 304 to a fresh conditional request, and sends no body for HEAD,
 * 204, 205 and 304.
 *
 * @example
 * res.send('<p>hello</p>')
 */
response.send = function send(body) {
  // this.req first, as Express reads it (called unbound, `.then(res.send)`,
  // the TypeError then reads "(reading 'req')" as there)
  const req = this.req
  const calls = expressCalls(this)
  let chunk: Chunk
  switch (typeof body) {
    case 'string':
      chunk = body
      stringType(this, calls)
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
        if (calls) {
          if (!this.get('Content-Type')) this.type('bin')
        } else if (!this.getHeader('Content-Type')) {
          this.setHeader('Content-Type', OCTET_STREAM)
        }
        break
      }
      return this.json(body)
    case 'boolean':
    case 'number':
      return this.json(body)
    default:
      refuseBody(this, body, calls)
  }

  // would Express have turned the body into bytes? (see writeBody)
  let bytesInExpress = false
  let ascii = false
  // (asked with or without a body, as Express asks)
  const etagFn = etagToMake(this, calls)
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
    chunk = lengthAndEtag(this, chunk, length, etagFn, calls)
  }
  // what Express passes to end() with the body: 'utf8' for a string it keeps
  const encoding: BufferEncoding | undefined = typeof body === 'string' && !bytesInExpress ? 'utf8' : undefined
  if (req.fresh) {
    if (calls) this.status(304)
    else this.statusCode = 304
  }
  const code = this.statusCode
  if (code === 204 || code === 304 || code === 205) {
    chunk = stripForStatus(this, chunk, calls)
    bytesInExpress = false // Express sends the emptied body as a string too
  }

  if (req.method === 'HEAD') this.end()
  else writeBody(this, chunk, bytesInExpress, ascii, encoding)
  return this
}

/** `body` serialised with the app's JSON settings, read in Express's order (a wrapper of `app.get` sees it). */
function jsonText(app: ResponseApp, body: unknown): string | undefined {
  const escape = app.get('json escape')
  return stringifyJson(body, app.get('json replacer'), app.get('json spaces'), escape)
}

/**
 * Send `body` as JSON (`application/json` unless a type is set), honouring
 * the `json replacer`, `json spaces` and `json escape` settings.
 *
 * @example
 * res.json({ user: 'tobi' })
 */
response.json = function json(body) {
  const app = this.app
  const text = jsonText(app, body)
  if (expressCalls(this)) {
    if (!this.get('Content-Type')) this.set('Content-Type', 'application/json')
  } else if (!readHeader(this, 'Content-Type', 'content-type')) {
    putHeader(this, 'Content-Type', 'content-type', JSON_UTF8)
  }
  return this.send(text)
}

/** `nosniff` and the type jsonp sends: `res.set(type)` as Express calls it, or the value that gives (`full`) written directly. */
function jsonpType(res: Response, calls: boolean, type: string, full: string): void {
  if (calls) {
    res.set('X-Content-Type-Options', 'nosniff')
    res.set('Content-Type', type)
  } else {
    res.setHeader('X-Content-Type-Options', 'nosniff')
    res.setHeader('Content-Type', full)
  }
}

/**
 * Like `res.json`, wrapped in a call to the function named by the query
 * parameter of the `jsonp callback name` setting (default 'callback') when
 * it is a non-empty string; the name is reduced to `[]`, word characters,
 * `$` and `.`. Always sets `X-Content-Type-Options: nosniff`.
 *
 * @example
 * // GET /user?callback=show -> /&ast;&ast;/ typeof show === 'function' && show({"name":"tobi"});
 * res.jsonp({ name: 'tobi' })
 */
response.jsonp = function jsonp(body) {
  const app = this.app
  let text = jsonText(app, body)
  let callback = this.req.query[app.get('jsonp callback name')]

  // (through res.get and res.set, as Express writes them, when a middleware would see it)
  const calls = expressCalls(this)
  if (!headerOf(this, 'Content-Type')) jsonpType(this, calls, 'application/json', JSON_UTF8)
  if (Array.isArray(callback)) callback = callback[0]
  if (typeof callback === 'string' && callback.length !== 0) {
    jsonpType(this, calls, 'text/javascript', JAVASCRIPT_UTF8)
    text = jsonpBody(callback, text)
  }
  return this.send(text)
}

/**
 * Run the handler for the best type the client accepts (media types or
 * extension names); sets Vary: Accept and the chosen Content-Type. With no
 * match, `default` runs, or a 406 error listing the types goes to `next`.
 *
 * @example
 * res.format({ json: () => res.json(data), html: () => res.render('page', data) })
 */
response.format = function (handlers) {
  const req = this.req
  const next = req.next as (err?: unknown) => void
  const keys = Object.keys(handlers).filter((key) => key !== 'default')
  const key = keys.length > 0 ? req.accepts(keys) : false
  if (this.vary === ownVary) vary(this, 'Accept')
  else this.vary('Accept')
  if (key) {
    this.set('Content-Type', formatKeyType(key))
    // (Express's words when it is not a function: its object is named obj)
    if (typeof handlers[key] !== 'function') throw new TypeError('obj[key] is not a function')
    handlers[key](req, this, next)
  } else if (handlers.default) {
    if (typeof handlers.default !== 'function') throw new TypeError('obj.default is not a function')
    handlers.default(req, this, next)
  } else {
    next(createError(406, { types: keys.map(formatKeyType) }))
  }
  return this
}

const ownFormat = response.format

/**
 * Render a view through `app.render` with `res.locals`; without a callback
 * the HTML is sent, and a rendering error goes to `next(err)`.
 *
 * @example
 * res.render('profile', { user })
 */
response.render = function render(view, locals, callback) {
  const req = this.req
  let opts: Record<string, any> = (locals as Record<string, any>) || {}
  let done: RenderCallback | undefined = callback
  if (typeof locals === 'function') {
    done = locals as RenderCallback
    opts = {}
  }
  opts._locals = this.locals
  const res = this
  done = done || function sendRendered(err, html) {
    if (err) return (req.next as (err?: unknown) => void)(err)
    res.send(html)
  }
  req.app.render(view, opts, done)
}

/**
 * Stream a file, Content-Type from its extension. The path must be absolute
 * unless `root` is given, and then must stay inside it. `fn(err)` gets every
 * outcome (and must finish the response on error); without it errors go to
 * `next(err)` and a directory to `next()`.
 *
 * @example
 * res.sendFile('report.pdf', { root: '/srv/files', maxAge: '1d' })
 */
response.sendFile = function sendFile(path, options, callback) {
  let opts: SendFileOptions = (options as SendFileOptions) || {}
  let done = callback
  if (typeof options === 'function') {
    done = options
    opts = {}
  }
  // req and its next first, as Express reads them (see send), then the path's checks
  const req = this.req
  const next = req.next as (err?: unknown) => void
  const pathname = sendFilePath(path, opts)
  // set on the options object given, as Express sets it (a primitive throws
  // there, as in Express), which is then handed to send as it is
  opts.etag = this.app.enabled('etag')
  transferFile(req, this, pathname, opts, (err) => {
    if (done) return done(err)
    if (!err) return
    if (err.code === 'EISDIR') return next()
    if (err.code !== 'ECONNABORTED' && err.syscall !== 'write') next(err)
  })
}

response.download = function download(path, filename, options, callback) {
  const call = downloadCall(path, filename, options, callback)
  this.sendFile(call.path, call.options, call.done as SendFileCallback)
}

// in Express's order: `for...in` over a response lists them so
orderKeys(response, ['status', 'links', 'send', 'json', 'jsonp', 'sendStatus', 'sendFile', 'download', 'type', 'contentType', 'format',
  'attachment', 'append', 'header', 'set', 'get', 'clearCookie', 'cookie', 'location', 'redirect', 'vary', 'render'])
