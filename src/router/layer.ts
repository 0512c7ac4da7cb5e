import { parse as parsePattern, pathToRegexp } from 'path-to-regexp'
import type { Route } from './route'
import { handlerTraced, traceHandler } from './tracing'
import depd from 'depd'
import { EmptyObject, emptyNullObject, orderKeys } from '../utils/prototype'
import createDebug from 'debug'
import { fillable, fillLines, generate, keysAfter, NO_KEYS, stringify } from './params'

/** router@2.3's debug namespace for layers (`DEBUG=router:layer`), with its message. */
const debug = createDebug('router:layer')

/** Any request handler or error handler the router accepts. */
export type Handler = (...args: any[]) => any

/** What a matcher returns for a matching path. */
export interface MatchResult {
  /** the part of the path that matched (the text, not the pattern) */
  path: string
  /** the captured parameters, URI-decoded (with the `base` params first when `merged`) */
  params: Record<string, any>
  /** true when the matcher copied the `base` params in (see Matcher) */
  merged: boolean
  /**
   * The own keys of `params`, in their order, when the router's own matcher
   * made them by a known key list (a compiled matcher, or a literal's
   * params without a parent: src/router/params.ts, keysAfter), undefined
   * otherwise: what a router mounted below may take as its parent's keys
   * (`baseKeys`).
   */
  keys: readonly string[] | undefined
}

/** What `layer.match(path)` returns for a matching path (router@2.3's shape). */
export interface LayerMatch {
  params: Record<string, any>
  path: string
  keys: string[]
  /** the registered path that matched (one of them, for an array of paths) */
  pattern: unknown
}

/** Options a Layer compiles its matcher with. */
export interface LayerOptions {
  sensitive?: boolean
  strict?: boolean
  end?: boolean
}

/**
 * A compiled path matcher. `plain` (the router's own calls only): `true`
 * when the params may be an ordinary object, because the caller copies them
 * into a new object at once (mergeParams) and nothing else ever sees them;
 * `false` when they need the null prototype and a `mergeParams` router below
 * will copy them (a mount's: kept in fast mode, which copies quickly);
 * `undefined` when they need the null prototype and nothing is known to copy
 * them, or a router below copies them by their keys (a dictionary then:
 * `Object.create(null)` costs less than giving a fast object the null
 * prototype, and no one can tell the two apart). `base` (the
 * router's own calls only, under mergeParams): the parent's params; a
 * matcher that can, returns them merged with the captured ones, as
 * `mergeParams` in src/router/index.ts would (`merged: true`), in one new
 * object instead of two.
 */
type Matcher = (path: string, plain?: boolean, base?: Record<string, any>, baseKeys?: readonly string[]) => MatchResult | false

const TRAILING_SLASHES = /\/+$/

/** What the router knows of a layer beyond router@2's fields: the index's keys (src/router/stack.ts) and the handler's arity. */
export interface LayerInternals {
  /**
   * When every path of this layer is a plain string without parameters: the
   * literal paths (lower-cased unless case-sensitive, trailing slashes loosened
   * unless strict), so the router can compare strings instead of running a regexp.
   */
  literals: string[] | undefined
  /**
   * For layers that are not plain literals: the first path segment ('/users')
   * every path they can match starts with, one per registered path (same
   * case rule), or undefined when some path has no such segment (a
   * parameter, wildcard or optional part within the first segment, a regexp).
   */
  segments: string[] | undefined
  sensitive: boolean
  strict: boolean
  end: boolean
  /**
   * The handler whose `length` was read last, and that length. Reading a
   * function's `length` is an accessor call (~15 ns, more than the rest of a
   * pass-through step); the layer reads it again only when `handle` is
   * replaced (as tracing tools do).
   */
  fn: Handler | undefined
  arity: number
  /**
   * `fn` when it is a router made by this module's `Router()` (whose call
   * does nothing but `router.handle(req, res, next)`), undefined otherwise:
   * worked out with `arity`, once per handler. The router's pass may then
   * enter it directly (src/router/index.ts, enterRouter).
   */
  router: Handler | undefined
  /**
   * The layer's matcher when it has one path, a string: the path it matches
   * is then the start of the path it is given, followed by '/' or the end
   * (path-to-regexp's patterns are anchored and end with that lookahead;
   * the literal and segment matchers cut there). Not so for a regular
   * expression, which may match anywhere. The router checks both only
   * while `layer.matchers` still holds this one (see `prefixMatched`).
   */
  anchored: Matcher | undefined
  /**
   * The `plain` this layer's matchers get when it is a mount whose router
   * does not copy the params at once (see Matcher): `false` (fast mode, then
   * the null prototype) when the handler it was made with is a `mergeParams`
   * router, which copies them for each of its layers; `undefined` (a
   * dictionary) otherwise, since nothing copies them. Both have no
   * prototype; only the cost differs. Worked
   * out once: should the handler be replaced, or a router be given
   * `mergeParams` after it was mounted, it only copies more slowly. (Asked
   * only when the router cannot hand the keys down: a param trigger, debug
   * output, or no fills; otherwise the router below copies by the keys, and
   * the params are a dictionary.)
   */
  mountPlain: false | undefined
}

/**
 * The routers `Router()` made (src/router/index.ts adds each): a function is
 * one of them or not for good, whatever properties are copied onto it.
 */
export const ownRouters = new WeakSet<Function>()

/** The hidden key of a layer's LayerInternals: a layer's own keys stay router@2's, for tools that print or copy it. */
export const kInternals = Symbol('switchyard.layer.internals')

