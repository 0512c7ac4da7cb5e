import { EventEmitter } from 'node:events'
import dc from 'node:diagnostics_channel'
import http from 'node:http'
import { resolve } from 'node:path'
import { Router, dispatch, methods, routerHandle } from './router/index'
import { useArguments } from './router/route'
import { finalHandler } from './final-handler'
import { View, type Engine } from './view'
import { compileETag, compileQueryParser, compileTrust } from './utils/compile'
import { setHttp2Prototypes } from './http2'
import { putHeaderWith } from './utils/headers'
import { swapPrototype } from './utils/prototype'
import { methodOf } from './utils/res-type'
import createDebug from 'debug'

/** express@5.3's debug namespace for the app (`DEBUG=express:application`), with its messages. */
const debug = createDebug('express:application')

/** Marks that `trust proxy` still has its default value (then a mounted app inherits its parent's): Express's non-enumerable string key. */
const trustProxyDefault = '@@symbol:trust_proxy_default'

type Next = (err?: any) => void

/**
 * The application prototype, mixed into every function returned by `fw()`.
 * Settings compile when set (`etag fn`, `query parser fn`, `trust proxy fn`);
 * the router is created on first access of `app.router`.
 */
export const application: Record<string, any> = {}

application.init = function init(this: any) {
  this.cache = Object.create(null)
  this.engines = Object.create(null)
  // no prototype, as Express's; made as an ordinary object first so that V8
  // keeps it in fast mode while it holds the usual settings (every request
  // reads a few)
  this.settings = Object.setPrototypeOf({}, null)
  this.defaultConfiguration()
  AppSlot.add(this)
  Object.defineProperty(this, 'router', { configurable: true, enumerable: true, get: getrouter })
}

/** Returns the object it is given, so that a subclass adds its private fields to that object. */
class Carrier {
  constructor(target: object) {
    return target
  }
}

/** What an app keeps in its one private field (see AppSlot). */
interface AppState {
  /** The base router, made on the first read of `app.router` (null until then). */
  router: any
  /** The final handler made for `finalEnv` (see finalFor), or undefined. */
  final: ((req: any, res: any, err: any) => void) | undefined
  finalEnv: unknown
}

/**
 * Each app's base router, made on the first read of `app.router`, and its
 * final handler, kept in one private field of the app itself: no key a tool
 * can list, and a load as cheap as a property's. The field is given to the
 * app when it is made, and holds both: a key added to the app later (as its
 * final handler was, on its first request), or a second field, puts the app
 * function, with its sixty-odd properties, in V8's dictionary mode, and every
 * read of `this.request`, `this.settings`... in app.handle goes through a
 * lookup.
 */
class AppSlot extends Carrier {
  #state: AppState = { router: null, final: undefined, finalEnv: undefined }

