import { debugNamespace } from '../utils/debug'
import { Layer, ThenableSite, clearForeign, directHandler, foreignMatched, forwardRejection, kInternals, matchLayer, matchedPattern, ownMatcher, ownRouters, prefixMatched, type Handler, type MatchResult } from './layer'
import { cachedFiller, fillsGenerated, NO_KEYS } from './params'
import { from, indexOf, kState, lookUp, newState, stateOf, type RouterState } from './stack'
import { Route, truthy, useArguments } from './route'
import { methods } from './methods'
import { EmptyObject, orderKeys } from '../utils/prototype'
import { UNKNOWN, lastParsePlain, routerPathname, slowPathname } from '../utils/url'
import { anyTracing, joinPattern, kMatchedRoute, kMountRoute, patternText, recordError, refreshTracing, requestTraced, traceParamCall, type RequestContext } from './tracing'

export { Route }

/** router@2.3's debug namespace (`DEBUG=router`), with its messages. */
const debug = debugNamespace('router')
/**
 * Is the `router` namespace on? Asked when a request enters a router, so
 * that each layer reads one variable. While it is on, no step takes the
 * pass-through fast path (see step): its line is printed by `enter`, and the
 * fast path carries no bytecode for it (V8 inlines that path into the
 * middleware calling next only while it stays small).
 */
let debugging = false

/** router@2.3's lines, out of the hot functions (each call site stays a few bytes of bytecode). */
function debugDispatch(req: any): void {
  debug.log('dispatching %s %s', req.method, req.url)
}
function debugTrim(layerPath: string, req: any): void {
  debug.log('trim prefix (%s) from url %s', layerPath, req.url)
}
function debugLayer(layer: Layer, layerPath: string, req: any): void {
  debug.log('%s %s : %s', layer.name, layerPath, req.originalUrl)
}

export { Layer } from './layer'
export { methods } from './methods'

type Next = (err?: any) => void
type ParamCallback = (req: any, res: any, next: Next, value: any, name: string) => any

/** Options of `Router()`. */
export interface RouterOptions {
  /** '/Foo' and '/foo' differ (default false) */
  caseSensitive?: boolean
  /** keep the parent router's req.params; the child's value wins on conflict (default false) */
  mergeParams?: boolean
  /** '/foo' and '/foo/' differ (default false) */
  strict?: boolean
}

/** One entry of `router.listRoutes()`. */
export interface RouteListing {
  /** the registered path (each of an array's paths gets an entry) */
  path: string | RegExp
  /** a route's methods, upper case ('*' for `.all()`); undefined for a mounted router */
  methods: string[] | undefined
  /** the mounted router, for `.use(path, router)` */
  router: Router | undefined
}

/**
 * A router: an ordered stack of middleware and routes, callable as middleware.
 *
 * @example
 * const router = Router({ mergeParams: true })
 * router.get('/:id', (req, res) => res.send(req.params.id))
 * app.use('/users', router)
 */
export interface Router {
  (req: any, res: any, next: Next): void
  caseSensitive: boolean | undefined
  mergeParams: boolean | undefined
  strict: boolean | undefined
  params: Record<string, ParamCallback[]>
  stack: Layer[]
  /** @internal */
  [kState]: RouterState
  handle(req: any, res: any, callback: Next): void
  use(...args: unknown[]): this
  route(path: unknown): Route
  param(name: string, fn: ParamCallback): this
  all(path: unknown, ...handlers: unknown[]): this
  listRoutes(): RouteListing[]
  [method: string]: any
}

/** Create a router (`new` is optional). */
export const Router = function Router(this: unknown, options?: RouterOptions): Router {
  const opts = options || {}
  // The function is named where it is made ('router', as router@2's) and no
  // other binding here shares its name: the bundle then keeps its own name,
  // and it keeps fast properties, which the dispatch reads on every pass
  //.
  const self = function router(req: any, res: any, next: Next) {
    self.handle(req, res, next)
  } as Router
  // between the router and Router.prototype, an object of its own (the
  // instance `new` made, as in router@2.3): code that patches
  // Object.getPrototypeOf(router) changes that one router only
  Object.setPrototypeOf(self, this instanceof Router ? this : Object.create(Router.prototype))
  self.caseSensitive = opts.caseSensitive
  self.mergeParams = opts.mergeParams
  self.params = {}
  self.strict = opts.strict
  const state = newState([])
  self.stack = state.view
  hide(self, kState, state)
  ownRouters.add(self)
  return self
} as unknown as { new (options?: RouterOptions): Router; (options?: RouterOptions): Router; prototype: any; Route: typeof Route }

