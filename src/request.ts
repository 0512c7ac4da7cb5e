// The request prototype: every `req` handed to a middleware inherits from
// `app.request`, which inherits from `request` below, which inherits from
// `http.IncomingMessage.prototype`. Methods are plain functions and computed
// properties are lazy getters on this prototype, so a request pays only for
// what its handlers read. Nothing here caches per request except what the
// dependencies already cache (`parseurl` keeps `req._parsedUrl`).
import { orderKeys } from './utils/prototype'
import http from 'node:http'
import { isIP } from 'node:net'
import accepts from 'accepts'
import fresh from 'fresh'
import parseRange from 'range-parser'
import parseurl from 'parseurl'
import proxyaddr from 'proxy-addr'
import typeis from 'type-is'
import { http2HasBody } from './http2'
import { methodOf } from './utils/res-type'
import { nativeGetHeaderOf } from './utils/headers'
import { response } from './response'

/** A compiled `trust proxy` setting: is the address at hop `i` trusted? */
export type TrustFn = (addr: string, i: number) => boolean

/** A compiled `query parser` setting: raw query string in, query object out. */
export type QueryParserFn = (str: string | null) => Record<string, unknown>

/** What the request needs from its application: read (compiled) settings. */
export interface RequestApp {
  get(setting: string): any
}

/** The result of `req.range()`: the ranges plus the unit they are in. */
export type RequestRanges = parseRange.Ranges

/** Options of `req.range(size, options)`. */
export interface RangeOptions {
  /** Merge overlapping and adjacent ranges into one. */
  combine?: boolean
}

/**
 * The shape of the request prototype (the public, generic handler type is
 * `Request` in src/types/request.ts): an `http.IncomingMessage` plus the
 * members below. Properties set by the router or by other middleware
 * (`baseUrl`, `originalUrl`, `params`, `route`, `body`, `cookies`, ...) are
 * declared here so handlers are typed, but they live on each request object.
 */
export interface RequestPrototype extends http.IncomingMessage {
  app: RequestApp & Record<string, any>
  res?: http.ServerResponse & Record<string, any>
  baseUrl: string
  originalUrl: string
  params: Record<string, any>
  route?: any
  body?: any
  cookies?: Record<string, any>
  signedCookies?: Record<string, any>
  next?: (err?: unknown) => void
  readonly query: Record<string, any>
  readonly path: string | undefined
  readonly protocol: string
  readonly secure: boolean
  readonly ip: string | undefined
  readonly ips: string[]
  readonly subdomains: string[]
  readonly host: string | undefined
  readonly hostname: string | undefined
  readonly fresh: boolean
  readonly stale: boolean
  readonly xhr: boolean
  get(name: 'set-cookie' | 'Set-Cookie'): string[] | undefined
  get(name: string): string | undefined
  header(name: 'set-cookie' | 'Set-Cookie'): string[] | undefined
  header(name: string): string | undefined
  accepts(): string[]
  accepts(...types: Array<string | string[]>): string | false
  acceptsEncodings(): string[]
  acceptsEncodings(...encodings: Array<string | string[]>): string | false
  acceptsCharsets(): string[]
  acceptsCharsets(...charsets: Array<string | string[]>): string | false
  acceptsLanguages(): string[]
  acceptsLanguages(...languages: Array<string | string[]>): string | false
  is(...types: Array<string | string[]>): string | false | null
  range(size: number, options?: RangeOptions): RequestRanges | -1 | -2 | undefined
  [key: string]: any
}

/**
 * The request prototype shared by every application (`fw.request`). Each
 * application derives its own `app.request` from it; properties added to
 * either show on every request of the apps concerned.
 *
 * @example
 * fw.request.isJson = function () { return this.is('json') === 'json' }
 */
export const request: RequestPrototype = Object.create(http.IncomingMessage.prototype)

// ---------------------------------------------------------------------------
// Methods

/**
 * Read a request header, case-insensitively; `Referer` and `Referrer` are
 * the same header. Throws a TypeError for a missing or non-string name.
 */
