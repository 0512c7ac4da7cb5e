import parseUrl from 'parseurl'
import { Layer, kEnd, kLiterals, kSensitive, kStrict, type Handler, type MatchResult } from './layer'
import { Route, useArguments } from './route'

export { Route }
import { methods } from './methods'

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

/** The static-route index of a router's stack, rebuilt when the stack changes. */
interface StackIndex {
  /** the stack length it was built for */
  size: number
  /** literal path -> indexes of the route layers matching exactly that path */
  literal: Map<string, number[]>
  /** indexes of every other layer, in order */
  other: number[]
  /** for each stack index i: the position in `other` of the first index >= i */
  otherFrom: Int32Array
  sensitive: boolean
  strict: boolean
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
  _index: StackIndex | undefined
  handle(req: any, res: any, callback: Next): void
  use(...args: unknown[]): this
  route(path: unknown): Route
  param(name: string, fn: ParamCallback): this
  all(path: unknown, ...handlers: unknown[]): this
  [method: string]: any
}

/** Create a router (`new` is optional). */
export const Router = function Router(this: unknown, options?: RouterOptions): Router {
  const opts = options || {}
  const router = function router(req: any, res: any, next: Next) {
    self.handle(req, res, next)
  } as Router
  const self = router
  Object.setPrototypeOf(router, Router.prototype)
  router.caseSensitive = opts.caseSensitive
  router.mergeParams = opts.mergeParams
  router.params = {}
  router.strict = opts.strict
  router.stack = []
  Object.defineProperty(router, '_index', { value: undefined, writable: true, enumerable: false, configurable: true })
  return router
} as unknown as { new (options?: RouterOptions): Router; (options?: RouterOptions): Router; prototype: any }

// routers are functions: keep call/apply/bind reachable through the prototype chain
Router.prototype = Object.create(Function.prototype)
// router@2 exposes the Route class on Router (req.route instanceof Router.Route)
;(Router as any).Route = Route

const proto = Router.prototype as Router

proto.param = function param(name: string, fn: ParamCallback) {
  if (!name) throw new TypeError('argument name is required')
  if (typeof name !== 'string') throw new TypeError('argument name must be a string')
  if (!fn) throw new TypeError('argument fn is required')
  if (typeof fn !== 'function') throw new TypeError('argument fn must be a function')
  ;(this.params[name] ??= []).push(fn)
  return this
}

proto.use = function use(...args: unknown[]) {
  const { path, handlers: callbacks } = useArguments(args)
  if (callbacks.length === 0) throw new TypeError('argument handler is required')
  for (const fn of callbacks) {
    if (typeof fn !== 'function') throw new TypeError('argument handler must be a function')
    const layer = new Layer(path, { sensitive: this.caseSensitive, strict: false, end: false }, fn as Handler)
    layer.route = undefined
    this.stack.push(layer)
  }
  return this
}

proto.route = function route(path: unknown) {
  const route = new Route(path)
  const layer = new Layer(path, { sensitive: this.caseSensitive, strict: this.strict, end: true }, function handle(req: any, res: any, next: Next) {
    route.dispatch(req, res, next)
  })
  layer.route = route
  this.stack.push(layer)
  return route
}

for (const method of [...methods, 'all']) {
  ;(proto as any)[method] = function (this: Router, path: unknown, ...handlers: unknown[]) {
    const route = this.route(path) as any
    route[method](...handlers)
    return this
  }
}