function hide(target: object, key: symbol, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: false, configurable: true })
}

/** Add a layer (the router's own writes skip the Proxy). */
function pushLayer(router: Router, layer: Layer): void {
  const state = stateOf(router)
  state.stack.push(layer)
  state.version++
}

// a function, as router@2.3's is (routers are functions: call/apply/bind stay
// reachable through the prototype chain); anonymous, with its own prototype
Router.prototype = [function () {}][0]
// router@2 exposes the Route class on Router (req.route instanceof Router.Route)
Router.Route = Route

const proto = Router.prototype as Router

proto.param = function param(name: string, fn: ParamCallback) {
  if (!name) throw new TypeError('argument name is required')
  if (typeof name !== 'string') throw new TypeError('argument name must be a string')
  if (!fn) throw new TypeError('argument fn is required')
  if (typeof fn !== 'function') throw new TypeError('argument fn must be a function')
  let params = this.params[name]
  if (!params) params = this.params[name] = []
  // (router@2.3's words for a name that Object.prototype holds, 'toString' or
  // '__proto__': its variable is named params, which the bundle may rename)
  if (typeof params.push !== 'function') throw new TypeError('params.push is not a function')
  params.push(fn)
  return this
}

proto.use = function use(this: Router, handler?: unknown) {
  // (one declared parameter, `use.length` 1 as in router@2.3; all are read from arguments)
  const { path, handlers: callbacks } = useArguments(Array.prototype.slice.call(arguments))
  if (callbacks.length === 0) throw new TypeError('argument handler is required')
  for (const fn of callbacks) {
    if (typeof fn !== 'function') throw new TypeError('argument handler must be a function')
    debug.log('use %o %s', path, fn.name || '<anonymous>')
    const layer = new Layer(path, { sensitive: this.caseSensitive, strict: false, end: false }, fn as Handler)
    layer.route = undefined
    pushLayer(this, layer)
  }
  return this
}

proto.route = function route(path: unknown) {
  const route = new Route(path)
  const layer = new Layer(path, { sensitive: this.caseSensitive, strict: this.strict, end: true }, function handle(req: any, res: any, next: Next) {
    route.dispatch(req, res, next)
  })
  layer.route = route
  pushLayer(this, layer)
  return route
}

/**
 * The routes and mounted routers registered on this router, as router@2.3
 * lists them: one `{ path, methods, router }` per registered path, in stack
 * order. `methods` are a route's methods in the order first registered
 * (`'*'` for `.all()`, HEAD added after GET unless registered); `router` is
 * the router mounted by `.use(path, router)` (then `methods` is undefined),
 * to recurse into. Plain middleware and mounted apps are not listed.
 *
 * @example
 * app.get('/users', list)
 * app.use('/admin', adminRouter)
 * app.router.listRoutes()
 * // [{ path: '/users', methods: ['GET', 'HEAD'], router: undefined },
 * //  { path: '/admin', methods: undefined, router: adminRouter }]
 */
proto.listRoutes = function listRoutes(): RouteListing[] {
  const routes: RouteListing[] = []
  for (const layer of this.stack) {
    const route = layer.route
    const router = !route && Array.isArray((layer.handle as any).stack) ? layer.handle as unknown as Router : undefined
    if (!route && !router) continue
    const methods = route ? route._methods(true) : undefined
    if (Array.isArray(layer.rawPath)) {
      for (const path of layer.rawPath) routes.push({ path, methods: methods && methods.slice(), router })
    } else {
      routes.push({ path: layer.rawPath as string | RegExp, methods, router })
    }
  }
  return routes
}

for (const method of [...methods, 'all']) {
  ;(proto as any)[method] = function (this: Router, path: unknown, ...handlers: unknown[]) {
    const route = this.route(path) as any
    route[method](...handlers)
    return this
  }
}

/** The part of req.url before the path, for absolute-form URLs ('http://host'); '' otherwise. */
function protohostOf(url: unknown): string {
  if (typeof url !== 'string' || url.length === 0 || url.charCodeAt(0) === 0x2f) return ''
  const search = url.indexOf('?')
  const end = search !== -1 ? search : url.length
  const fqdn = url.slice(0, end).indexOf('://')
  return fqdn !== -1 ? url.slice(0, url.indexOf('/', 3 + fqdn)) : ''
}

