// HTTP/2 through Node's compatibility API (`http2.createSecureServer(app)`,
// `http2.createServer(app)`, `allowHTTP1`).
//
// Over HTTP/1.1 every `req` gets `app.request` as its prototype, and that
// chain ends in `http.IncomingMessage.prototype`. An `Http2ServerRequest`
// cannot take that chain: its own behaviour (headers, url, method, socket,
// reading the body) lives on `Http2ServerRequest.prototype`, and the
// IncomingMessage methods would run against state it does not have. The same
// holds for `Http2ServerResponse` and `http.ServerResponse.prototype`.
//
// So for each `app.request` (and `app.response`) this module builds, on first
// use, an HTTP/2 variant: an object whose prototype is
// `Http2ServerRequest.prototype` and which carries one forwarding accessor for
// every property of the app's chain above `IncomingMessage.prototype`
// (app.request, a parent app's request for a mounted app, fw.request). A
// forwarder reads the property from the object that owns it, with the request
// as receiver, so a getter runs against the request and a replaced method is
// seen at once; assigning through a forwarder does what assigning on HTTP/1.1
// does (an own property on the request, or the owner's setter).
//
// A property added to or removed from any object of the chain after the
// variant was built (`app.request.isAdmin = ...` at any time), or a change of
// the chain itself (mounting), is noticed by `fresh()` on the next request,
// and the variant is rebuilt. Only public Node API is used: the two classes
// exported by `node:http2`, and `stream.endAfterHeaders`.
import http from 'node:http'
import { Http2ServerRequest, Http2ServerResponse, constants } from 'node:http2'

/** An HTTP/2 prototype built for one app-side prototype, and what it was built from. */
interface Variant {
  /** The prototype handed to HTTP/2 requests (or responses). */
  proto: object
  /** The app-side chain it mirrors, nearest first. */
  chain: object[]
  /** Number of own keys of each object of `chain` when the variant was built. */
  sizes: number[]
}

/** Keyed by the app-side prototype (`app.request`, `app.response`). */
const variants = new WeakMap<object, Variant>()

/** The app-side chain of `source`: every object from it up to (not including) `stop`. */
function chainOf(source: object, stop: object): object[] {
  const chain: object[] = []
  for (let o: object | null = source; o !== null && o !== stop && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    chain.push(o)
  }
  return chain
}

/**
 * The number of own keys of `o`. Two calls instead of `Reflect.ownKeys`: on
 * the prototypes (fast-mode objects) this is about 100 ns, where
 * `Reflect.ownKeys` takes several times longer.
 */
function ownKeyCount(o: object): number {
  return Object.getOwnPropertyNames(o).length + Object.getOwnPropertySymbols(o).length
}

/** Is the variant still a faithful mirror of `source`'s chain? */
function fresh(variant: Variant, source: object, stop: object): boolean {
  const { chain, sizes } = variant
  let i = 0
  for (let o: object | null = source; o !== null && o !== stop && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    if (i === chain.length || chain[i] !== o || ownKeyCount(o) !== sizes[i]) return false
    i++
  }
  return i === chain.length
}

/** An accessor that reads `key` from `owner` with the HTTP/2 object as receiver. */
function forwarder(owner: object, key: PropertyKey, desc: PropertyDescriptor): PropertyDescriptor {
  const get = function (this: object): unknown {
    return Reflect.get(owner, key, this)
  }
  // same assignability as the original: writable data or an accessor with a setter
  const assignable = 'value' in desc ? desc.writable === true : desc.set !== undefined
  const set = assignable
    ? function (this: object, value: unknown): void {
      Reflect.set(owner, key, value, this)
    }
    : undefined
  return { configurable: true, enumerable: desc.enumerable === true, get, set }
}

function build(source: object, stop: object, base: object): Variant {
  const chain = chainOf(source, stop)
  const proto = Object.create(base, shims.get(base) ?? {})
  const sizes: number[] = []
  const seen = new Set<PropertyKey>()
  for (const owner of chain) {
    const keys = Reflect.ownKeys(owner)
    sizes.push(keys.length)
    for (const key of keys) {
      if (seen.has(key)) continue // a nearer object of the chain has it
      seen.add(key)
      Object.defineProperty(proto, key, forwarder(owner, key, Reflect.getOwnPropertyDescriptor(owner, key)!))
    }
  }
  return { proto, chain, sizes }
}

function variantOf(source: object, stop: object, base: object): object {
  let variant = variants.get(source)
  if (variant === undefined || !fresh(variant, source, stop)) {
    variant = build(source, stop, base)
    variants.set(source, variant)
  }
  return variant.proto
}

/**
 * Members of `http.ServerResponse` that popular middleware calls and
 * `Http2ServerResponse` lacks, defined (non-enumerable) on every HTTP/2
 * response variant, below the app's own properties.
 */
const shims = new Map<object, PropertyDescriptorMap>([
  [Http2ServerResponse.prototype, {
    // express-session and others call res._implicitHeader() before writing
    _implicitHeader: {
      configurable: true,
      writable: true,
      value: function _implicitHeader(this: Http2ServerResponse): void {
        this.writeHead(this.statusCode)
      }
    }
  }]
])

/**
 * If `req`/`res` are HTTP/2 compatibility objects, give them the HTTP/2
 * variants of `app.request` / `app.response` and return true; otherwise
 * (HTTP/1.1, or objects of another kind) change nothing and return false.
 * Called by app.handle only when `req.httpVersionMajor === 2`.
 */
export function setHttp2Prototypes(app: { request: object; response: object }, req: object, res: object): boolean {
  if (!(req instanceof Http2ServerRequest) || !(res instanceof Http2ServerResponse)) return false
  const request = variantOf(app.request, http.IncomingMessage.prototype, Http2ServerRequest.prototype)
  if (Object.getPrototypeOf(req) !== request) Object.setPrototypeOf(req, request)
  const response = variantOf(app.response, http.ServerResponse.prototype, Http2ServerResponse.prototype)
  if (Object.getPrototypeOf(res) !== response) Object.setPrototypeOf(res, response)
  return true
}

/**
 * Does an HTTP/2 request carry a body? HTTP/2 needs neither Content-Length
 * nor Transfer-Encoding: a request without a body ends its stream with its
 * headers. False for anything that is not an HTTP/2 request.
 */
export function http2HasBody(req: { httpVersionMajor?: number; stream?: unknown }): boolean {
  if (req.httpVersionMajor !== 2) return false
  const stream = req.stream as { endAfterHeaders?: boolean } | undefined
  return stream != null && stream.endAfterHeaders === false
}

/**
 * Cut an HTTP/2 response short, so that the client sees it incomplete: reset
 * the request's stream with INTERNAL_ERROR (HTTP/1.1 destroys the socket
 * instead; over HTTP/2 the socket carries other streams). For a request that
 * is not an HTTP/2 one, destroy its socket.
 */
export function resetHttp2Stream(req: { stream?: unknown; socket?: { destroy(): void } | null }): void {
  const stream = req.stream as { close?: (code: number) => void; destroyed?: boolean } | undefined
  if (stream != null && typeof stream.close === 'function') {
    if (!stream.destroyed) stream.close(constants.NGHTTP2_INTERNAL_ERROR)
    return
  }
  req.socket?.destroy()
}