/**
 * A layer: one compiled path matcher and one handler. Compiled once, in the
 * constructor; `match` returns its result and never stores per-request state.
 *
 * Its own enumerable fields are router@2's, in the same order: `handle`,
 * `name`, `rawPath`, `slash`, `matchers`, then `route` (for a router's layers)
 * or `method` (for a route's layers), set by the code that creates it.
 * Everything else is symbol-keyed.
 */
export class Layer {
  handle: Handler
  name: string
  /** the path given at registration */
  rawPath: unknown
  /** true for a non-ending layer on '/': matches every path without a regexp */
  slash: boolean
  matchers: Matcher[]
  /** the route, for a router's layers created by `router.route()` */
  declare route: Route | undefined
  /** the method, for layers inside a Route's stack (undefined = all) */
  declare method: string | undefined
  /** what the router knows of the layer beyond router@2's fields (hidden: tools see router@2's keys) */
  declare [kInternals]: LayerInternals

  constructor(path: unknown, options: LayerOptions, fn: Handler) {
    debug('new %o', path)
    const sensitive = Boolean(options.sensitive)
    const strict = Boolean(options.strict)
    const end = Boolean(options.end)
    this.handle = fn
    this.name = fn.name || '<anonymous>'
    // nested arrays flattened, and a copy of the caller's array (router@2.3)
    const raw = Array.isArray(path) ? path.flat(Infinity) : path
    this.rawPath = raw
    // only an explicit end: false (router.use) gets the fast path; a route's own layers do not
    this.slash = path === '/' && options.end === false
    // without strict routing each string loses its trailing slashes before
    // path-to-regexp sees it, as in router@2.3 (so its errors quote that)
    const paths = (Array.isArray(raw) ? raw : [path]).map((p) => {
      const pattern = patternOf(p, strict)
      return strict || typeof pattern !== 'string' ? pattern : loosen(pattern)
    })
    // each string pattern is parsed once: its literal (if static) serves both
    // the string matcher and the router's static-route index
    const parsed = paths.map((p) => (typeof p === 'string' ? staticText(p) : undefined))
    const literals = parsed.map((t) => (t !== undefined && t.literal ? (strict ? t.text : loosen(t.text)) : undefined))
    this.matchers = paths.map((p, i) => compile(p, literals[i], sensitive, strict, end))
    const internals: LayerInternals = {
      literals: this.slash ? undefined : indexKeys(literals, sensitive),
      segments: this.slash ? undefined : segmentKeys(parsed, sensitive),
      sensitive,
      strict,
      end,
      fn,
      arity: fn.length,
      router: ownRouters.has(fn) ? fn : undefined,
      anchored: paths.length === 1 && typeof paths[0] === 'string' ? this.matchers[0] : undefined,
      mountPlain: (fn as any).mergeParams ? false : undefined
    }
    Object.defineProperty(this, kInternals, { value: internals, writable: true, enumerable: false, configurable: true })
  }

  /**
   * Match `path` against this layer, as router@2.3's `layer.match` does:
   * `{ params, path, keys, pattern }` (the captured parameters, the matched
   * part of the path, the parameter names, and the registered path that
   * matched), or false. Throws (with `status` 400) when a captured parameter
   * is not valid percent-encoding. Nothing is stored on the layer.
   */
  match(path: string): LayerMatch | false {
    if (path == null) return false
    const m = ownMatch(this, path)
    return m === null ? false : { params: m.params, path: m.path, keys: Object.keys(m.params), pattern: matchedPattern }
  }

  /**
   * Call the handler as a request handler: one of arity > 3 is skipped; a
   * throw or a rejected promise (a falsy reason becomes an Error) goes to next.
   */
  handleRequest(req: any, res: any, next: (err?: any) => void): void {
    const fn = this.handle
    if (arityOf(this, fn) > 3) {
      next()
      return
    }
    // traced only when someone listens; a route's dispatcher is not a handler of its own
    if (this.route === undefined && handlerTraced()) {
      traceHandler(this, 'method' in this ? 'request handler' : 'middleware', req, res, undefined, next)
      return
    }
    try {
      forwardRejection(fn(req, res, next), next, ThenableSite.Middleware, this)
    } catch (err) {
      next(err)
    }
  }

  /** Call the handler as an error handler (arity 4 only; others pass the error on). */
  handleError(err: any, req: any, res: any, next: (err?: any) => void): void {
    const fn = this.handle
    if (arityOf(this, fn) !== 4) {
      next(err)
      return
    }
    if (handlerTraced()) {
      traceHandler(this, 'error handler', req, res, err, next)
      return
    }
    try {
      forwardRejection(fn(err, req, res, next), next, ThenableSite.ErrorMiddleware, this)
    } catch (e) {
      next(e)
    }
  }
}

// router@2.3's Layer is a constructor function whose prototype methods are
// enumerable, in this order: `for...in` over a layer (tools that copy or
// print one) lists them
orderKeys(Layer.prototype, ['handleError', 'handleRequest', 'match'], true)

/**
 * Set when a layer was asked through its own `match` (code of anyone's,
 * which may add param triggers or change the parent's params): the router
 * clears it before its search and reads it after (src/router/index.ts, step).
 */
export let foreignMatched = false

/** Clear `foreignMatched` (a module's variable is read-only to its importers). */
export function clearForeign(): void {
  foreignMatched = false
}

/**
 * The router's own match of a candidate layer (see Matcher for `plain` and
 * `base`): the match, or null. A layer whose `match` was replaced (a tool
 * tracing matches) and anything else put into a stack are asked through
 * their own `match(path)`, as router@2.3 asks every layer: router@2.3's
 * answer (an object with `params` and `path`, or false) or router@2.2's
 * (true, with `params` and `path` left on the layer).
 */