/**
 * Merge the parent's params under the child's; numeric keys of the child are
 * shifted after the parent's. `Object.assign`, as router@2 does: the params
 * the router's matchers make are fast-mode objects (src/router/layer.ts),
 * which it copies quickly (it was slow over path-to-regexp's dictionary-mode
 * ones: 28% of a request through three mergeParams routers).
 */
function mergeParams(params: Record<string, any>, parent: unknown): Record<string, any> {
  if (typeof parent !== 'object' || !parent) return params
  const obj: Record<string, any> = Object.assign({}, parent)
  if (!(0 in params) || !(0 in parent)) return Object.assign(obj, params)
  let i = 0
  let o = 0
  while (i in params) i++
  while (o in parent) o++
  for (i--; i >= 0; i--) {
    params[i + o] = params[i]
    if (i < o) delete params[i]
  }
  return Object.assign(obj, params)
}

function sendOptions(res: any, allowed: string[], done: Next): void {
  const unique: Record<string, true> = Object.create(null)
  for (const m of allowed) unique[m] = true
  const allow = Object.keys(unique).sort().join(', ')
  try {
    res.setHeader('Allow', allow)
    res.setHeader('Content-Length', Buffer.byteLength(allow))
    res.setHeader('Content-Type', 'text/plain')
    res.setHeader('X-Content-Type-Options', 'nosniff')
    res.end(allow)
  } catch (err) {
    done(err)
  }
}

// ---- dispatch ----------------------------------------------------------------

/**
 * `Dispatch.lastParsed` before the first parse, and after one that gave no
 * pathname: equal to no `req._parsedUrl` (nothing outside this module holds it).
 */
const NOT_PARSED: object = Object.freeze({})

// One Dispatch per pass of a request through a router: the state that Express
// keeps in closures, in one object, plus the one `next` function handlers get.

interface Dispatch {
  readonly state: RouterState
  readonly stack: Layer[]
  /** the router's options, read when the pass starts */
  readonly sensitive: boolean
  readonly strict: boolean
  readonly mergeParams: boolean
  readonly paramCallbacks: Record<string, ParamCallback[]>
  readonly req: any
  readonly res: any
  /** `(err) => void` from router.handle, or undefined: then `final(req, res, err)` */
  readonly callback: Next | undefined
  readonly final: ((req: any, res: any, err: any) => void) | undefined
  readonly protohost: string
  readonly parentParams: any
  /**
   * The own keys of `parentParams`, in order, while they are known: when the
   * parent pass entered this router directly with params its matcher
   * filled (src/router/params.ts). Forgotten when the pass hands them back
   * to req.params, since code may then change them.
   */
  parentKeys: readonly string[] | undefined
  /** mergeParams with a parent object: the matched params are only copied */
  readonly plainParams: boolean
  readonly parentUrl: string
  /** req.baseUrl as the pass found it (undefined at the app's own router), put back on handing over */
  readonly parentBaseUrl: unknown
  readonly parentNext: any
  /** req's router@2.3 matched pattern when the pass started (restored with baseUrl, next and params) */
  readonly parentMatched: unknown
  /** the methods seen on matching routes, for an automatic OPTIONS answer */
  readonly allowed: string[] | undefined
  readonly next: Next
  idx: number
  removed: string
  slashAdded: boolean
  /** nothing for the next step to undo: `removed` is '', `slashAdded` false and `mountSaved` null */
  clean: boolean
  sync: number
  paramCalled: Record<string, ParamState> | undefined
  /** while tracing: the mount pattern to restore when the mounted layer passes on (null: nothing saved) */
  mountSaved: string | null
  /**
   * req.url at the last step, its pathname, and the parse parseurl left on
   * req._parsedUrl. A step reuses the pathname only while both req.url and
   * req._parsedUrl are still these: parseurl (which router@2 calls on every
   * step) would return that same parse, so skipping it changes nothing.
   * When another pass (a mounted router) or a middleware parsed some other
   * URL meanwhile, the step parses again, and req._parsedUrl ends as
   * Express leaves it.
   * `lastUrl` is always a string, and `lastParsed` NOT_PARSED while there is
   * no parse to reuse: a `===` between a string and a symbol (or undefined)
   * compiles to a call of V8's generic StrictEqual builtin, one per
   * middleware.
   */
  lastUrl: string
  lastPath: string | undefined
  lastParsed: unknown
  /** the last parse was the router's own, of a plain URL (src/utils/url.ts): what a mount leaves of it is plain too */
  lastPlain: boolean
  /**
   * A URL known to be plain, and where its search starts (-1: none): what
   * the parent pass left in req.url when it entered this router directly
   * (see enterRouter); '' and UNKNOWN otherwise. A step parsing this very
   * URL skips the scan.
   */
  readonly knownUrl: string
  readonly knownSearch: number
}

