// The floor: bare node:http giving express@5's exact answer to a scenario's
// request (the same status line, the same headers in the same order, the
// same body) with as little work as Node's public API allows. A scenario's
// `floor` builder gets these helpers (bench/server.mjs, implementation
// `floor`), and `npm run bench:floor` pairs it with fastify@5 and Switchyard.
//
// What it tells: where fastify@5 is ahead of the floor, no server on Node's
// public API that gives Express's answer can reach fastify's CPU time per
// request in that scenario, however fast its routing; where Switchyard is
// close to the floor, what is left is Node's work for Express's answer.
//
// What the floor does (and nothing else):
// - sendExact: Express's four headers (X-Powered-By naming Switchyard, as
//   Switchyard's answer does: docs/migration.md; the same bytes as the
//   answer measured against it), Content-Type, Content-Length and the weak
//   ETag of `res.send` / `res.json`, written into Node's header store as
//   Switchyard writes them (so that they stay readable by `res.getHeader`,
//   as Express's are, without setHeader's checks), then `res.end(body)`
//   in latin1; the tag of a body comes from a one-entry cache (the bodies
//   repeat), as Switchyard's comes from its cache.
// - the wrapper and the sub-app: the prototype swaps express@5 makes
//   (`Object.setPrototypeOf` of req and res to the app's request and
//   response), in the cheapest way known (`swap` below),
//   onto prototype chains as long as Express's. Not the properties Express
//   adds to req and res (`req.params`, `res.locals`...): the floor is lower
//   than any exact server.
// The answers are checked against Switchyard's, byte for byte but the Date
// header, before anything is measured (bench/floor-run.mjs).
import http from 'node:http'
import crypto from 'node:crypto'

let lastBody
let lastTag

/**
 * Express's weak ETag of a string body. The floor keeps the last body's tag
 * and compares the next body with it (no hashing of the key, as a Map would
 * do): the cheapest cache there is for a body that repeats, as it does in
 * every scenario.
 */
export function weakTag(body) {
  if (body !== lastBody) {
    lastTag = 'W/"' + Buffer.byteLength(body).toString(16) + '-' + crypto.createHash('sha1').update(body).digest('base64').slice(0, 27) + '"'
    lastBody = body
  }
  return lastTag
}

// Node's header store (the private kOutHeaders symbol, found as Switchyard
// finds it: src/utils/headers.ts), written directly as Switchyard writes its
// own headers, skipping setHeader's checks; setHeader where it is not found.
const storeKey = Object.getOwnPropertySymbols(new http.OutgoingMessage()).find((s) => s.description === 'kOutHeaders')
// each store made as Switchyard makes it: inheriting nothing, in fast mode,
// without a call into V8's runtime
function HeaderStore() {}
HeaderStore.prototype = Object.setPrototypeOf({}, null)

/**
 * Express's answer to `res.send(body)` (type text/html) or `res.json(...)`
 * (type application/json), for an ASCII string body. Express's answer also
 * depends on the request's method (HEAD: no body) and on its conditional
 * headers (a fresh one gets 304): the floor reads them as Express does,
 * though it only answers unconditional requests.
 */
export function sendExact(req, res, type, body) {
  const headers = req.headers
  if (headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined) {
    res.statusCode = 501
    res.end('the floor answers unconditional requests only')
    return
  }
  if (storeKey !== undefined && res[storeKey] === null) {
    const store = new HeaderStore()
    store['x-powered-by'] = ['X-Powered-By', 'Switchyard']
    store['content-type'] = ['Content-Type', type]
    store['content-length'] = ['Content-Length', String(body.length)]
    store.etag = ['ETag', weakTag(body)]
    res[storeKey] = store
  } else {
    res.setHeader('X-Powered-By', 'Switchyard')
    res.setHeader('Content-Type', type)
    res.setHeader('Content-Length', String(body.length))
    res.setHeader('ETag', weakTag(body))
  }
  res.end(req.method === 'HEAD' ? undefined : body, 'latin1')
}

export const HTML = 'text/html; charset=utf-8'
export const JSON_TYPE = 'application/json; charset=utf-8'

/** `Object.setPrototypeOf(obj, proto)`: the prototype swap express@5 makes per request. */
export function swap(obj, proto) {
  Object.setPrototypeOf(obj, proto)
}

/**
 * An app's request and response prototypes, chained as express@5 chains
 * them: the app's objects over the framework's (`express.request`,
 * `express.response`) over Node's; a mounted app's over its parent's.
 */
export function appPrototypes(parent) {
  const request = Object.create(parent ? parent.request : Object.create(http.IncomingMessage.prototype))
  const response = Object.create(parent ? parent.response : Object.create(http.ServerResponse.prototype))
  return { request, response }
}

/**
 * Server options that construct requests and responses with an app's
 * prototypes from the start, as Switchyard does for an app that is its
 * server's only listener (docs/design.md, request flow): bench/server.mjs passes a
 * handler's `serverOptions` to http.createServer. Function constructors with
 * a never-run block of field assignments, so that V8 sizes their objects as
 * Switchyard's are sized: `sizes` gives the number of
 * fields reserved for requests and for responses (48 each unless given).
 */
export function adopted(protos, sizes = { request: 48, response: 48 }) {
  const sizing = (n) => Array.from({ length: n }, (_, i) => `this.f${i} = 0`).join('; ')
  const make = (n) => new Function('Base', 'NEVER', `return function (a, b) { Base.call(this, a, b); if (a === NEVER) { ${sizing(n)} } }`)
  const NEVER = {}
  const IncomingMessage = make(sizes.request)(http.IncomingMessage, NEVER)
  IncomingMessage.prototype = protos.request
  const ServerResponse = make(sizes.response)(http.ServerResponse, NEVER)
  ServerResponse.prototype = protos.response
  return { IncomingMessage, ServerResponse }
}