export function matchLayer(layer: Layer, path: string, plain?: boolean, base?: Record<string, any>, baseKeys?: readonly string[]): MatchResult | null {
  if (layer[kInternals] === undefined || layer.match !== layerMatch) {
    foreignMatched = true
    const m: any = (layer as any).match(path)
    if (!m) return null
    const found = m === true ? layer as any : m
    matchedPattern = m.pattern
    return { path: found.path, params: found.params, merged: false, keys: undefined }
  }
  return ownMatch(layer, path, plain, base, baseKeys)
}

/**
 * Run a layer's own matchers (see Matcher for `plain` and `base`): the
 * match, with `matchedPattern` set to the registered path it matched with,
 * or null. Both `layer.match` and the router's `matchLayer` match through it.
 */
function ownMatch(layer: Layer, path: string, plain?: boolean, base?: Record<string, any>, baseKeys?: readonly string[]): MatchResult | null {
  const raw = layer.rawPath
  if (layer.slash) {
    matchedPattern = raw
    return { path: '', params: {}, merged: false, keys: undefined }
  }
  const matchers = layer.matchers
  // (a mount's params: a dictionary unless a mergeParams router copies them)
  if (plain === false && layer.route === undefined) plain = layer[kInternals].mountPlain
  for (let i = 0; i < matchers.length; i++) {
    const m = matchers[i](path, plain, base, baseKeys)
    if (m) {
      matchedPattern = Array.isArray(raw) ? raw[i] : raw
      return m
    }
  }
  return null
}

/**
 * The registered path the last successful `matchLayer` matched with
 * (router@2.3's `match.pattern`: one of an array's paths), read by the
 * router right after the match. A variable, not a field of the result, so
 * that the matchers' results keep their shape.
 */
export let matchedPattern: unknown

const layerMatch = Layer.prototype.match

/** Is `layer.match` the one this module defined (so that matching without asking it is the same)? */
export function ownMatcher(layer: Layer): boolean {
  return layer.match === layerMatch
}

/**
 * Did the layer's own matcher give the match the router just took (its
 * `match` and its one matcher still this module's, for a string path)? Then
 * the matched path is the start of the path, followed by '/' or the end,
 * and router@2.3's two tests of it before a middleware is entered can only
 * pass (see LayerInternals.anchored).
 */
export function prefixMatched(layer: Layer, internals: LayerInternals): boolean {
  const anchored = internals.anchored
  if (anchored === undefined || !ownMatcher(layer)) return false
  const matchers = layer.matchers
  return matchers.length === 1 && matchers[0] === anchored
}

/** `Layer.prototype.handleRequest` as this module defines it (see directHandler). */
const layerHandleRequest = Layer.prototype.handleRequest

/**
 * The handler of a layer whose internals are `internals`, when a request may
 * call it directly, with no tracing and no arity check on the way: when the
 * layer's `handleRequest` is still this module's (a tool that patches
 * `Layer.prototype.handleRequest`, or one layer's, sees every call, as it
 * does in router@2.3), the handler takes at most three arguments and no one
 * traces calls; otherwise undefined (then go through `layer.handleRequest`).
 */
export function directHandler(layer: Layer, internals: LayerInternals): Handler | undefined {
  const fn = layer.handle
  return layer.handleRequest !== layerHandleRequest || handlerTraced() || arity(internals, fn) > 3 ? undefined : fn
}

/** `fn.length` for the layer's handler `fn`, read once per handler (see LayerInternals.arity). */
function arityOf(layer: Layer, fn: Handler): number {
  return arity(layer[kInternals], fn)
}

/** The same, from the layer's internals (the pass-through step has them in hand). */
function arity(internals: LayerInternals, fn: Handler): number {
  // (the rare case apart: this is compiled into the pass-through step, where
  // each byte counts against V8's inlining budget)
  return internals.fn === fn ? internals.arity : newHandler(internals, fn)
}

/** A layer's handler was replaced: what is known of it, worked out again (see LayerInternals.arity and router). */
function newHandler(internals: LayerInternals, fn: Handler): number {
  internals.fn = fn
  internals.router = ownRouters.has(fn) ? fn : undefined
  return (internals.arity = fn.length)
}

/** What a handler's promise resolves to is not used. */
function ignore(): void {}

/** Is `value` a promise? Any thenable counts, as in router@2. */
export function isThenable(value: any): value is PromiseLike<unknown> {
  return value !== undefined && value !== null && typeof value.then === 'function'
}

/** What a rejection passes on: its reason, or an Error when the reason is falsy (router@2). */
export function rejectionError(reason: unknown): unknown {
  return reason || new Error('Rejected promise')
}

/**
 * Where a thenable that is not a native promise came from, as router@2.3's
 * deprecation warnings tell them apart. depd warns once per call site, and
 * router@2.3's sites are: a middleware, an error middleware, a route's
 * handler, a route's error handler (four lines of its router and route
 * that call the layer), any handler while its request channel is traced (one
 * line inside its tracing), and a param callback, untraced and traced.
 * Switchyard is one file, and depd keys a warning by the frames of its
 * caller's stack, which within one file depend on how deep the call is; so
 * the site is named by the caller, and each site warns once, from a line of
 * its own (`warnThenable`).
 */
export const enum ThenableSite {
  Middleware = 0,
  ErrorMiddleware = 1,
  RouteHandler = 2,
  RouteErrorHandler = 3,
  Traced = 4,
  Param = 5,
  ParamTraced = 6
}