/**
 * A new pass, made as one object literal: all its fields are stored once, in
 * the literal's order (a class's fields were defined on each object by an
 * initializer V8 ran apart from the constructor; assigned in the constructor
 * instead, each store changed the object's map).
 */
function newDispatch(router: Router, req: any, res: any, callback: Next | undefined, final: ((req: any, res: any, err: any) => void) | undefined, knownUrl: string, knownSearch: number, knownKeys: readonly string[] | undefined): Dispatch {
  const state = stateOf(router)
  const sensitive = truthy(router.caseSensitive)
  const strict = truthy(router.strict)
  const mergeParams = truthy(router.mergeParams)
  const protohost = protohostOf(req.url)
  const params = req.params
  const baseUrl = req.baseUrl
  const d: Dispatch = {
    state,
    stack: state.stack,
    sensitive,
    strict,
    mergeParams,
    paramCallbacks: router.params,
    req,
    res,
    callback,
    final,
    protohost,
    parentParams: params,
    parentKeys: knownKeys,
    plainParams: mergeParams && typeof params === 'object' && params !== null,
    parentUrl: (baseUrl as string) || '',
    parentBaseUrl: baseUrl,
    parentNext: req.next,
    parentMatched: req[kMatchedRoute],
    allowed: req.method === 'OPTIONS' ? [] : undefined,
    next: undefined as unknown as Next,
    idx: 0,
    removed: '',
    slashAdded: false,
    clean: true,
    sync: 0,
    paramCalled: undefined,
    mountSaved: null,
    lastUrl: '',
    lastPath: undefined,
    lastParsed: NOT_PARSED,
    lastPlain: false,
    knownUrl,
    knownSearch
  }
  // named `next` with no per-request naming call in the build (see stepper)
  ;(d as { next: Next }).next = stepper(d)
  return d
}

/**
 * Run `router` for one request; at the end call `callback(err)`, or
 * `final(req, res, err)` when there is no callback. (`knownUrl`,
 * `knownSearch` and `knownKeys`: what the parent pass knows of req.url and
 * req.params when it enters the router directly; see Dispatch.)
 */
export function dispatch(router: Router, req: any, res: any, callback: Next | undefined, final?: (req: any, res: any, err: any) => void, knownUrl = '', knownSearch = UNKNOWN, knownKeys?: readonly string[]): void {
  refreshTracing()
  if ((debugging = debug.on()) === true) debugDispatch(req)
  const d = newDispatch(router, req, res, callback, final, knownUrl, knownSearch, knownKeys)
  req.next = d.next
  req.baseUrl = d.parentUrl
  req.originalUrl = req.originalUrl || req.url
  d.next()
}

proto.handle = function handle(req: any, res: any, callback: Next) {
  if (!callback) throw new TypeError('argument callback is required')
  dispatch(this, req, res, callback)
}

/** `router.handle` as this module defines it: app.handle dispatches directly only while a router's handle is still this one. */
export const routerHandle = proto.handle

// router@2.3's order of the prototype's methods (param, handle, use, route...)
orderKeys(proto, ['handle', 'use', 'route', 'listRoutes', ...methods, 'all'])

/**
 * The pass is over: answer OPTIONS, or restore what the router changed on req
 * and hand over. (router@2.3 restores only on handing over: after an
 * automatic OPTIONS answer, req keeps the last layer's baseUrl, next and
 * params, unless sending it failed.)
 */
function finish(d: Dispatch, err: any): void {
  if (d.allowed !== undefined && !err && d.allowed.length !== 0) {
    sendOptions(d.res, d.allowed, (e?: any) => handOver(d, e))
  } else {
    handOver(d, err)
  }
}

function handOver(d: Dispatch, err: any): void {
  const req = d.req
  req.baseUrl = d.parentBaseUrl
  req.next = d.parentNext
  req.params = d.parentParams
  d.parentKeys = undefined
  req[kMatchedRoute] = d.parentMatched
  if (d.callback !== undefined) d.callback(err)
  else d.final!(req, d.res, err)
}