/** Build (or reuse) the static-route index for the stack as it is now. */
function indexOf(router: Router): StackIndex {
  const stack = router.stack
  const sensitive = Boolean(router.caseSensitive)
  const strict = Boolean(router.strict)
  const cached = router._index
  if (cached && cached.size === stack.length && cached.sensitive === sensitive && cached.strict === strict) return cached
  const literal = new Map<string, number[]>()
  const other: number[] = []
  const otherFrom = new Int32Array(stack.length + 1)
  for (let i = 0; i < stack.length; i++) {
    const layer = stack[i]
    const lits = layer.route && layer[kEnd] && layer[kSensitive] === sensitive && layer[kStrict] === strict ? layer[kLiterals] : undefined
    if (lits) {
      for (const key of new Set(lits)) {
        const list = literal.get(key)
        if (list) list.push(i)
        else literal.set(key, [i])
      }
    } else {
      other.push(i)
    }
  }
  for (let i = stack.length, pos = other.length; i >= 0; i--) {
    while (pos > 0 && other[pos - 1] >= i) pos--
    otherFrom[i] = pos
  }
  const index = { size: stack.length, literal, other, otherFrom, sensitive, strict }
  router._index = index
  return index
}

/** The key under which a request path is looked up in the static-route index. */
function literalKey(path: string, index: StackIndex): string {
  let key = path
  if (!index.strict && key.length > 1 && key.charCodeAt(key.length - 1) === 0x2f) key = key.slice(0, -1)
  return index.sensitive ? key : key.toLowerCase()
}

/** The part of req.url before the path, for absolute-form URLs ('http://host'); '' otherwise. */
function protohostOf(url: unknown): string {
  if (typeof url !== 'string' || url.length === 0 || url[0] === '/') return ''
  const search = url.indexOf('?')
  const end = search !== -1 ? search : url.length
  const fqdn = url.slice(0, end).indexOf('://')
  return fqdn !== -1 ? url.slice(0, url.indexOf('/', 3 + fqdn)) : ''
}

function pathnameOf(req: any): string | undefined {
  try {
    return parseUrl(req)?.pathname ?? undefined
  } catch {
    return undefined
  }
}

/** Merge the parent's params under the child's; numeric keys of the child are shifted after the parent's. */
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

