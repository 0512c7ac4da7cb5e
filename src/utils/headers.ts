// Writing headers Switchyard itself made (constant Content-Types, a decimal
// Content-Length, its own ETag, X-Powered-By) without Node re-validating them.
//
// `res.setHeader(name, value)` checks the name against the token grammar and
// the value against the field-value grammar (two regular expressions), lower-
// cases the name, then stores `[name, value]` under the lower-cased name in the
// response's header store. For a value Switchyard built itself the checks can
// never fail; skipping them is a quarter of the cost (4 headers: ~470 ns with
// setHeader, ~105 ns stored directly).
//
// The store sits behind a symbol of Node's (`kOutHeaders`), which is private.
// It is found once, by description, on a probe response, and only trusted
// when a header set through the public API shows up in it in the expected
// `{ lowercase: [name, value] }` form and `getHeader`/`getHeaders` read back a
// directly stored one. Otherwise every call falls back to `res.setHeader`,
// which behaves the same (test/utils.headers.test.ts runs both ways).
import http from 'node:http'
import { emptyNullObject } from './prototype'

/**
 * `fn` when it is Node's own method, or a function no response ever has.
 * Switchyard skips Express's calls into Node's methods only while they are
 * Node's own; one patched before this module loaded (an agent preloaded with
 * `-r` or `--import`) must count as patched, and the one sign of that left
 * is its source, which starts as Node's does (`head`). Should a later Node
 * word its method otherwise, Switchyard makes Express's calls through it:
 * slower, the same answers (test/diff/exactness.diff.test.ts, "patched before
 * Switchyard loaded", runs that way).
 */
export function nodeOwn<F extends (...args: any[]) => any>(fn: F, head: string): F {
  let text = ''
  try {
    text = Function.prototype.toString.call(fn)
  } catch {
    // not a function: never Node's own
  }
  return text.startsWith(head) ? fn : ((function notNodes() {}) as unknown as F)
}

const nativeSetHeader = nodeOwn(http.OutgoingMessage.prototype.setHeader, 'function setHeader(name, value) {')
const nativeGetHeader = nodeOwn(http.OutgoingMessage.prototype.getHeader, 'function getHeader(name) {')
const nativeHasHeader = nodeOwn(http.OutgoingMessage.prototype.hasHeader, 'function hasHeader(name) {')

/** The constructor of the header stores Switchyard starts (see newStore). */
function HeaderStore(): void {}
HeaderStore.prototype = emptyNullObject()

/** The private key of Node's outgoing header store, or undefined when it cannot be trusted. */
let storeKey: symbol | undefined = findStoreKey()

function findStoreKey(): symbol | undefined {
  try {
    const probe = new http.OutgoingMessage()
    probe.setHeader('X-Switchyard-Probe', 'a')
    let key: symbol | undefined
    for (const sym of Object.getOwnPropertySymbols(probe)) {
      if (sym.description !== 'kOutHeaders') continue
      const store = (probe as any)[sym]
      const entry = store && store['x-switchyard-probe']
      if (Array.isArray(entry) && entry.length === 2 && entry[0] === 'X-Switchyard-Probe' && entry[1] === 'a') key = sym
    }
    if (key === undefined) return undefined
    // a fresh message starts with no store: the direct path must create it as Node does
    const fresh = new http.OutgoingMessage()
    if ((fresh as any)[key] !== null) return undefined
    const store = newStore()
    store['x-b'] = ['X-B', 'b']
    ;(fresh as any)[key] = store
    if (fresh.getHeader('x-b') !== 'b' || !fresh.hasHeader('X-B') || fresh.getHeaders()['x-b'] !== 'b') return undefined
    fresh.setHeader('X-C', 'c')
    fresh.removeHeader('x-b')
    if (fresh.getHeaderNames().join() !== 'x-c') return undefined
    return key
  } catch {
    return undefined
  }
}

/**
 * A new header store, that behaves as Node's own (an object without
 * prototype) for everything Node does with it, but in V8's fast mode and
 * made without a call into V8's runtime:
 * - Node writes `{ __proto__: null }`, a dictionary, where four inserts plus
 *   the head's walk over them cost ~460 ns against ~110 ns on a fast-mode
 *   object (in-process);
 * - a `{}` given the null prototype by `Object.setPrototypeOf` is in fast
 *   mode, but the call goes to V8's runtime: ~500 instructions a response
 *;
 * - an object made by `HeaderStore` is fast, made inline, and its prototype
 *   is an empty object whose own prototype is null: no name is inherited, so
 *   every read, write, `in`, `for...in`, delete and `Object.keys` Node makes
 *   gives what it gives on Node's store (`__proto__` included: it is an
 *   ordinary key without Object.prototype in the chain).
 * Only the store's own prototype differs, and the store is reachable only
 * through Node's private symbol (the probe above checks the store through
 * Node's own methods; test/utils.headers.test.ts through each of them).
 */