/**
 * The `next(err)` of one pass, the function handlers call. It is a method
 * named `next` (the build gives it no per-request naming call) and it only
 * calls `passOrStep`, which takes the common step itself and leaves every
 * other one to `step`. Kept small, V8 compiles it into the handler that calls
 * it; with the whole search inside it was not, and each middleware of a
 * pass-through chain cost about twice as much.
 */
function stepper(d: Dispatch): Next {
  // a method, so that it is named `next` as router@2.3's is, with no naming
  // call per request (the build's keepNames wraps arrows and function
  // expressions in one; a method is named by the language)
  return { next(err?: any): void {
    passOrStep(d, err)
  } }.next
}

/**
 * The common step, a middleware on '/' right after the last layer (a
 * pass-through chain): it matches every path, strips nothing and takes no
 * param triggers, so none of the search in `step` is needed. Taken only
 * when the last layer left nothing to undo and req.url is the one already
 * parsed (see Dispatch.lastUrl). Every other step goes to `step`.
 *
 * A function of the module's, not the body of `next`: each pass makes a
 * `next` of its own, so V8 compiles `next` knowing only that its context is
 * some pass's, and every module-level name read in its body (the functions
 * called, the symbols) was a load through the context chain and a check that
 * it still held what it held at compile time. Inlined into `next` as a known
 * function, this body sees the module's context as a constant, and V8 folds
 * those names away: 100 pass-through middlewares, in-process, 33,518 -> 28,691
 * instructions per request with the flags below. Flags tested here
 * are compared with `=== true`: they are always booleans, and a bare truth test
 * of a field or variable V8 knows no type for compiles to five comparisons.
 */
function passOrStep(d: Dispatch, err: any): void {
  if (err === undefined && d.clean === true && d.sync < 100) {
    const i = d.idx
    const stack = d.stack
    if (i < stack.length) {
      const layer = stack[i]
      const req = d.req
      // (a layer of the router's own has internals: anything else put into
      // the stack goes through step; sameParse spelled out, because calling
      // it here cost 11.6k more instructions over 100 middlewares)
      const internals = layer[kInternals]
      if (layer.slash === true && req._parsedUrl === d.lastParsed && req.url === d.lastUrl && internals !== undefined && ownMatcher(layer)) {
        d.idx = i + 1
        d.sync++
        req[kMatchedRoute] = '/'
        req.params = slashParams(d)
        // what layer.handleRequest does, without its frame
        const fn = directHandler(layer, internals)
        const next = d.next
        if (fn === undefined) {
          layer.handleRequest(req, d.res, next)
        } else {
          try {
            forwardRejection(fn(req, d.res, next), next, ThenableSite.Middleware)
          } catch (e) {
            next(e)
          }
        }
        d.sync = 0
        return
      }
    }
  }
  step(d, err)
}

/** Are req.url and parseurl's cache still the ones the last parse saw? Then its pathname stands (see Dispatch.lastUrl). */
function sameParse(d: Dispatch, req: any): boolean {
  return req._parsedUrl === d.lastParsed && req.url === d.lastUrl
}

