// The response prototype: every `res` handed to a middleware inherits from
// `app.response`, which inherits from `response` below, which inherits from
// `http.ServerResponse.prototype`. The methods are Express 5's; the heavier
// pieces (Content-Type rules, JSON, cookies, file transfer) live in
// src/utils/res-*.ts (res.send's steps in res-send.ts).
import http from 'node:http'
import { basename, extname } from 'node:path'
import { create as contentDisposition } from 'content-disposition'
import depd from 'depd'
import encodeUrl from 'encodeurl'
import createError from 'http-errors'
import statuses from 'statuses'
import vary from 'vary'
import { putHeader, readHeader } from './utils/headers'
import { orderKeys } from './utils/prototype'
import { clearingOptions, serializeCookie, type CookieOptions } from './utils/res-cookie'
import { downloadCall, sendFilePath, transferFile, type SendFileCallback, type SendFileOptions } from './utils/res-file'
import { jsonpBody, jsonText } from './utils/res-json'
import { redirectResponse } from './utils/res-redirect'
import { sendBody } from './utils/res-send'
import { formatKeyType, methodOf, normaliseContentType, typeFromName } from './utils/res-type'

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

const JSON_UTF8 = 'application/json; charset=utf-8'

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
  this.type('txt')
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
    if (typeof field !== 'string') methodOf(field, 'toLowerCase', 'field')
    if (field.toLowerCase() === 'content-type') {
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
  const prev: any = this.get(field)
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
  let link: any = this.get('Link') || ''
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
  return this.set('Location', encodeUrl(url))
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
  redirectResponse(this, status)
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
  return this.set('Content-Disposition', contentDisposition(name))
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

/**
 * Switchyard's own methods, as this module defines them. Express's `send`
 * and `json` read and write headers through `this.get`, `this.set`,
 * `this.type` and `this.status`; while a response's are these, such a call
 * does exactly what writing the header directly does, so Switchyard writes
 * it directly. A middleware that replaces or wraps one
 * of them (on the response, or on `app.response`/`fw.response`) gets every
 * call Express makes, with Express's arguments, in Express's order.
 */
const ownGet = response.get
const ownSet = response.set
const ownType = response.type
const ownStatus = response.status

/** Would a middleware see the calls Express makes to `res.get`, `set`, `type` and `status`? */
function expressCalls(res: Response): boolean {
  return res.get !== ownGet || res.set !== ownSet || res.type !== ownType || res.status !== ownStatus
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
  return sendBody(this, req, body, expressCalls(this))
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
  if (!this.get('Content-Type')) {
    this.set('X-Content-Type-Options', 'nosniff')
    this.set('Content-Type', 'application/json')
  }
  if (Array.isArray(callback)) callback = callback[0]
  if (typeof callback === 'string' && callback.length !== 0) {
    this.set('X-Content-Type-Options', 'nosniff')
    this.set('Content-Type', 'text/javascript')
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
  this.vary('Accept')
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