function newStore(): Record<string, [string, unknown]> {
  return new (HeaderStore as any)()
}

/**
 * `res.setHeader(name, value)` for a header Switchyard built: `lower` is
 * `name.toLowerCase()`, and both name and value are known to be valid. Goes
 * through `res.setHeader` whenever anything is unusual: headers already sent
 * (setHeader throws), setHeader replaced or wrapped by a middleware (it must
 * see the call), an HTTP/2 response, or no trusted store key.
 */
export function putHeader(res: any, name: string, lower: string, value: string): void {
  putHeaderWith(res, res.setHeader, name, lower, value)
}

/** `putHeader` where the caller says which setHeader Express would call (`set.call(res, name, value)`). */
export function putHeaderWith(res: any, set: (name: string, value: any) => unknown, name: string, lower: string, value: string): void {
  if (set === nativeSetHeader && storeKey !== undefined && !res._header) {
    let store = res[storeKey]
    if (store === null) res[storeKey] = store = newStore()
    if (typeof store === 'object') {
      putEntry(store, lower, [name, value])
      return
    }
  }
  set.call(res, name, value)
}

/**
 * `store[lower] = entry`, with a store of its own for each header the
 * request path writes. One keyed store with every header's name turns
 * megamorphic (V8's generic stub, a stub-cache probe per header); a store
 * with a literal name follows the store's cached transitions inline, and
 * the callers' names are literals, so once putHeader is inlined the switch
 * is decided at compile time.
 */
function putEntry(store: Record<string, [string, unknown]>, lower: string, entry: [string, unknown]): void {
  switch (lower) {
    case 'x-powered-by': store['x-powered-by'] = entry; return
    case 'content-type': store['content-type'] = entry; return
    case 'content-length': store['content-length'] = entry; return
    case 'etag': store.etag = entry; return
    default: store[lower] = entry
  }
}

/** `store[lower]`, with a load of its own for each header the request path reads (see putEntry). */
function entryOf(store: Record<string, [string, unknown]>, lower: string): [string, unknown] | undefined {
  switch (lower) {
    case 'content-type': return store['content-type']
    case 'etag': return store.etag
    case 'transfer-encoding': return store['transfer-encoding']
    default: return store[lower]
  }
}

/**
 * Node's header store of `res` (null: no header set yet) when `method` is
 * Node's own `native` and the store is trusted; undefined otherwise, and then
 * the caller goes through `method`.
 */
function storeFor(res: any, method: unknown, native: unknown): Record<string, [string, unknown]> | null | undefined {
  if (method !== native || storeKey === undefined) return undefined
  const store = res[storeKey]
  return store === null || typeof store === 'object' ? store : undefined
}

/**
 * `res.getHeader(name)`, read from Node's store under `lower` (the name
 * lower-cased) without Node's validation and lower-casing of the name;
 * through `res.getHeader(name)` whenever that is not Node's own (a
 * middleware's wrapper, HTTP/2) or the store is not trusted.
 */
export function readHeader(res: any, name: string, lower: string): unknown {
  const store = storeFor(res, res.getHeader, nativeGetHeader)
  if (store === undefined) return res.getHeader(name)
  const entry = store === null ? undefined : entryOf(store, lower)
  return entry && entry[1]
}

/** Is `res.setHeader` Node's own (so that skipping a call to it is unobservable)? */
export function nativeSetHeaderOf(res: any): boolean {
  return res.setHeader === nativeSetHeader
}

/** Is `res.getHeader` Node's own (so that skipping a call to it is unobservable)? */
export function nativeGetHeaderOf(res: any): boolean {
  return res.getHeader === nativeGetHeader
}

/**
 * Whether `res` holds the header `lower` (a lower-case name), read from
 * Node's store; undefined when that cannot be done without a call that a
 * middleware could see (`res.hasHeader` is not Node's own, or the store is
 * not trusted). For checks Express does not make: it never asks.
 */
export function holdsHeader(res: any, lower: string): boolean | undefined {
  const store = storeFor(res, res.hasHeader, nativeHasHeader)
  if (store === undefined) return undefined
  return store !== null && !!entryOf(store, lower)
}

/** For tests: whether the direct store is in use; `use(false)` forces the setHeader fallback, `use(true)` looks again. */
export function directHeaderStore(use?: boolean): boolean {
  if (use === false) storeKey = undefined
  else if (use === true) storeKey = findStoreKey()
  return storeKey !== undefined
}
