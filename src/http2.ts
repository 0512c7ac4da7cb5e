// HTTP/2 through Node's compatibility API (`http2.createSecureServer(app)`,
// `http2.createServer(app)`, `allowHTTP1`).
//
// `app.request` ends in `http.IncomingMessage.prototype`, but an
// `Http2ServerRequest` keeps its own behaviour (headers, url, socket, body
// reading) on `Http2ServerRequest.prototype`; run against IncomingMessage's
// methods it would crash. (Likewise `Http2ServerResponse` and
// `http.ServerResponse`.) So an HTTP/2 request gets one more link in front:
//
//   req -> layer -> app.request -> ... -> IncomingMessage.prototype -> Readable.prototype
//
// The layer (one per `app.request`, built on first use) holds, as own
// properties, every member in which the two classes differ, resolved as the
// HTTP/2 class resolves it. Everything else is the app's live chain, as over
// HTTP/1.1. A member the app chain itself defines over one of Node's (an
// `app.response.setHeader` override) is left out of the layer, so the app's
// wins; one added after the layer was built is not seen over HTTP/2.
import http from 'node:http'
import { Http2ServerRequest, Http2ServerResponse, constants } from 'node:http2'
import { swapPrototype } from './utils/prototype'

/** How an HTTP/1.1 base prototype differs from its HTTP/2 counterpart. */
interface Difference {
  /** The HTTP/1.1 prototype the app chain ends in (IncomingMessage / ServerResponse). */
  h1: object
  /** Every member in which the two chains differ, as the HTTP/2 class resolves it. */
  members: Map<PropertyKey, PropertyDescriptor>
}

/** The prototypes of `proto`'s chain, nearest first, up to (not including) `stop`. */
function protosOf(proto: object, stop: object | null): object[] {
  const list: object[] = []
  for (let o: object | null = proto; o !== null && o !== stop; o = Object.getPrototypeOf(o)) list.push(o)
  return list
}

/** Find the descriptor of `key` along `proto`'s chain. */
function resolve(proto: object, key: PropertyKey): PropertyDescriptor | undefined {
  for (let o: object | null = proto; o !== null; o = Object.getPrototypeOf(o)) {
    const desc = Reflect.getOwnPropertyDescriptor(o, key)
    if (desc !== undefined) return desc
  }
  return undefined
}

function difference(h1: object, h2: object, shims: PropertyDescriptorMap): Difference {
  const h2Chain = protosOf(h2, null)
  // the HTTP/1.1 prototypes above the first one both chains share
  const h1Only = protosOf(h1, null).filter((o) => !h2Chain.includes(o))
  const shared = protosOf(h1, null).find((o) => h2Chain.includes(o)) ?? null
  const h2Only = protosOf(h2, shared)
  const members = new Map<PropertyKey, PropertyDescriptor>()
  for (const o of [...h2Only, ...h1Only]) {
    for (const key of Reflect.ownKeys(o)) {
      if (members.has(key)) continue
      const desc = resolve(h2, key) ?? shims[key as string] ??
        { configurable: true, enumerable: false, writable: true, value: undefined }
      members.set(key, desc)
    }
  }
  return { h1, members }
}

const requestDifference = difference(http.IncomingMessage.prototype, Http2ServerRequest.prototype, {})
/**
 * Headers HTTP/2 forbids (RFC 9113 8.2.2). Node's compatibility layer drops
 * `Connection` with a warning but throws on the others when the response is
 * written (which kills the process when it happens in a callback); the
 * response layer drops them all, so an app that sets them answers as over
 * HTTP/1.1 minus those headers.
 */
const CONNECTION_SPECIFIC = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'http2-settings'])

function forbidden(name: unknown, value: unknown): boolean {
  if (typeof name !== 'string') return false
  const key = name.toLowerCase()
  return CONNECTION_SPECIFIC.has(key) || (key === 'te' && value !== 'trailers')
}

const h2res = Http2ServerResponse.prototype as any

/** `res.setHeader` / `res.appendHeader` over HTTP/2: connection-specific headers are dropped. */
function headerSetter(original: (this: any, name: string, value: unknown) => any) {
  return function (this: any, name: string, value: unknown): any {
    if (forbidden(name, value)) return this
    return original.call(this, name, value)
  }
}

function writeHead(this: any, status: number, message?: unknown, headers?: unknown): any {
  let fields = headers
  let text = message
  if (fields === undefined && typeof message === 'object') {
    fields = message
    text = undefined
  }
  if (fields != null && typeof fields === 'object' && !Array.isArray(fields)) {
    const kept: Record<string, unknown> = {}
    for (const name of Object.keys(fields)) {
      const value = (fields as Record<string, unknown>)[name]
      if (!forbidden(name, value)) kept[name] = value
    }
    fields = kept
  }
  return text === undefined ? h2res.writeHead.call(this, status, fields) : h2res.writeHead.call(this, status, text, fields)
}

const method = (value: unknown): PropertyDescriptor => ({ configurable: true, enumerable: false, writable: true, value })

const responseDifference = difference(http.ServerResponse.prototype, Http2ServerResponse.prototype, {
  // express-session and others call res._implicitHeader() before writing
  _implicitHeader: {
    configurable: true,
    enumerable: false,
    writable: true,
    value: function _implicitHeader(this: Http2ServerResponse): void {
      this.writeHead(this.statusCode)
    }
  }
})
responseDifference.members.set('setHeader', method(headerSetter(h2res.setHeader)))
responseDifference.members.set('appendHeader', method(headerSetter(h2res.appendHeader)))
responseDifference.members.set('writeHead', method(writeHead))

/** Keyed by the app-side prototype (`app.request`, `app.response`). */
const layers = new WeakMap<object, object>()

/** The HTTP/2 layer over `source` (app.request or app.response). */
function layerOf(source: object, diff: Difference): object {
  let layer = layers.get(source)
  if (layer === undefined) {
    // members the app chain defines itself (above Node's prototype) win, as over HTTP/1.1
    const appChain = protosOf(source, diff.h1)
    const descriptors: PropertyDescriptorMap = {}
    for (const [key, desc] of diff.members) {
      if (!appChain.some((o) => Object.prototype.hasOwnProperty.call(o, key))) descriptors[key as string] = desc
    }
    layer = Object.create(source, descriptors) as object
    layers.set(source, layer)
  }
  return layer
}

/**
 * If `req`/`res` are HTTP/2 compatibility objects, put the HTTP/2 layers of
 * `app.request` / `app.response` in front of the app's prototypes and return
 * true; otherwise (HTTP/1.1, or objects of another kind) change nothing and
 * return false. Called by app.handle only when `req.httpVersionMajor === 2`.
 */
export function setHttp2Prototypes(app: { request: object; response: object }, req: object, res: object): boolean {
  if (!(req instanceof Http2ServerRequest) && !isLayered(req)) return false
  if (!(res instanceof Http2ServerResponse) && !isLayered(res)) return false
  const request = layerOf(app.request, requestDifference)
  swapPrototype(req, request)
  const response = layerOf(app.response, responseDifference)
  swapPrototype(res, response)
  return true
}

/**
 * Does `obj` already have one of the layers as its prototype? (An HTTP/2
 * request is no longer an `instanceof Http2ServerRequest` once layered: a
 * mounted app, or the parent app it hands back to, sees it like this.)
 */
function isLayered(obj: object): boolean {
  const proto = Object.getPrototypeOf(obj)
  return proto !== null && layers.get(Object.getPrototypeOf(proto)) === proto
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