/**
 * When a handler (or a param callback) returned a promise, send its
 * rejection to `next`; `site` says where the call was made (see
 * ThenableSite), and `layer`, when given, turns a middleware site into a
 * route's when the layer is one of a route's handlers.
 */
export function forwardRejection(ret: unknown, next: (err?: any) => void, site: ThenableSite, layer?: Layer): void {
  // a function, not null, for the fulfilment: some thenables call it without
  // checking (router@2.3); a `then` that throws is caught by the caller and
  // goes to next, as a rejection would
  if (isThenable(ret)) {
    warnThenable(ret, site, layer)
    ret.then(ignore, (reason: unknown) => next(rejectionError(reason)))
  }
}

/** router@2.3's deprecation warnings, under its namespace (as `deprecateExpress` in src/response.ts). */
const deprecateRouter = depd('router')

/** The sites that have warned already (see ThenableSite). */
const warnedSites = [false, false, false, false, false, false, false]

/**
 * router@2.3's deprecation warning for a thenable that is not a native
 * promise, once per site (each from its own line: see ThenableSite); a
 * middleware site is a route's when `layer` is one of a route's handlers.
 * (Out of forwardRejection, which the pass-through step inlines: its size
 * counts against V8's inlining budget there.)
 */
export function warnThenable(ret: PromiseLike<unknown>, site: ThenableSite, layer?: Layer): void {
  if (ret instanceof Promise) return
  // (a route's handlers are the layers with a `method`)
  if (layer !== undefined && 'method' in layer) site = site === ThenableSite.ErrorMiddleware ? ThenableSite.RouteErrorHandler : ThenableSite.RouteHandler
  if (warnedSites[site]) return
  warnedSites[site] = true
  const handlers = 'handlers that are Promise-like are deprecated, use a native Promise instead'
  const params = 'parameters that are Promise-like are deprecated, use a native Promise instead'
  // (the same call on a line of its own for each site: depd keys a warning by
  // the line that calls it, so two sites never share a key)
  switch (site) {
    case ThenableSite.Middleware:
      deprecateRouter(handlers)
      break
    case ThenableSite.ErrorMiddleware:
      deprecateRouter(handlers)
      break
    case ThenableSite.RouteHandler:
      deprecateRouter(handlers)
      break
    case ThenableSite.RouteErrorHandler:
      deprecateRouter(handlers)
      break
    case ThenableSite.Traced:
      deprecateRouter(handlers)
      break
    case ThenableSite.Param:
      deprecateRouter(params)
      break
    default:
      deprecateRouter(params)
  }
}

function compile(path: unknown, literal: string | undefined, sensitive: boolean, strict: boolean, end: boolean): Matcher {
  if (path instanceof RegExp) return regexpMatcher(path)
  if (typeof path !== 'string') throw new TypeError('argument path must be a string, a regular expression, or an array of these')
  if (literal !== undefined) {
    return end ? exactMatcher(literal, sensitive, strict) : prefixMatcher(literal, sensitive)
  }
  return patternMatcher(strict ? path : loosen(path), sensitive, end, !strict)
}

/**
 * path-to-regexp's `match` for a pattern, with the same result: the matched
 * text and a null-prototype params object, each defined capture under its
 * key's name in capture order, URI-decoded (a wildcard's segments one by
 * one). A route's params (`end`) start as `Object.create(null)`, a
 * dictionary, as Express's do: `Object.setPrototypeOf` is a call into V8's
 * runtime that costs more than filling a dictionary and reading it back. A
 * mount's that a `mergeParams` router below copies (`plain` false) are
 * filled as an ordinary object and then given the null prototype, which
 * keeps them in fast mode: that router copies them for every layer, and
 * copying from a dictionary costs more.
 */
function patternMatcher(path: string, sensitive: boolean, end: boolean, trailing: boolean): Matcher {
  const { regexp, keys } = pathToRegexp(path, { sensitive, end, trailing })
  const names = keys.map((k) => k.name)
  const wildcard = keys.map((k) => k.type !== 'param')
  // '__proto__' assigned on an ordinary object would not make an own property
  const dictionary = names.includes('__proto__')
  // merging into a copy of the parent's params is mergeParams' plain case,
  // which holds unless the child captures an index key ('0' shifts after the
  // parent's indexes); when it does, the router merges
  const mergeable = !dictionary && !names.includes('0')
  const parts = wildcard.includes(true) ? undefined : segmentParts(regexp, names.length)
  if (parts !== undefined) return segmentMatcher(parts, names, dictionary, mergeable, end)
  return (input, plain, base) => {
    const m = regexp.exec(input)
    if (!m) return false
    const merged = base !== undefined && mergeable
    const params: Record<string, any> = merged ? Object.assign({}, base) : dictionary || (plain !== true && (end || plain === undefined)) ? Object.create(null) : {}
    for (let i = 1; i < m.length; i++) {
      const value = m[i]
      if (value === undefined) continue
      params[names[i - 1]] = wildcard[i - 1] ? value.split('/').map(decodeParam) : decodeParam(value)
    }
    // (setPrototypeOf is the costliest line here: only for the params of a mount a mergeParams router copies)
    if (!dictionary && !end && !merged && plain === false) Object.setPrototypeOf(params, null)
    return { path: m[0], params, merged, keys: undefined }
  }
}

/** A pattern whose parameters each fill a segment, read off the regexp path-to-regexp built for it (see segmentParts). */
interface SegmentParts {
  /** the literal text between parameters (lower case unless sensitive), `null` where a parameter stands */
  parts: Array<string | null>
  sensitive: boolean
  /** `$` at the end: the whole path must match (else a '/' or the end must follow) */
  end: boolean
  /** `(?:\/$)?`: one trailing '/' is taken into the match */
  trailing: boolean
}

