import { Layer, type Handler } from './layer'
import { lowerMethod, methods } from './methods'
import { publishRoute, routeChannel } from './tracing'
import createDebug from 'debug'

/** router@2.3's debug namespace for routes (`DEBUG=router:route`), with its messages. */
const debug = createDebug('router:route')

type Next = (err?: any) => void

/** One pass of a request through a route's handlers (several of them: one needs no state). */
interface RouteDispatch {
  idx: number
  sync: number
  readonly next: Next
  readonly stack: Layer[]
  readonly req: any
  readonly res: any
  readonly method: string
  readonly done: Next
}

/** A new pass, one object literal (no class: see newDispatch in src/router/index.ts). */
function newRouteDispatch(stack: Layer[], req: any, res: any, method: string, done: Next): RouteDispatch {
  const d: RouteDispatch = { idx: 0, sync: 0, next: undefined as unknown as Next, stack, req, res, method, done }
  // a method, named `next` as router@2.3's is: the build adds no per-request naming call
  ;(d as { next: Next }).next = { next(err?: any): void { routeStep(d, err) } }.next
  return d
}

/**
 * `Boolean(value)`, with the values the router mostly meets (true, false,
 * undefined) compared first: a truth test of a value of unknown type
 * compiles to a call of V8's ToBoolean builtin.
 */
export function truthy(value: unknown): boolean {
  return value === true || (value !== undefined && value !== false && !!value)
}

function routeStep(d: RouteDispatch, err: any): void {
  // (typeof first: a `===` between a string and undefined compiles to a call
  // of V8's generic StrictEqual)
  if (typeof err === 'string') {
    if (err === 'route') return d.done()
    if (err === 'router') return d.done(err)
  }
  const stack = d.stack
  if (d.idx >= stack.length) return d.done(err)
  if (++d.sync > 100) {
    setImmediate(routeStep, d, err)
    return
  }
  let layer: Layer | undefined
  while (d.idx < stack.length) {
    const candidate = stack[d.idx++]
    if (candidate.method === undefined || candidate.method === d.method) {
      layer = candidate
      break
    }
  }
  if (layer === undefined) return d.done(err)
  if (err) layer.handleError(err, d.req, d.res, d.next)
  else layer.handleRequest(d.req, d.res, d.next)
  d.sync = 0
}

/** The `next` of a route with one handler: leaving the route, whatever it is given. */
function routeNext(done: Next): Next {
  return { next(err?: any): void { if (typeof err === 'string' && err === 'route') done(); else done(err) } }.next
}

function flattenHandlers(args: unknown[], out: unknown[] = []): unknown[] {
  for (const a of args) {
    if (Array.isArray(a)) flattenHandlers(a, out)
    else out.push(a)
  }
  return out
}

/**
 * A single path with per-method handler lists, created by `router.route(path)`.
 * GET handlers also answer HEAD when the route has no HEAD handler.
 */
export class Route {
  path: unknown
  stack: Layer[]
  /** methods with at least one handler (lower-case; `_all` for `.all()`) */
  methods: Record<string, boolean>

  constructor(path: unknown) {
    debug('new %o', path)
    // assigned in router@2's order: tools that print a route see the same keys
    this.path = path
    this.stack = []
    // no prototype, as router@2's; made as an ordinary object first so that
    // V8 keeps it in fast mode (Object.create(null) starts a dictionary, and
    // every request reads it)
    this.methods = Object.setPrototypeOf({}, null)
  }

  /** Does this route have a handler for `method` (HEAD counts as GET when no HEAD handler)? */
  _handlesMethod(method: string): boolean {
    if (truthy(this.methods._all)) return true
    let name = typeof method === 'string' ? lowerMethod(method) : method
    if (name === 'head' && !truthy(this.methods.head)) name = 'get'
    return truthy(this.methods[name])
  }

  /**
   * The upper-case methods this route answers, in the order they were first
   * registered, HEAD added when GET is there. `.all()` handlers count only
   * with `includeAll`, as `'*'` (router@2.3).
   */
  _methods(includeAll?: boolean): string[] {
    const list: string[] = []
    for (const method of Object.keys(this.methods)) {
      if (method !== '_all') list.push(method.toUpperCase())
      else if (includeAll) list.push('*')
    }
    if (this.methods.get && !this.methods.head) list.push('HEAD')
    return list
  }

  /** Run the handlers for req.method in order; `next('route')` leaves the route. */
  dispatch(req: any, res: any, done: Next): void {
    const stack = this.stack
    if (stack.length === 0) {
      done()
      return
    }
    let method = typeof req.method === 'string' ? lowerMethod(req.method) : req.method
    if (method === 'head' && !this.methods.head) method = 'get'
    req.route = this
    if (routeChannel.hasSubscribers) publishRoute(req, res, this.path)

    // one handler: no pass state, but a `next` of the route's own, as in
    // router@2.3 (a handler can tell it from `req.next`)
    if (stack.length === 1) {
      const layer = stack[0]
      if (layer.method === undefined || layer.method === method) layer.handleRequest(req, res, routeNext(done))
      else done()
      return
    }

    newRouteDispatch(stack, req, res, method, done).next()
  }

  /** Handlers for every method. (One parameter declared, so `length` is 1 as in router@2.3.) */
  all(_handler?: unknown): this {
    return addHandlers(this, undefined, Array.prototype.slice.call(arguments))
  }
}

// (no static block or #private member: esbuild would rename the class in the bundle)
// router@2.3 assigns its Route methods, so they are enumerable, in this order
for (const key of ['_handlesMethod', '_methods', 'dispatch', 'all']) Object.defineProperty(Route.prototype, key, { enumerable: true })
for (const method of methods) {
  ;(Route.prototype as any)[method] = function (this: Route, _handler?: unknown) {
    return addHandlers(this, method, Array.prototype.slice.call(arguments))
  }
}

function addHandlers<R extends Route>(route: R, method: string | undefined, handlers: unknown[]): R {
  const callbacks = flattenHandlers(handlers)
  if (callbacks.length === 0) throw new TypeError('argument handler is required')
  for (const fn of callbacks) {
    // router@2.3's words (router@2.2 named the method and what it got)
    if (typeof fn !== 'function') throw new TypeError('argument handler must be a function')
    // (`.all()` has no line of its own, as in router@2.3)
    if (method !== undefined) debug('%s %s', method, route.path)
    const layer = new Layer('/', {}, fn as Handler)
    layer.method = method
    route.methods[method ?? '_all'] = true
    route.stack.push(layer)
  }
  return route
}

/**
 * Split the arguments of `use([path], ...handlers)`: the first argument is the
 * path unless it is a function or a (nested) array whose first leaf is one;
 * the path defaults to '/'. Handlers are flattened.
 */
function useArguments(args: unknown[]): { path: unknown; handlers: unknown[] } {
  const first = args[0]
  if (typeof first !== 'function') {
    let arg = first
    while (Array.isArray(arg) && arg.length !== 0) arg = arg[0]
    if (typeof arg !== 'function') return { path: first, handlers: flattenHandlers(args.slice(1)) }
  }
  return { path: '/', handlers: flattenHandlers(args) }
}

export { flattenHandlers, useArguments }