/** Every other step: undo the last layer's URL changes, find the next matching layer, call it. */
function step(d: Dispatch, err: any): void {
  const req = d.req
  // an error that reaches a router is remembered as reported (router@2.3, with or without subscribers)
  if (err) recordError(req, err)
  // (typeof first: `===` between a string and what `next` mostly gets,
  // undefined, compiles to a call of V8's generic StrictEqual)
  let layerError = typeof err === 'string' && err === 'route' ? null : err

  if (d.slashAdded === true) {
    // the '/' the mount put in front comes off again, unless the handler
    // rewrote req.url under a mount path without a trailing slash: then the
    // URL stays as it left it (router@2.3: a rewrite keeps its separator)
    const url: string = req.url
    if (url === '/' || url.startsWith('/?') || (url[0] === '/' && d.removed.endsWith('/'))) req.url = url.slice(1)
    d.slashAdded = false
  }
  if (d.removed.length !== 0) {
    req.baseUrl = d.parentUrl
    req.url = d.protohost + d.removed + req.url.slice(d.protohost.length)
    d.removed = ''
  }
  if (d.mountSaved !== null) {
    req[kMountRoute] = d.mountSaved
    d.mountSaved = null
  }
  d.clean = true
  if (typeof layerError === 'string' && layerError === 'router') {
    setImmediate(finish, d, null)
    return
  }
  const stack = d.stack
  if (d.idx >= stack.length) {
    setImmediate(finish, d, layerError)
    return
  }
  if (++d.sync > 100) {
    setImmediate(d.next, err)
    return
  }
  // the pathname of req.url (parsed again only when req.url or its parse changed)
  const url = req.url
  let path: string | undefined
  if (typeof url === 'string' && sameParse(d, req)) path = d.lastPath
  else {
    if (typeof url === 'string') {
      // (the search first: a string compared with the '' of most passes is a call of V8's StringEqual)
      path = routerPathname(req, url, d.knownSearch !== UNKNOWN && url === d.knownUrl ? d.knownSearch : UNKNOWN)
      d.lastPlain = lastParsePlain()
    } else {
      path = slowPathname(req)
      d.lastPlain = false
    }
    // (while DEBUG=router is on, a parse is never taken as the last one, so
    // the fast path, which prints nothing, is not taken: see debugging)
    if (debugging === true || typeof url !== 'string') {
      d.lastUrl = ''
      d.lastParsed = NOT_PARSED
    } else {
      d.lastUrl = url
      d.lastParsed = req._parsedUrl
    }
    d.lastPath = path
  }
  if (path == null) {
    d.lastParsed = NOT_PARSED
    finish(d, layerError)
    return
  }

  // find the next matching layer, in stack order: static routes come from
  // the index, every other layer is tried in turn
  const index = indexOf(d.state, d.sensitive, d.strict)
  let literals: number[] | undefined
  let segments: number[] | undefined
  if (index.keyed === true) {
    lookUp(index, path)
    literals = index.lastLiterals
    segments = index.lastSegments
  }
  // three sorted lists of candidate layers, merged in stack order
  const idx = d.idx
  let li = literals !== undefined ? from(literals, idx) : 0
  let si = segments !== undefined ? from(segments, idx) : 0
  let oi = index.otherFrom[idx]
  const other = index.other
  const method = req.method
  // params that mergeParams copies at once need no null prototype; with no
  // param trigger to run (they need the layer's own keys), the matcher merges
  // them itself, from the parent's keys when they are known (Dispatch.parentKeys)
  const paramCallbacks = d.paramCallbacks
  const triggers = hasAny(paramCallbacks)
  const base = d.plainParams === true && triggers === false ? d.parentParams : undefined
  const baseKeys = base !== undefined ? d.parentKeys : undefined
  // a mount's params that a router below copies by their keys (no trigger
  // runs between, fills are made) may be a dictionary, as nothing else
  // copies them (see the Matcher type's `plain` in src/router/layer.ts)
  const plain = d.plainParams === true ? true : triggers === false && debugging === false && fillsGenerated() ? undefined : false
  // (a layer asked through its own `match` runs anyone's code: from there
  // on, the parent's keys are not known, and a trigger may have been added)
  clearForeign()
  let layer: Layer | undefined
  let found: MatchResult | null = null

  while (true) {
    const a = literals !== undefined && li < literals.length ? literals[li] : Infinity
    const b = segments !== undefined && si < segments.length ? segments[si] : Infinity
    const c = oi < other.length ? other[oi] : Infinity
    let i: number
    if (a < b && a < c) {
      i = a
      li++
    } else if (b < c) {
      i = b
      si++
    } else if (c !== Infinity) {
      i = c
      oi++
    } else {
      break
    }
    const candidate = stack[i]
    if (candidate.slash === true && candidate instanceof Layer && ownMatcher(candidate)) {
      // middleware on '/': matches every path, nothing stripped, fresh params
      // (unless a tool replaced its match: then it is asked, as router@2.3 asks it)
      layer = candidate
      found = null
      d.idx = i + 1
      break
    }
    let m: MatchResult | null
    try {
      m = matchLayer(candidate, path, plain, base, foreignMatched === true ? undefined : baseKeys)
    } catch (e) {
      // a match that throws (a parameter that does not decode) is nobody's error to report
      recordError(req, e)
      layerError = layerError || e
      continue
    }
    if (m === null) continue
    const route = candidate.route
    if (route) {
      // routes do not match with a pending error
      if (layerError) continue
      const hasMethod = route._handlesMethod(method)
      if (!hasMethod && d.allowed !== undefined) d.allowed.push(...route._methods())
      if (!hasMethod && method !== 'HEAD') continue
    }
    layer = candidate
    found = m
    d.idx = i + 1
    break
  }

  if (layer === undefined) {
    d.idx = stack.length
    finish(d, layerError)
    return
  }

  if (found === null) {
    // a '/' middleware: no parameters, so no param triggers
    req[kMatchedRoute] = layer.rawPath
    req.params = slashParams(d)
    enter(d, layer, layerError, '', path, undefined)
    d.sync = 0
    return
  }
  const route = layer.route
  if (route) req.route = route
  req[kMatchedRoute] = matchedPattern
  const remerged = d.mergeParams === true && !found.merged
  req.params = remerged ? mergeParams(found.params, d.parentParams) : found.params
  const keys = triggers === true || foreignMatched === true ? paramCallbacksFor(paramCallbacks, found.params) : undefined
  if (keys === undefined) {
    // the common case: no param trigger applies, call the layer directly
    if (route) layer.handleRequest(req, d.res, d.next)
    // (a debug log, which enter may write, is a function anyone may set: then they are not known)
    else enter(d, layer, layerError, found.path, path, remerged || debugging === true ? undefined : found.keys)
    d.sync = 0
    return
  }
  runParams(d, keys, layer, route, layerError, found.path, path)
}