/** What path-to-regexp escapes in a pattern's text (and only that): these stand escaped in its regexp. */
const ESCAPED = '.+*?^${}()[]|/\\'
const SEGMENT_PARAM = '([^\\/]+)'
/** The group's end and the optional trailing slash, as path-to-regexp writes them when `trailing` is on. */
const TRAILING = ')(?:\\/$)?'

/**
 * Read a pattern's regexp as a list of literal texts and parameters when it
 * is one path-to-regexp builds for paths like `/users/:id` or
 * `/:uid/posts`: `^(?:`, then ASCII text (its special characters escaped)
 * and parameters `([^\/]+)`, each followed by text that starts with '/' or
 * by nothing, then `)`, then `(?:\/$)?` or not, then `$` or `(?=\/|$)`;
 * flags '' or 'i'. Anything else (another parameter syntax, a wildcard, an
 * optional part, non-ASCII text) gives undefined and stays on the regexp.
 * Reading the regexp itself, rather than the pattern, means a path-to-regexp
 * that builds something else for a pattern is not matched by the scan.
 */
export function segmentParts(regexp: RegExp, captures: number): SegmentParts | undefined {
  const source = regexp.source
  if ((regexp.flags !== '' && regexp.flags !== 'i') || !source.startsWith('^(?:')) return undefined
  const parts: Array<string | null> = []
  let text = ''
  let i = 4
  while (i < source.length) {
    if (source.startsWith(SEGMENT_PARAM, i)) {
      if (text !== '') parts.push(text)
      text = ''
      parts.push(null)
      i += SEGMENT_PARAM.length
      continue
    }
    const c = source.charCodeAt(i)
    if (c === 0x29 /* ) */) break
    if (c === 0x5c /* \ */) {
      const next = source[i + 1]
      if (next === undefined || !ESCAPED.includes(next)) return undefined
      text += next
      i += 2
      continue
    }
    if (c < 0x20 || c > 0x7e || ESCAPED.includes(source[i])) return undefined
    text += source[i]
    i++
  }
  if (text !== '') parts.push(text)
  // a parameter ends at the next '/': what follows it must be text that starts with one
  for (let k = 0; k < parts.length - 1; k++) {
    const after = parts[k + 1]
    if (parts[k] === null && (after === null || after.charCodeAt(0) !== 0x2f)) return undefined
  }
  if (parts.filter((p) => p === null).length !== captures) return undefined
  let tail = source.slice(i)
  const trailing = tail.startsWith(TRAILING)
  tail = tail.slice(trailing ? TRAILING.length : 1)
  if (tail !== '$' && tail !== '(?=\\/|$)') return undefined
  const sensitive = regexp.flags === ''
  return { parts: sensitive ? parts : parts.map((p) => (p === null ? p : p.toLowerCase())), sensitive, end: tail === '$', trailing }
}

/**
 * Where a scan of `input` against `shape` ends: the length of the regexp's
 * whole match, or -1 where the regexp would not match. A parameter takes
 * the characters up to the next '/' (at least one), as `[^\/]+` must when
 * '/' or the end follows it; texts compare as `sameText` does.
 */
function scanSegments(shape: SegmentParts, input: string): number {
  const parts = shape.parts
  const len = input.length
  let pos = 0
  let param = 0
  // (kept within a small integer: a count that grew past one would be a
  // heap number, allocated at every scan)
  scans = (scans + 1) & 0x3fffffff
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k]
    if (part === null) {
      // (a loop, not indexOf: a parameter is a few characters, and the
      // builtin's call cost more than the scan; it also sees whether the
      // parameter has a '%' to decode)
      let stop = pos
      let escaped = false
      for (; stop < len; stop++) {
        const c = input.charCodeAt(stop)
        if (c === 0x2f) break
        if (c === 0x25) escaped = true
      }
      if (stop === pos) return -1
      paramEnds[param] = stop
      paramEscaped[param++] = escaped
      pos = stop
    } else {
      if (len - pos < part.length || !sameText(input, pos, part, shape.sensitive)) return -1
      pos += part.length
    }
  }
  if (shape.trailing && pos === len - 1 && input.charCodeAt(pos) === 0x2f) return len
  if (pos === len) return pos
  return !shape.end && input.charCodeAt(pos) === 0x2f ? pos : -1
}

/**
 * Where each parameter of the last scan ended, and whether it has a '%'.
 * Read by the matcher that ran the scan, unless `scans` says another scan
 * ran in between (copying the parent's params, or storing one, can run a
 * getter or a setter, which could route another request): then it scans again.
 */
const paramEnds: number[] = [0, 0, 0, 0]
const paramEscaped: boolean[] = [false, false, false, false]
let scans = 0

/**
 * patternMatcher's matcher for a pattern segmentParts could read: the same
 * answers without running the regexp (no match array, no capture strings
 * but the parameters' own). Where it can, it
 * hands the path to code made for the pattern (`compileSegments`):
 * one function for the params alone, and one for the parent's params of a
 * `mergeParams` router with the keys they are known to have.
 */