proto.handle = function handle(req: any, res: any, callback: Next) {
  if (!callback) throw new TypeError('argument callback is required')
  const router = this
  const stack = this.stack
  const paramCallbacks = this.params
  const mergeParent = this.mergeParams
  const protohost = protohostOf(req.url)
  const parentParams = req.params
  const parentUrl: string = req.baseUrl || ''
  const parentNext = req.next
  const allowed: string[] | undefined = req.method === 'OPTIONS' ? [] : undefined
  let paramCalled: Record<string, ParamState> | undefined
  // the static-route lookup of the last path seen (middleware rarely changes it)
  let lookedUp: string | undefined
  let lookedUpIn: StackIndex | undefined
  let literalHits: number[] | undefined
  let idx = 0
  let removed = ''
  let slashAdded = false
  let sync = 0

  const done = (err?: any) => {
    req.baseUrl = parentUrl
    req.next = parentNext
    req.params = parentParams
    if (allowed !== undefined && !err && allowed.length !== 0) sendOptions(res, allowed, callback)
    else callback(err)
  }

  const next: Next = (err) => {
    let layerError = err === 'route' ? null : err

    if (slashAdded) {
      req.url = req.url.slice(1)
      slashAdded = false
    }
    if (removed.length !== 0) {
      req.baseUrl = parentUrl
      req.url = protohost + removed + req.url.slice(protohost.length)
      removed = ''
    }
    if (layerError === 'router') {
      setImmediate(done, null)
      return
    }
    if (idx >= stack.length) {
      setImmediate(done, layerError)
      return
    }
    if (++sync > 100) {
      setImmediate(next, err)
      return
    }
    const path = pathnameOf(req)
    if (path == null) {
      done(layerError)
      return
    }

    // find the next matching layer, in stack order: static routes come from
    // the index, every other layer is tried in turn
    const index = indexOf(router)
    if (path !== lookedUp || index !== lookedUpIn) {
      lookedUp = path
      lookedUpIn = index
      literalHits = index.literal.size !== 0 ? index.literal.get(literalKey(path, index)) : undefined
    }
    const literals = literalHits
    let li = 0
    if (literals !== undefined) while (li < literals.length && literals[li] < idx) li++
    let oi = index.otherFrom[idx]
    const other = index.other
    const method = req.method
    let layer: Layer | undefined
    let found: MatchResult | null = null

    while (true) {
      const nextLiteral = literals !== undefined && li < literals.length ? literals[li] : Infinity
      const nextOther = oi < other.length ? other[oi] : Infinity
      if (nextLiteral === Infinity && nextOther === Infinity) break
      let i: number
      if (nextLiteral < nextOther) {
        i = nextLiteral
        li++
      } else {
        i = nextOther
        oi++
      }
      const candidate = stack[i]
      let m: MatchResult | null
      try {
        m = candidate.match(path)
      } catch (e) {
        layerError = layerError || e
        continue
      }
      if (m === null) continue
      const route = candidate.route
      if (route) {
        // routes do not match with a pending error
        if (layerError) continue
        const hasMethod = route._handlesMethod(method)
        if (!hasMethod && allowed !== undefined) allowed.push(...route._methods())
        if (!hasMethod && method !== 'HEAD') continue
      }
      layer = candidate
      found = m
      idx = i + 1
      break
    }

    if (layer === undefined || found === null) {
      idx = stack.length
      done(layerError)
      return
    }

    const route = layer.route
    if (route) req.route = route
    req.params = mergeParent ? mergeParams(found.params, parentParams) : found.params
    const keys = paramCallbacksFor(paramCallbacks, found.params)
    if (keys === undefined) {
      // the common case: no param trigger applies, call the layer directly
      if (route) layer.handleRequest(req, res, next)
      else trimPrefix(layer, layerError, found.path, path)
      sync = 0
      return
    }
    const matched = layer
    const layerPath = found.path
    processParams(paramCallbacks, keys, (paramCalled ??= Object.create(null)), req, res, (perr?: any) => {
      if (perr) next(layerError || perr)
      else if (route) matched.handleRequest(req, res, next)
      else trimPrefix(matched, layerError, layerPath, path)
      sync = 0
    })
  }

  const trimPrefix = (layer: Layer, layerError: any, layerPath: string, path: string) => {
    if (layerPath.length !== 0) {
      if (layerPath !== path.slice(0, layerPath.length)) {
        next(layerError)
        return
      }
      const c = path[layerPath.length]
      if (c && c !== '/') {
        next(layerError)
        return
      }
      removed = layerPath
      req.url = protohost + req.url.slice(protohost.length + removed.length)
      if (!protohost && req.url[0] !== '/') {
        req.url = '/' + req.url
        slashAdded = true
      }
      req.baseUrl = parentUrl + (removed[removed.length - 1] === '/' ? removed.slice(0, -1) : removed)
    }
    if (layerError) layer.handleError(layerError, req, res, next)
    else layer.handleRequest(req, res, next)
  }

  req.next = next
  req.baseUrl = parentUrl
  req.originalUrl = req.originalUrl || req.url
  next()
}

interface ParamState {
  error: any
  match: any
  value: any
}

/** The matched parameter names that have callbacks, or undefined when none do (the common case). */
function paramCallbacksFor(callbacks: Record<string, ParamCallback[]>, params: Record<string, any>): string[] | undefined {
  let keys: string[] | undefined
  for (const key in callbacks) {
    if (key in params) {
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
function processParams(callbacks: Record<string, ParamCallback[]>, keys: string[], called: Record<string, ParamState>, req: any, res: any, done: Next): void {
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
    try {
      const ret = fn(req, res, paramCallback, value, key)
      if (ret !== undefined && ret !== null && typeof ret.then === 'function') {
        ret.then(null, (e: unknown) => paramCallback(e || new Error('Rejected promise')))
      }
    } catch (e) {
      paramCallback(e)
    }
  }

  param()
}