/**
 * Run the param triggers `keys` of a matched layer, then call it. (Apart
 * from step: a closure there puts step's locals in a context, which the
 * interpreter makes on every step and through which the optimized step
 * reads them.)
 */
function runParams(d: Dispatch, keys: string[], matched: Layer, route: any, layerError: any, layerPath: string, path: string): void {
  const req = d.req
  processParams(d.paramCallbacks, keys, (d.paramCalled ??= Object.create(null)), req, d.res, matched, (perr?: any) => {
    if (perr) d.next(layerError || perr)
    else if (route) matched.handleRequest(req, d.res, d.next)
    else enter(d, matched, layerError, layerPath, path, undefined)
    d.sync = 0
  })
}

/** The params a '/' middleware gets: a fresh object (with the parent's under mergeParams). */
function slashParams(d: Dispatch): Record<string, any> {
  // (an EmptyObject is {} in 16 bytes instead of 48; the copy apart, as this is compiled into the pass-through step,
  // where each byte counts against V8's inlining budget)
  return d.mergeParams === true ? parentCopy(d) : new EmptyObject()
}

/** A copy of the parent's params, by their keys when they are known (Dispatch.parentKeys). */
function parentCopy(d: Dispatch): Record<string, any> {
  const keys = d.parentKeys
  const filler = keys !== undefined && d.plainParams === true ? cachedFiller(d.state.slashFill, keys, NO_KEYS) : null
  return filler !== null ? filler.fill({}, d.parentParams, undefined, undefined, undefined, undefined) : mergeParams(new EmptyObject(), d.parentParams)
}

/**
 * Call a middleware layer: strip its matched path from req.url (into
 * req.baseUrl) first. (`keys`: the own keys of req.params when a matcher
 * filled them, for a router entered directly: see Dispatch.parentKeys.)
 */
function enter(d: Dispatch, layer: Layer, layerError: any, layerPath: string, path: string, keys: readonly string[] | undefined): void {
  const req = d.req
  const url: unknown = req.url
  // the URL left for the layer when it is what remains of the one step
  // parsed (a setter on req.url may keep something else), for enterRouter
  let left: string | undefined = url === d.lastUrl && path === d.lastPath ? d.lastUrl : undefined
  const internals = layer[kInternals]
  if (layerPath.length !== 0) {
    // router@2.3's two tests of the matched path: the start of the path,
    // followed by '/' or the end (a character of a string is never '').
    // They can only pass when the layer's own matcher made the match.
    if (internals === undefined || !prefixMatched(layer, internals)) {
      if (layerPath !== path.slice(0, layerPath.length)) {
        d.next(layerError)
        return
      }
      if (layerPath.length < path.length && path.charCodeAt(layerPath.length) !== 0x2f) {
        d.next(layerError)
        return
      }
    }
    const n = layerPath.length
    if (debugging === true) debugTrim(layerPath, req)
    const protohost = d.protohost
    d.removed = layerPath
    d.clean = false
    const rest: string = req.url.slice(protohost.length + n)
    if (protohost.length !== 0) {
      req.url = protohost + rest
      left = undefined
    } else {
      // (req.url read back, as router@2.3 reads it; '' too gets its '/',
      // its charCodeAt(0) being NaN)
      req.url = rest
      const cut: any = req.url
      if (cut !== rest) left = undefined
      if (typeof cut === 'string' ? cut.charCodeAt(0) !== 0x2f : cut[0] !== '/') {
        const slashed = '/' + cut
        req.url = slashed
        d.slashAdded = true
        if (left !== undefined) left = slashed
      } else if (left !== undefined) {
        left = rest
      }
    }
    req.baseUrl = d.parentUrl + (layerPath.charCodeAt(n - 1) === 0x2f ? layerPath.slice(0, -1) : layerPath)
  }
  if (anyTracing === true && !layer.slash) {
    // tracing: the pattern of every mount above and of this layer, so that
    // this middleware and the routes below it report their full route
    // (a '/' middleware adds nothing to it)
    const saved: string = req[kMountRoute] ?? ''
    d.mountSaved = saved
    d.clean = false
    req[kMountRoute] = joinPattern(saved, patternText(layer.rawPath))
  }
  if (debugging === true) debugLayer(layer, layerPath, req)
  if (layerError) {
    layer.handleError(layerError, req, d.res, d.next)
    return
  }
  // (the router the layer's handler was last seen to be, if any: a handler
  // replaced since is worked out by handleRequest, for the next request)
  const router = internals !== undefined ? internals.router : undefined
  if (router !== undefined && router === layer.handle && directHandler(layer, internals) !== undefined && (router as Router).handle === routerHandle) {
    // a router of this module's, whose call would only dispatch: entered
    // directly, told what is known of the URL left for it: a plain URL
    // stays plain when a mount cuts its path, and its search moves with the
    // cut (the URL step parsed had one when its pathname is shorter)
    if (left !== undefined && d.lastPlain === true) {
      const search = path.length === (url as string).length ? -1 : path.length - layerPath.length + (d.slashAdded === true ? 1 : 0)
      enterRouter(d, router as Router, left, search, keys)
    } else {
      enterRouter(d, router as Router, '', UNKNOWN, keys)
    }
  } else {
    layer.handleRequest(req, d.res, d.next)
  }
}