function segmentMatcher(shape: SegmentParts, names: string[], dictionary: boolean, mergeable: boolean, end: boolean): Matcher {
  const parts = shape.parts
  // the matcher made for the params alone (at the first match), and for a
  // parent's with known keys: null where there can be none
  let own: Compiled | null | undefined = dictionary ? null : undefined
  const cache: CompiledCache = { copied: undefined, compiled: null }
  return (input, plain, base, baseKeys) => {
    const merged = base !== undefined && mergeable
    const compiled = merged
      ? compiledFor(cache, shape, names, baseKeys)
      : own !== undefined ? own : (own = compileSegments(shape, names, undefined))
    if (compiled !== null) return compiled(input, plain, base)
    const stop = scanSegments(shape, input)
    if (stop === -1) return false
    const matched = stop === input.length ? input : input.slice(0, stop)
    let scan = scans
    const params: Record<string, any> = merged ? Object.assign({}, base) : dictionary || (plain !== true && (end || plain === undefined)) ? Object.create(null) : {}
    let pos = 0
    let key = 0
    for (let k = 0; k < parts.length; k++) {
      const part = parts[k]
      if (part === null) {
        if (scan !== scans) {
          scanSegments(shape, input)
          scan = scans
        }
        const next = paramEnds[key]
        // (without a '%', decodeParam would give the text back as it is)
        params[names[key]] = paramEscaped[key] ? decodeParam(input.slice(pos, next)) : input.slice(pos, next)
        key++
        pos = next
      } else {
        pos += part.length
      }
    }
    if (!dictionary && !end && !merged && plain === false) Object.setPrototypeOf(params, null)
    return { path: matched, params, merged, keys: undefined }
  }
}

/** A matcher made for one pattern (and, under mergeParams, one list of the parent's keys): see compileSegments. */
type Compiled = (input: string, plain: boolean | undefined, base: Record<string, any> | undefined) => MatchResult | false

/** A segment matcher's last compiled matcher for a parent's key list (most see one list only: their router is mounted once). */
interface CompiledCache {
  copied: readonly string[] | undefined
  compiled: Compiled | null
}

/**
 * The compiled matcher for a parent's params with the own keys `copied`
 * (null when they are not known, or none can be made), from `cache` when it
 * holds that list: as params.ts's cachedFiller does for fills.
 */
function compiledFor(cache: CompiledCache, shape: SegmentParts, names: string[], copied: readonly string[] | undefined): Compiled | null {
  if (copied === undefined) return null
  if (cache.copied === copied) return cache.compiled
  const compiled = compileSegments(shape, names, copied)
  cache.copied = copied
  cache.compiled = compiled
  return compiled
}

/** A literal path's parameters (none). */
const NO_NAMES: string[] = []

/** The compiled matchers made so far, by pattern shape and key lists (bounded as the fills are). */
const compiledMatchers = new Map<string, Compiled>()
const MAX_COMPILED = 1000
/** The most parameters a compiled matcher takes (a longer pattern keeps the generic path). */
const COMPILED_VALUES = 8

/**
 * A matcher made with `new Function` for one pattern segmentParts read, and
 * for the parent's params with the own keys `copied` (a `mergeParams`
 * router's known keys; undefined: the params alone, as a router that does
 * not merge, or whose parent's keys are unknown, takes them). It does
 * what segmentMatcher's generic path does, in the order of the params fill (params.ts):
 * the scan, with each text compared by `sameText` and each parameter taken
 * to the next '/'; the values, decoded where they have a '%' (a value that
 * does not decode throws before any store); then the params object made and
 * filled as a fill fills it (src/router/params.ts), and the same result
 * object. What it saves is the generic path's loops over the parts, the
 * scan's ends stored in and read back from module arrays, and the fill's
 * call: each compiled matcher has its own code, in which V8 sees one shape
 *. Null where a fill could not be made:
 * `__proto__` or an array index among the keys, more than COMPILED_VALUES
 * parameters, code generation refused, or the bound reached.
 */
function compileSegments(shape: SegmentParts, names: string[], copied: readonly string[] | undefined): Compiled | null {
  if (names.length > COMPILED_VALUES || !fillable(copied, names)) return null
  const id = stringify([shape, names, copied ?? null])
  const known = compiledMatchers.get(id)
  if (known !== undefined) return known
  if (compiledMatchers.size >= MAX_COMPILED) return null
  let body = 'const len = input.length\nlet pos = 0\nlet stop = 0\nlet c = 0\n'
  // a literal path longer than SHORT_TEXT (a mount's or a route's under
  // mergeParams): its text cut once, for the comparison and for the match
  const head = shape.parts.length === 1 && shape.parts[0] !== null && shape.parts[0].length > SHORT_TEXT ? shape.parts[0] : undefined
  let key = 0
  for (const part of head !== undefined ? [] : shape.parts) {
    if (part === null) {
      body += `let e${key} = false\nfor (stop = pos; stop < len; stop++) { c = input.charCodeAt(stop); if (c === 47) break; if (c === 37) e${key} = true }\n`
      body += `if (stop === pos) return false\nconst a${key} = pos\nconst z${key} = stop\npos = stop\n`
      key++
    } else {
      body += `if (len - pos < ${part.length} || !sameText(input, pos, ${stringify(part)}, ${shape.sensitive})) return false\npos += ${part.length}\n`
    }
  }
  if (head !== undefined) {
    body += `if (len < ${head.length}) return false\nconst head = len === ${head.length} ? input : input.slice(0, ${head.length})\n`
    body += `if (head !== ${stringify(head)} && (${shape.sensitive} || !foldedSame(head, 0, ${stringify(head)}))) return false\npos = ${head.length}\n`
  }
  // the end: the whole path (a route), or a '/' or the end next (a mount);
  // one trailing '/' taken in where the pattern allows it
  if (shape.end) {
    body += `if (pos !== len) { if (${shape.trailing} && pos === len - 1 && input.charCodeAt(pos) === 47) pos = len; else return false }\n`
  } else {
    body += `if (pos !== len) { if (input.charCodeAt(pos) !== 47) return false; if (${shape.trailing} && pos === len - 1) pos = len }\n`
  }
  for (let i = 0; i < key; i++) body += `const v${i} = e${i} ? decodeParam(input.slice(a${i}, z${i})) : input.slice(a${i}, z${i})\n`
  const merged = copied !== undefined
  if (merged) {
    body += 'const o = {}\nconst b = base\n'
  } else if (shape.end) {
    body += 'const o = plain !== true ? Object.create(null) : {}\n'
  } else {
    body += 'const o = plain === undefined ? Object.create(null) : {}\n'
  }
  body += fillLines(copied ?? NO_KEYS, names, 'v')
  if (!merged && !shape.end) body += 'if (plain === false) Object.setPrototypeOf(o, null)\n'
  body += `return { path: pos === len ? input : ${head !== undefined ? 'head' : 'input.slice(0, pos)'}, params: o, merged: ${merged}, keys }\n`
  const compiled = generate<Compiled>(`return function match(input, plain, base) {\n${body}}`, ['sameText', 'foldedSame', 'decodeParam', 'keys'], [sameText, foldedSame, decodeParam, keysAfter(copied ?? NO_KEYS, names)])
  if (compiled !== null) compiledMatchers.set(id, compiled)
  return compiled
}