function header(this: RequestPrototype, name: string): any {
  if (!name) throw new TypeError('name argument is required to req.get')
  if (typeof name !== 'string') throw new TypeError('name must be a string to req.get')
  const key = name.toLowerCase()
  const headers = this.headers
  if (key === 'referer' || key === 'referrer') return headers.referrer || headers.referer
  return headers[key]
}
request.get = request.header = header as RequestPrototype['get']

/** Best type for the response per the `Accept` header, or false. */
request.accepts = function (this: RequestPrototype, ...types: any[]): any {
  const negotiator = accepts(this)
  return negotiator.types.apply(negotiator, types)
} as RequestPrototype['accepts']

/** First encoding accepted per `Accept-Encoding`, or false. */
request.acceptsEncodings = function (this: RequestPrototype, ...encodings: any[]): any {
  const negotiator = accepts(this)
  return negotiator.encodings.apply(negotiator, encodings)
} as RequestPrototype['acceptsEncodings']

/** First charset accepted per `Accept-Charset`, or false. */
request.acceptsCharsets = function (this: RequestPrototype, ...charsets: any[]): any {
  const negotiator = accepts(this)
  return negotiator.charsets.apply(negotiator, charsets)
} as RequestPrototype['acceptsCharsets']

/** First language accepted per `Accept-Language`, or false; no argument: all of them. */
request.acceptsLanguages = function (this: RequestPrototype, ...languages: any[]): any {
  const negotiator = accepts(this)
  return negotiator.languages.apply(negotiator, languages)
} as RequestPrototype['acceptsLanguages']

/**
 * The type among `types` matching the request's `Content-Type`: the type
 * (as given, or the full media type for wildcards and extensions), false
 * when none matches, null when the request has no body.
 */
request.is = function is(this: RequestPrototype, types?: any): any {
  // (one declared parameter, `is.length` 1 as in Express; the rest are read from arguments)
  const list = Array.isArray(types) ? types : Array.prototype.slice.call(arguments)
  const result = typeis(this, list)
  // an HTTP/2 body needs no Content-Length nor Transfer-Encoding
  if (result === null && http2HasBody(this)) return typeis.is(this.headers['content-type'] as string, list)
  return result
} as RequestPrototype['is']

/**
 * Parse the `Range` header for a resource of `size` bytes: an array of
 * `{ start, end }` with a `type` property, -1 when unsatisfiable, -2 when
 * malformed, undefined without a `Range` header.
 */
request.range = function range(this: RequestPrototype, size: number, options?: RangeOptions) {
  const value = this.get('Range')
  if (!value) return undefined
  return parseRange(size, value, options)
}

// ---------------------------------------------------------------------------
// Lazy properties

/** Define a lazy, enumerable, configurable getter on the prototype. */
function defineGetter<T>(name: string, get: (this: RequestPrototype) => T): void {
  Object.defineProperty(request, name, { configurable: true, enumerable: true, get })
}

/** The application's compiled `trust proxy` function. */
function trustFn(req: RequestPrototype): TrustFn {
  return req.app.get('trust proxy fn')
}

/** The address of the peer that opened the connection. */
function remoteAddress(req: RequestPrototype): string | undefined {
  return req.socket ? req.socket.remoteAddress : undefined
}

/** Does the application trust the direct peer (hop 0) to forward headers? */
function peerTrusted(req: RequestPrototype): boolean {
  return trustFn(req)(remoteAddress(req) as string, 0)
}

/** First entry of a comma-separated header value, trimmed on both sides or only at its end. */
function firstEntry(value: string, trimStart: boolean): string {
  const comma = value.indexOf(',')
  const first = comma === -1 ? value : value.slice(0, comma)
  return trimStart ? first.trim() : first.trimEnd()
}

/** The first value when a header arrived as an array (only `set-cookie` does). */
function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

defineGetter('query', function query() {
  const parse: QueryParserFn | undefined = this.app.get('query parser fn')
  if (!parse) return Object.create(null)
  // (no URL at all throws Express's TypeError, reading 'query')
  return parse(parseurl(this)!.query as string)
})

defineGetter('path', function path() {
  // as Express reads it: null for a URL without a path ('', 'http://'), and
  // a TypeError when there is no URL at all (a hand-made request)
  return parseurl(this)!.pathname as string
})