  /** Give an app its (empty) slot; `app.init()` called again empties it, as Express then makes a new router. */
  static add(app: object): void {
    if (#state in app) (app as AppSlot).#state.router = null
    else new AppSlot(app)
  }

  /** The router of the app that `self` is or derives from (made on first use). */
  static routerOf(self: any): any {
    let owner = self
    while (isObject(owner) && !(#state in owner)) owner = Object.getPrototypeOf(owner)
    if (!isObject(owner)) return strayRouter(self)
    const state: AppState = owner.#state
    if (state.router === null) state.router = newRouter(self)
    return state.router
  }

  /** The app's final handler for a truthy `env`, kept while the setting stays (made anew for an object without the slot). */
  static finalOf(app: any, env: unknown): (req: any, res: any, err: any) => void {
    if (!isObject(app) || !(#state in app)) return finalForEnv(app, env)
    const state: AppState = app.#state
    if (state.final !== undefined && state.finalEnv === env) return state.final
    state.finalEnv = env
    return (state.final = finalForEnv(app, env))
  }
}

// The two read on every request, held in constants: loading a static method
// from the class is a generic LoadIC call in V8's optimized code (~50
// instructions each)
const routerOf = AppSlot.routerOf
const finalOf = AppSlot.finalOf

/** Can `value` hold a private field (and have a prototype to walk)? */
function isObject(value: unknown): boolean {
  return value !== null && (typeof value === 'object' || typeof value === 'function')
}

/** Routers for a getter called on an object that is no app (`Object.getOwnPropertyDescriptor(app, 'router').get.call(x)`). */
const strays = new WeakMap<object, any>()

function strayRouter(self: any): any {
  let router = strays.get(self)
  if (router === undefined) strays.set(self, (router = newRouter(self)))
  return router
}

function newRouter(app: any): any {
  return new (Router as any)({
    caseSensitive: app.enabled('case sensitive routing'),
    strict: app.enabled('strict routing')
  })
}

/**
 * The getter of `app.router`: one function for every app, so that apps keep
 * sharing V8 maps (a getter of its own per app, as Express defines it, puts
 * every app after the first in slow dictionary mode). The router belongs to the app that has the property, so an
 * object made with `Object.create(app)` reads its app's router, as in Express.
 */
function getrouter(this: any) {
  return routerOf(this)
}

application.defaultConfiguration = function defaultConfiguration(this: any) {
  const env = process.env.NODE_ENV || 'development'
  this.enable('x-powered-by')
  this.set('etag', 'weak')
  this.set('env', env)
  this.set('query parser', 'simple')
  this.set('subdomain offset', 2)
  this.set('trust proxy', false)
  Object.defineProperty(this.settings, trustProxyDefault, { configurable: true, value: true })
  debug('booting in %s mode', env)

  this.on('mount', function onmount(this: any, parent: any) {
    if (this.settings[trustProxyDefault] === true && typeof parent.settings['trust proxy fn'] === 'function') {
      delete this.settings['trust proxy']
      delete this.settings['trust proxy fn']
    }
    Object.setPrototypeOf(this.request, parent.request)
    Object.setPrototypeOf(this.response, parent.response)
    Object.setPrototypeOf(this.engines, parent.engines)
    Object.setPrototypeOf(this.settings, parent.settings)
  })

  this.locals = Object.create(null)
  this.mountpath = '/'
  this.locals.settings = this.settings
  this.set('view', View)
  this.set('views', resolve('views'))
  this.set('jsonp callback name', 'callback')
  if (env === 'production') this.enable('view cache')
}

/** Handle one request: link req/res, give them the app's prototypes, run the router, then the final handler. */
application.handle = function handle(this: any, req: any, res: any, callback?: Next) {
  const request = this.request
  const response = this.response
  // built by an adopted server (adoptServer) with the app's prototypes already
  // (no req at all gets Express's TypeError below, at `req.res = res`), and
  // not yet seen by an app (req.res unset). Each Object.getPrototypeOf here
  // comes right after a read of the same object: V8 then knows the object's
  // map and reads the prototype from it, where the call alone goes into V8's
  // runtime, ~240 instructions a call.
  let built = false
  let fresh = false
  if (req !== null && req !== undefined) {
    fresh = req.res === undefined
    built = Object.getPrototypeOf(req) === request
  }
  // Express reads `env` (for its final handler) and `x-powered-by` through
  // app.get and app.enabled on every request; when a tool wrapped one of
  // those (or app.set, which they call), it sees the same reads. Without a
  // callback the router ends in the app's final handler (made once per app,
  // or with the env read for this request).
  const own = this.get === ownGet && this.enabled === ownEnabled && this.set === ownSet
  // (the env is the one this request started with, as Express reads it: a
  // final handler per app, made again when the setting changed)
  const final = callback ? undefined : own ? finalFor(this, this.settings.env) : finalForEnv(this, this.get('env'))
  // (whether res already has app.response, when the X-Powered-By check below asks)
  let resBuilt = false
  if (own ? this.settings['x-powered-by'] : this.enabled('x-powered-by')) {
    // Express sets it through the setHeader res has before its prototype
    // changes: for a response an adopted server built with app.response
    // beside this request (res.req, which Node sets, read first as above;
    // and not seen by an app yet), that is the one of Node's class, not one
    // patched on app.response
    resBuilt = built && fresh && res.req === req && Object.getPrototypeOf(res) === response
    const set = resBuilt ? serverSetHeader() : res.setHeader
    if (typeof set !== 'function') methodOf(res, 'setHeader', 'res') // Express's TypeError for a res that is not one
    putHeaderWith(res, set, 'X-Powered-By', 'x-powered-by', 'Switchyard')
  }
  req.res = res
  res.req = req
  // Swapping prototypes costs more than the rest of the dispatch together
  // (see docs/design.md): skip it when the objects were built with the right ones.
  if (!built) {
    // HTTP/2 compatibility objects get an HTTP/2 layer in front of the prototypes (src/http2.ts)
    if (req.httpVersionMajor !== 2 || !setHttp2Prototypes(this, req, res)) {
      swapPrototype(req, request)
      if (!callback) adoptServer(this, req)
      swapPrototype(res, response)
    }
  } else if (!resBuilt) {
    // (not asked twice: when the X-Powered-By check above found res with
    // app.response, nothing since then changed it)
    swapPrototype(res, response)
  }
  // (a dictionary, as Express makes it: half the instructions of a fast-mode
  // object given the null prototype, for 160 bytes more)
  if (!res.locals) res.locals = Object.create(null)
  const router = this.router
  // (compared with the handle this module defined, not with Router.prototype's:
  // a tool may wrap either, and Express calls whatever router.handle is)
  if (router.handle === routerHandle) dispatch(router, req, res, callback, final)
  else handleWrapped(router, req, res, callback, final!) // wrapped by a tool: go through it
}

/**
 * Call a router.handle a tool wrapped, with the final handler as its callback
 * when there is none. (Apart from app.handle: a closure over req and res
 * there puts them in a context, read through it, and V8 can no longer tell
 * that two reads of req are the same object; see above.)
 */
function handleWrapped(router: any, req: any, res: any, callback: Next | undefined, final: (req: any, res: any, err: any) => void): void {
  router.handle(req, res, callback ?? ((err?: any) => final(req, res, err)))
}

/** The setHeader of Node's ServerResponse (read each time: a tool may patch it). */
function serverSetHeader(): (name: string, value: any) => unknown {
  return http.ServerResponse.prototype.setHeader
}

/** The app's final handler for `env` (the `env` setting as a request found it), kept while the setting stays. */
function finalFor(app: any, env: unknown): (req: any, res: any, err: any) => void {
  return env ? finalOf(app, env) : finalForEnv(app, env)
}

/**
 * The final handler of one request, with the `env` read for it. As
 * finalhandler takes it, when the request starts: a falsy env falls back to
 * NODE_ENV, then 'development'.
 */
function finalForEnv(app: any, setting: any): (req: any, res: any, err: any) => void {
  const env = setting || process.env.NODE_ENV || 'development'
  return (req, res, err) => finalHandler(req, res, err, { env, onerror: logError.bind(app) })
}

/** Never passed to a constructor by Node: guards the sizing blocks of adoptServer's constructors. */
const NEVER = Object.freeze({})

/** The http.Servers adoptServer has already looked at (not a key on the server: nothing shows). */
const adopted = new WeakSet<object>()

/**
 * When `app` is the only 'request' listener of the server that received
 * `req`, and the server builds its requests and responses with Node's own
 * classes, make it build them with constructors whose prototypes are
 * `app.request` and `app.response`: later requests then arrive with the right
 * prototypes and app.handle need not swap them. The result is the same
 * objects with the same prototype chain (req.constructor is still
 * IncomingMessage); a server shared with other handlers is left alone.
 */
function adoptServer(app: any, req: any): void {
  const server = req.socket?.server
  if (!server || typeof server !== 'object' || adopted.has(server)) return
  adopted.add(server)
  if (!takesRequests(server, app)) return
  let kRequest: symbol | undefined
  let kResponse: symbol | undefined
  for (const sym of Object.getOwnPropertySymbols(server)) {
    if (sym.description === 'IncomingMessage' && server[sym] === http.IncomingMessage) kRequest = sym
    if (sym.description === 'ServerResponse' && server[sym] === http.ServerResponse) kResponse = sym
  }
  if (kRequest === undefined || kResponse === undefined) return
  const request = app.request
  const response = app.response
  // the last request built with the app's prototype, until its response is
  // built (the next thing Node builds, with no code run in between): then
  // `req === built` tells what `Object.getPrototypeOf(req) === request`
  // told, without a call of V8's runtime (~120 instructions a request)
  let built: object | undefined
  // The `if` blocks below never run (Node never passes NEVER). V8 decides how
  // many fields to reserve inside each new object from the `this.x = ...`
  // assignments written in its constructor; without them every request and
  // response would keep its ~26/40 fields in a separately grown store, which
  // cost 15-20% of a hello-world request.
  // (named as Node's classes: a stack trace through a request or response
  // method names its receiver by the constructor that built it, as in Express)
  function IncomingMessage(this: any, socket: any): any {
    // a listener other than the app may get this request (see takesRequests):
    // Node's own object, as Express leaves it until the app sees it
    if (!takesRequests(server, app)) return new http.IncomingMessage(socket)
    ;(http.IncomingMessage as any).call(this, socket)
    built = this
    if (socket === NEVER) {
      this.f0 = 0; this.f1 = 0; this.f2 = 0; this.f3 = 0; this.f4 = 0; this.f5 = 0; this.f6 = 0; this.f7 = 0
      this.f8 = 0; this.f9 = 0; this.f10 = 0; this.f11 = 0; this.f12 = 0; this.f13 = 0; this.f14 = 0; this.f15 = 0
      this.f16 = 0; this.f17 = 0; this.f18 = 0; this.f19 = 0; this.f20 = 0; this.f21 = 0; this.f22 = 0; this.f23 = 0
      this.f24 = 0; this.f25 = 0; this.f26 = 0; this.f27 = 0; this.f28 = 0; this.f29 = 0; this.f30 = 0; this.f31 = 0
    }
  }
  IncomingMessage.prototype = request
  function ServerResponse(this: any, req: any, options: any): any {
    // built in the same tick as its request, with no code run in between:
    // it goes where the request goes
    const ours = req === built
    built = undefined
    if (!ours) return new (http.ServerResponse as any)(req, options)
    if (!answersAlone(server, req)) {
      // a 'checkContinue', 'checkExpectation' or 'dropRequest' listener gets
      // them first: Node's own objects, as in Express (rare: no fast path)
      swapPrototype(req, http.IncomingMessage.prototype)
      return new (http.ServerResponse as any)(req, options)
    }
    ;(http.ServerResponse as any).call(this, req, options)
    if (options === NEVER) {
      this.f0 = 0; this.f1 = 0; this.f2 = 0; this.f3 = 0; this.f4 = 0; this.f5 = 0; this.f6 = 0; this.f7 = 0
      this.f8 = 0; this.f9 = 0; this.f10 = 0; this.f11 = 0; this.f12 = 0; this.f13 = 0; this.f14 = 0; this.f15 = 0
      this.f16 = 0; this.f17 = 0; this.f18 = 0; this.f19 = 0; this.f20 = 0; this.f21 = 0; this.f22 = 0; this.f23 = 0
      this.f24 = 0; this.f25 = 0; this.f26 = 0; this.f27 = 0; this.f28 = 0; this.f29 = 0; this.f30 = 0; this.f31 = 0
      this.f32 = 0; this.f33 = 0; this.f34 = 0; this.f35 = 0; this.f36 = 0; this.f37 = 0; this.f38 = 0; this.f39 = 0
      this.f40 = 0; this.f41 = 0; this.f42 = 0; this.f43 = 0; this.f44 = 0; this.f45 = 0; this.f46 = 0; this.f47 = 0
    }
  }
  ServerResponse.prototype = response
  server[kRequest] = IncomingMessage
  server[kResponse] = ServerResponse
}

/**
 * Does `server` hand the request it is building now to `app`, with no code
 * seeing it before the app or instead of it? Only then may the request be
 * built with the app's prototypes: code that sees it first has Node's own
 * objects there in Express. That code is:
 * - a wrapper of the server's `emit` (APM agents patch
 *   `http.Server.prototype.emit`) and subscribers to Node's
 *   'http.server.request.start' channel;
 * - another 'request' listener, prepended or instead of the app;
 * - an 'upgrade' or 'connect' listener (a WebSocket server on the same
 *   port), for a request that turns out to be an upgrade.
 * Asked for every request an adopted server builds, since all of these come
 * and go: the listeners with three loads from the emitter's `_events`
 * store, or, for an emitter without one, through its public methods. What
 * only the request's headers tell is asked when its response is built
 * (answersAlone).
 */
export function takesRequests(server: any, app: unknown): boolean {
  if (server.emit !== emit || requestStart.hasSubscribers) return false
  const events = server._events
  if (events !== null && typeof events === 'object') {
    return events.request === app && events.upgrade === undefined && events.connect === undefined
  }
  if (typeof server.listenerCount !== 'function' || typeof server.listeners !== 'function') return false
  return server.listenerCount('request') === 1 && server.listeners('request')[0] === app &&
    server.listenerCount('upgrade') === 0 && server.listenerCount('connect') === 0
}

/** EventEmitter's own emit, which Node's servers use unless a tool wrapped it. */
const emit = EventEmitter.prototype.emit

/** Node publishes each request here before it emits 'request' (the same object for every caller). */
const requestStart = dc.channel('http.server.request.start')

/**
 * Does Node emit 'request' for `req`, whose response it is building now? It
 * emits 'checkContinue' or 'checkExpectation' instead for a request with an
 * Expect header when those have listeners, and 'dropRequest' for a request
 * over the server's per-socket limit (which this cannot see, so any
 * listener counts once a limit is set).
 */
export function answersAlone(server: any, req: any): boolean {
  const limited = server.maxRequestsPerSocket > 0
  const expects = req.headers.expect !== undefined
  if (!limited && !expects) return true
  if (typeof server.listenerCount !== 'function') return false
  if (limited && server.listenerCount('dropRequest') !== 0) return false
  return !expects || (server.listenerCount('checkContinue') === 0 && server.listenerCount('checkExpectation') === 0)
}

function logError(this: any, err: any) {
  if (this.get('env') !== 'test') console.error(err)
}

/** Mount middleware, routers or sub-apps on an optional path (default '/'). */
application.use = function use(this: any, handler?: unknown) {
  // (one declared parameter, `use.length` 1 as in Express; all are read from
  // arguments. Not named `fn`: the bundle would rename the loop's `fn` below,
  // and V8 words `fn.emit is not a function` from that name.)
  const { path, handlers: fns } = useArguments(Array.prototype.slice.call(arguments))
  if (fns.length === 0) throw new TypeError('app.use() requires a middleware function')
  const router = this.router
  for (const fn of fns as any[]) {
    if (!fn || !fn.handle || !fn.set) {
      router.use(path, fn)
      continue
    }
    debug('.use app under %s', path)
    fn.mountpath = path
    fn.parent = this
    router.use(path, function mounted_app(req: any, res: any, next: Next) {
      const orig = req.app
      fn.handle(req, res, (err?: any) => {
        if (req.httpVersionMajor !== 2 || !setHttp2Prototypes(orig, req, res)) {
          swapPrototype(req, orig.request)
          swapPrototype(res, orig.response)
        }
        next(err)
      })
    })
    fn.emit('mount', this)
  }
  return this
}

/** A new route on `path`, to chain method handlers on. */
application.route = function route(this: any, path: unknown) {
  return this.router.route(path)
}

/** Register a template engine for an extension. */
application.engine = function engine(this: any, ext: string, fn: Engine) {
  if (typeof fn !== 'function') throw new Error('callback function required')
  const extension = ext[0] !== '.' ? '.' + ext : ext
  this.engines[extension] = fn
  return this
}

/** Register a parameter trigger for one name or an array of names. */
application.param = function param(this: any, name: string | string[], fn: any) {
  if (Array.isArray(name)) {
    for (const n of name) this.param(n, fn)
    return this
  }
  this.router.param(name, fn)
  return this
}

/** Set a setting (compiling etag, query parser and trust proxy), or read it with one argument. */
application.set = function set(this: any, setting: string, val?: unknown) {
  if (arguments.length === 1) return this.settings[setting]
  debug('set "%s" to %o', setting, val)
  this.settings[setting] = val
  switch (setting) {
    case 'etag':
      this.set('etag fn', compileETag(val))
      break
    case 'query parser':
      this.set('query parser fn', compileQueryParser(val))
      break
    case 'trust proxy':
      this.set('trust proxy fn', compileTrust(val))
      Object.defineProperty(this.settings, trustProxyDefault, { configurable: true, value: false })
      break
  }
  return this
}

/** The app's canonical path: its parents' mount paths joined ('' for the root app). */
application.path = function path(this: any): string {
  return this.parent ? this.parent.path() + this.mountpath : ''
}

application.enabled = function enabled(this: any, setting: string) {
  return Boolean(this.set(setting))
}

application.disabled = function disabled(this: any, setting: string) {
  return !this.set(setting)
}

application.enable = function enable(this: any, setting: string) {
  return this.set(setting, true)
}

application.disable = function disable(this: any, setting: string) {
  return this.set(setting, false)
}

for (const method of methods) {
  application[method] = function (this: any, path: unknown) {
    // app.get(name) reads a setting: keep that path free of allocations (and
    // read it through app.set, as Express does, when a middleware wrapped that)
    if (method === 'get' && arguments.length === 1) return this.set === ownSet ? readSetting(this.settings, path as string) : this.set(path)
    const route = this.route(path)
    route[method](...Array.prototype.slice.call(arguments, 1))
    return this
  }
}

/**
 * `settings[name]`, with a load of its own for each setting requests read.
 * One keyed load over every setting's name turns megamorphic (V8's generic
 * stub, a stub-cache probe per read); a load with a literal name is inline
 * while an app's settings share a shape.
 */
function readSetting(settings: any, name: string): unknown {
  switch (name) {
    case 'etag fn': return settings['etag fn']
    case 'json escape': return settings['json escape']
    case 'json replacer': return settings['json replacer']
    case 'json spaces': return settings['json spaces']
    case 'query parser fn': return settings['query parser fn']
    case 'trust proxy fn': return settings['trust proxy fn']
    case 'subdomain offset': return settings['subdomain offset']
    case 'jsonp callback name': return settings['jsonp callback name']
    default: return settings[name]
  }
}

// Switchyard's own settings methods: while an app's are these, reading its
// settings directly is the same as calling them
const ownGet = application.get
const ownSet = application.set
const ownEnabled = application.enabled

/** Route every HTTP method of `path` to the handlers. */
application.all = function all(this: any, path: unknown, ...handlers: unknown[]) {
  const route = this.route(path)
  for (const method of methods) route[method](...handlers)
  return this
}

/** Can `fn` be called with `new`? (Asked without calling it.) */
function isConstructor(fn: unknown): boolean {
  if (typeof fn !== 'function') return false
  try {
    Reflect.construct(Object, [], fn)
    return true
  } catch {
    return false
  }
}

/** Render a view to a string: `app.render(name, [locals], callback(err, html))`. */
application.render = function render(this: any, name: string, options?: any, callback?: any) {
  let done = callback
  let opts = options
  if (typeof options === 'function') {
    done = options
    opts = {}
  }
  opts = opts || {}
  const renderOptions = { ...this.locals, ...opts._locals, ...opts }
  if (renderOptions.cache == null) renderOptions.cache = this.enabled('view cache')
  let view = renderOptions.cache ? this.cache[name] : undefined
  if (!view) {
    const ViewClass = this.get('view')
    try {
      view = new ViewClass(name, { defaultEngine: this.get('view engine'), root: this.get('views'), engines: this.engines })
    } catch (err) {
      // V8 names the variable: Express's is `View`
      if (!isConstructor(ViewClass)) throw new TypeError('View is not a constructor')
      throw err
    }
    if (!view.path) {
      const root = view.root
      const dirs = Array.isArray(root) && root.length > 1
        ? 'directories "' + root.slice(0, -1).join('", "') + '" or "' + root[root.length - 1] + '"'
        : 'directory "' + root + '"'
      const err: any = new Error('Failed to lookup view "' + name + '" in views ' + dirs)
      err.view = view
      return done(err)
    }
    if (renderOptions.cache) this.cache[name] = view
  }
  try {
    view.render(renderOptions, done)
  } catch (err) {
    done(err)
  }
}

/** Create an http.Server for the app and listen: same arguments as server.listen. */
application.listen = function listen(this: any, ...args: any[]) {
  const server = http.createServer(this)
  const last = args.length - 1
  if (typeof args[last] === 'function') {
    // called once, for 'listening' or 'error', whichever comes first; shaped
    // as Express's wrapper (the `once` package): named f, with `called` and,
    // once called, `value` (what the callback returned, given back to any
    // later call)
    const cb = args[last]
    const f: { (this: unknown, ...a: unknown[]): unknown; called: boolean; value?: unknown } = function (this: unknown, ...a: unknown[]) {
      if (f.called) return f.value
      f.called = true
      return (f.value = cb.apply(this, a))
    }
    f.called = false
    args[last] = f
    server.once('error', f)
  }
  return server.listen(...args)
}