/**
 * The pattern a registered path compiles to, as router@2.3 takes it: a
 * string or a regular expression as it is; anything else turned into a
 * string (`5` becomes the pattern '5', `undefined` the pattern 'undefined':
 * no request path, which starts with '/', matches either), or, under strict
 * routing, handed to path-to-regexp as it is, which refuses it with its own
 * error.
 */
function patternOf(path: unknown, strict: boolean): string | RegExp {
  if (typeof path === 'string' || path instanceof RegExp) return path
  if (!strict) return String(path)
  pathToRegexp(path as string)
  throw new TypeError('argument path must be a string or a regular expression') // (path-to-regexp refuses every other value)
}

/** Remove trailing slashes unless the path is '/' (non-strict matching allows one back). */
function loosen(path: string): string {
  return path === '/' ? path : path.replace(TRAILING_SLASHES, '')
}

/**
 * The static text a path pattern starts with (its whole text when `literal`:
 * no parameter, wildcard or optional part). Undefined when that text has
 * non-ASCII characters: those are left to the regexp, whose case folding
 * differs from String#toLowerCase.
 */
function staticText(path: string): { text: string; literal: boolean } | undefined {
  const data = parsePattern(path) // throws for invalid patterns, like the regexp compiler
  let text = ''
  let literal = true
  for (const token of data.tokens) {
    if (token.type !== 'text') {
      literal = false
      break
    }
    text += token.value
  }
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7e) return undefined
  return { text, literal }
}

/** The first segment of a path ('/a' of '/a/b'; the whole path when it has one segment). */
export function firstSegment(path: string): string {
  const end = path.indexOf('/', 1)
  return end === -1 ? path : path.slice(0, end)
}

/**
 * The first-segment keys of a layer, when every one of its paths fixes its
 * first segment in static text: a literal, or a prefix that reaches past the
 * first segment's end ('/users/' of '/users/:id').
 */
function segmentKeys(parsed: Array<{ text: string; literal: boolean } | undefined>, sensitive: boolean): string[] | undefined {
  const out: string[] = []
  for (const t of parsed) {
    if (t === undefined || t.text.charCodeAt(0) !== 0x2f) return undefined
    const end = t.text.indexOf('/', 1)
    if (end === -1 && !t.literal) return undefined
    const segment = end === -1 ? loosen(t.text) : t.text.slice(0, end)
    if (segment === '/' || segment === '') return undefined
    out.push(sensitive ? segment : segment.toLowerCase())
  }
  return out
}

/** The static-route index keys of a layer: only when every one of its paths is a non-empty literal. */
function indexKeys(literals: Array<string | undefined>, sensitive: boolean): string[] | undefined {
  const out: string[] = []
  for (const literal of literals) {
    if (literal === undefined || literal === '') return undefined
    out.push(sensitive ? literal : literal.toLowerCase())
  }
  return out
}

/** Texts up to this length are compared by the loop alone: their slice would cost more. */
const SHORT_TEXT = 3

/**
 * Compare `str` from `offset` with `lit` (lower-case ASCII unless sensitive),
 * as a non-unicode /i regexp would. The caller has seen that `str` has
 * `lit.length` characters from `offset`. The same characters first, as one
 * comparison of strings: in the loop, each `charCodeAt` of a string V8
 * knows nothing of reads its kind again, ~40 instructions a character; a
 * slice and `===` cost about a quarter of that.
 */
function sameText(str: string, offset: number, lit: string, sensitive: boolean): boolean {
  const n = lit.length
  const whole = offset === 0 && str.length === n
  if (whole || n > SHORT_TEXT) {
    if ((whole ? str : str.slice(offset, offset + n)) === lit) return true
    if (sensitive) return false
  }
  if (sensitive) {
    for (let i = 0; i < n; i++) if (str.charCodeAt(offset + i) !== lit.charCodeAt(i)) return false
    return true
  }
  return foldedSame(str, offset, lit)
}

/** Are the `lit.length` characters of `str` from `offset` the same as `lit` (lower case) with ASCII letters' case folded? */
function foldedSame(str: string, offset: number, lit: string): boolean {
  for (let i = 0; i < lit.length; i++) {
    const a = str.charCodeAt(offset + i)
    const b = lit.charCodeAt(i)
    if (a === b) continue
    // ASCII letters only: b is already lower case
    if (a >= 0x41 && a <= 0x5a && (a | 0x20) === b) continue
    return false
  }
  return true
}