// `host`, `protocol` and `xhr` read their headers as Express does, through
// `req.get`, when a middleware replaced or wrapped it (it sees those calls);
// otherwise directly, which is the same.

defineGetter('protocol', function protocol() {
  const direct = (this.socket as { encrypted?: boolean } | null)?.encrypted ? 'https' : 'http'
  if (!peerTrusted(this)) return direct
  const forwarded = (this.get === header ? single(this.headers['x-forwarded-proto']) : this.get('X-Forwarded-Proto')) || direct
  return firstEntry(forwarded, true)
})

defineGetter('secure', function secure() {
  return this.protocol === 'https'
})

// proxy-addr asks the trust function about each hop but the last: with no
// address in X-Forwarded-For (absent, empty, ',') it asks nothing, so the peer
// is not asked first here either
defineGetter('ip', function ip() {
  return proxyaddr(this, trustFn(this))
})

defineGetter('ips', function ips() {
  const addrs = proxyaddr.all(this, trustFn(this))
  // proxy-addr lists the socket address first; `ips` is client-first, without it
  addrs.reverse().pop()
  return addrs
})

defineGetter('host', function host() {
  // (the trust function is read first, used or not, as Express reads it)
  const trust = trustFn(this)
  const own = this.get === header
  let value = own ? single(this.headers['x-forwarded-host']) : this.get('X-Forwarded-Host')
  if (!value || !trust(remoteAddress(this) as string, 0)) value = own ? single(this.headers.host) : this.get('Host')
  else if (value.indexOf(',') !== -1) value = firstEntry(value, false)
  // HTTP/2 clients send the :authority pseudo-header instead of Host
  return value || single(this.headers[':authority']) || undefined
})

defineGetter('hostname', function hostname() {
  const host = this.host
  if (!host) return undefined
  // (V8's words for Express's call on a host that is not a string: the bundle may rename `host`)
  if (typeof host !== 'string') methodOf(host, 'indexOf', 'host')
  // an IPv6 literal keeps its brackets: look for the port after the ']'
  const from = host[0] === '[' ? host.indexOf(']') + 1 : 0
  const colon = host.indexOf(':', from)
  return colon === -1 ? host : host.slice(0, colon)
})

defineGetter('subdomains', function subdomains() {
  const hostname = this.hostname
  if (!hostname) return []
  const offset: number = this.app.get('subdomain offset')
  if (typeof hostname !== 'string' && !isIP(hostname)) methodOf(hostname, 'split', 'hostname') // (see hostname)
  const parts = isIP(hostname) ? [hostname] : hostname.split('.').reverse()
  return parts.slice(offset)
})

/** Switchyard's `res.get`: while a response's is this one, reading the headers directly is the same. */
const responseGet = response.get

defineGetter('fresh', function () {
  const method = this.method
  // GET, HEAD and QUERY (Express 5.3) can be answered from a cache
  if (method !== 'GET' && method !== 'HEAD' && method !== 'QUERY') return false
  const res = this.res
  if (!res) return false
  const status = res.statusCode
  if ((status < 200 || status >= 300) && status !== 304) return false
  const headers = this.headers
  // no conditional header: `fresh` would say false; skip building its
  // arguments, unless a wrapper of res.get or getHeader would see the two reads
  const ownGet = res.get === responseGet
  if (!headers['if-none-match'] && !headers['if-modified-since'] && ownGet && nativeGetHeaderOf(res)) return false
  return fresh(headers, {
    etag: res.get('ETag'),
    'last-modified': res.get('Last-Modified')
  })
})

defineGetter('stale', function stale() {
  return !this.fresh
})

defineGetter('xhr', function xhr() {
  if (this.get !== header) return (this.get('X-Requested-With') || '').toLowerCase() === 'xmlhttprequest'
  const value = single(this.headers['x-requested-with'])
  return typeof value === 'string' && value.toLowerCase() === 'xmlhttprequest'
})

// in Express's order: `for...in` over a request lists them so
orderKeys(request, ['header', 'get', 'accepts', 'acceptsEncodings', 'acceptsCharsets', 'acceptsLanguages', 'range', 'query', 'is',
  'protocol', 'secure', 'ip', 'ips', 'subdomains', 'path', 'host', 'hostname', 'fresh', 'stale', 'xhr'])