/**
 * Call a mounted router of this module's as its layer would (a throw goes
 * to next), without the frames of `layer.handleRequest`, the router function
 * and `router.handle`, telling it a URL known to be plain and where its
 * search starts ('' and UNKNOWN when none is known).
 */
function enterRouter(d: Dispatch, router: Router, knownUrl: string, knownSearch: number, knownKeys: readonly string[] | undefined): void {
  const next = d.next
  try {
    dispatch(router, d.req, d.res, next, undefined, knownUrl, knownSearch, knownKeys)
  } catch (err) {
    next(err)
  }
}

interface ParamState {
  error: any
  match: any
  value: any
}

const hasOwn = Object.prototype.hasOwnProperty

/** Has the object any enumerable key (a router's param callbacks)? */
function hasAny(obj: object): boolean {
  for (const _ in obj) return true
  return false
}

/** The matched parameter names that have callbacks, or undefined when none do (the common case). */
function paramCallbacksFor(callbacks: Record<string, ParamCallback[]>, params: Record<string, any>): string[] | undefined {
  let keys: string[] | undefined
  for (const key in callbacks) {
    if (hasOwn.call(params, key)) {
      keys = Object.keys(params)
      break
    }
  }
  return keys
}

/**
 * Run the param callbacks for the matched keys in order; each value once per
 * request (a later match with the same value reuses the first outcome).
 */
function processParams(callbacks: Record<string, ParamCallback[]>, keys: string[], called: Record<string, ParamState>, req: any, res: any, layer: Layer, done: Next): void {
  let i = 0
  let fnIndex = 0
  let key: string
  let value: any
  let fns: ParamCallback[] | undefined
  let state: ParamState

  const param = (err?: any): void => {
    if (err) return done(err)
    if (i >= keys.length) return done()
    fnIndex = 0
    key = keys[i++]
    value = req.params[key]
    fns = callbacks[key]
    const previous = called[key]
    if (value === undefined || !fns) return param()
    if (previous && (previous.match === value || (previous.error && previous.error !== 'route'))) {
      req.params[key] = previous.value
      return param(previous.error)
    }
    called[key] = state = { error: null, match: value, value }
    paramCallback()
  }

  const paramCallback = (err?: any): void => {
    const fn = fns![fnIndex++]
    state.value = req.params[key]
    if (err) {
      state.error = err
      param(err)
      return
    }
    if (!fn) return param()
    if (requestTraced()) {
      const ctx: RequestContext = { req, res, layer, handler: fn, route: req[kMatchedRoute], param: key }
      traceParamCall(fn, ctx, paramCallback, value, key)
      return
    }
    try {
      forwardRejection(fn(req, res, paramCallback, value, key), paramCallback, ThenableSite.Param)
    } catch (e) {
      paramCallback(e)
    }
  }

  param()
}