/**
 * The params of a path without parameters and without a parent's to copy
 * (see literalMatch): no prototype, as path-to-regexp gives, unless
 * `plain`. A route's (`leaf`) are a dictionary, as Express makes them, and
 * so are a mount's that nothing is known to copy, or that a router below
 * copies by their keys (`plain` undefined); a mount's that
 * a `mergeParams` router below copies for every layer it runs (`plain`
 * false) are a small fast-mode object given the null prototype
 * (utils/prototype.ts), because `Object.assign` from a dictionary goes
 * through V8's runtime.
 */
function emptyParams(plain: boolean | undefined, leaf: boolean): Record<string, any> {
  return plain === true ? new EmptyObject() : leaf || plain === undefined ? Object.create(null) : emptyNullObject()
}

/**
 * A match without parameters. Under mergeParams, the parent's params are
 * copied here only when their keys are unknown, or no matcher could be
 * made for them (see exactMatcher): with `Object.assign`, as the generic
 * path of the segment matchers copies them.
 */
function literalMatch(path: string, plain: boolean | undefined, base: Record<string, any> | undefined, leaf: boolean): MatchResult {
  if (base === undefined) return { path, params: emptyParams(plain, leaf), merged: false, keys: NO_KEYS }
  return { path, params: Object.assign({}, base), merged: true, keys: undefined }
}

/** A route path without parameters: equal, or (not strict) equal plus one trailing slash. */
function exactMatcher(literal: string, sensitive: boolean, strict: boolean): Matcher {
  const lit = sensitive ? literal : literal.toLowerCase()
  const n = lit.length
  const shape: SegmentParts = { parts: [lit], sensitive, end: true, trailing: !strict }
  const compiled: CompiledCache = { copied: undefined, compiled: null }
  return (path, plain, base, baseKeys) => {
    if (base !== undefined) {
      const match = compiledFor(compiled, shape, NO_NAMES, baseKeys)
      if (match !== null) return match(path, plain, base)
    }
    const len = path.length
    if (len === n || (!strict && len === n + 1 && path.charCodeAt(n) === 0x2f)) {
      if (sameText(path, 0, lit, sensitive)) return literalMatch(path, plain, base, true)
    }
    return false
  }
}

/** A `use` path without parameters: a prefix that ends on a segment boundary. */
function prefixMatcher(literal: string, sensitive: boolean): Matcher {
  const lit = sensitive ? literal : literal.toLowerCase()
  const n = lit.length
  const shape: SegmentParts = { parts: [lit], sensitive, end: false, trailing: true }
  const compiled: CompiledCache = { copied: undefined, compiled: null }
  return (path, plain, base, baseKeys) => {
    if (base !== undefined) {
      const match = compiledFor(compiled, shape, NO_NAMES, baseKeys)
      if (match !== null) return match(path, plain, base)
    }
    const len = path.length
    if (len <= n) return len === n && sameText(path, 0, lit, sensitive) ? literalMatch(path, plain, base, false) : false
    if (path.charCodeAt(n) !== 0x2f) return false
    let head: string
    if (n > SHORT_TEXT) {
      // the text cut once, for the comparison and for the match (sameText
      // and then the match cut it twice: ~100 instructions)
      head = path.slice(0, n)
      if (head !== lit && (sensitive || !foldedSame(head, 0, lit))) return false
    } else {
      if (!sameText(path, 0, lit, sensitive)) return false
      head = path.slice(0, n)
    }
    // a single trailing slash at the very end belongs to the match
    return literalMatch(len === n + 1 ? path : head, plain, base, false)
  }
}

/** Parameter names of a regular expression: named groups by name, others by index. */
function regexpKeys(source: string): Array<string | number> {
  const keys: Array<string | number> = []
  let index = 0
  let inClass = false
  for (let i = 0; i < source.length; i++) {
    const c = source[i]
    if (c === '\\') { i++; continue }
    if (inClass) { if (c === ']') inClass = false; continue }
    if (c === '[') { inClass = true; continue }
    if (c !== '(') continue
    if (source[i + 1] !== '?') { keys.push(index++); continue }
    if (source[i + 2] === '<' && source[i + 3] !== '=' && source[i + 3] !== '!') {
      const close = source.indexOf('>', i + 3)
      keys.push(source.slice(i + 3, close))
    }
  }
  return keys
}

function regexpMatcher(re: RegExp): Matcher {
  const keys = regexpKeys(re.source)
  // the user's RegExp as it is, as router@2.3 uses it: with the g or y flag
  // its lastIndex carries over from one match to the next (a route on /x/g
  // then matches every other request), and that is what Express does
  return (path) => {
    const m = re.exec(path)
    if (!m) return false
    const params: Record<string, any> = {}
    for (let i = 1; i < m.length; i++) {
      const val = decodeParam(m[i])
      if (val !== undefined) params[keys[i - 1] ?? i - 1] = val
    }
    return { path: m[0], params, merged: false, keys: undefined }
  }
}

/** decodeURIComponent, with a 400 error naming the parameter when it is not valid. */
export function decodeParam(val: string): string {
  if (typeof val !== 'string' || val.length === 0) return val
  if (val.indexOf('%') === -1) return val
  try {
    return decodeURIComponent(val)
  } catch (err) {
    if (err instanceof URIError) {
      err.message = `Failed to decode param '${val}'`
      // statusCode first, then status: the own keys in router@2.3's order
      // (its chained `err.status = err.statusCode = 400` assigns right to left)
      ;(err as URIError & { status: number; statusCode: number }).statusCode = 400
      ;(err as URIError & { status: number; statusCode: number }).status = 400
    }
    throw err
  }
}
