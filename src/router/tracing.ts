// Tracing channels (node:diagnostics_channel), an addition over Express 5.
//
// - `switchyard.layer` (a TracingChannel: `tracing:switchyard.layer:start`,
//   `:end`, `:asyncStart`, `:asyncEnd`, `:error`) wraps every call of a
//   middleware, route handler or error handler.
// - `switchyard.route` (a plain channel) is published when a route starts
//   handling a request, with the full route pattern (mount paths included).
//
// Without subscribers nothing here runs: the router checks `layerActive()`
// (a property read) before choosing the traced path, and allocates nothing.
import dc from 'node:diagnostics_channel'
import { ThenableSite, isThenable, rejectionError, warnThenable, type Layer } from './layer'

/** The kind of a traced call. */
export type LayerKind = 'middleware' | 'request handler' | 'error handler'

/** The context object of every `switchyard.layer` event (one object per call). */
export interface LayerContext {
  req: any
  res: any
  /** middleware, request handler (a route's handler) or error handler */
  kind: LayerKind
  /** the handler's name ('<anonymous>' when it has none) */
  name: string
  /** the pattern the handler was registered on: a middleware's path, or its route's path */
  route: string
  /** `route` with the patterns of every router and app it is mounted under, e.g. `/api/:v/users/:id` */
  fullRoute: string
  /** the Layer (router@2's shape) */
  layer: Layer
  /** set on `error`: what the handler threw, rejected with, or passed to next() */
  error?: unknown
  /** set on `end` (sync return value) and `asyncEnd` (resolved value) */
  result?: unknown
}

/** The message of `switchyard.route`. */
export interface RouteMessage {
  req: any
  res: any
  /** the route's own pattern */
  route: string
  /** the full pattern with mount paths, e.g. `/api/:v/users/:id` (what OpenTelemetry calls http.route) */
  fullRoute: string
}

/** Channel names, a stable API. */
export const LAYER_CHANNEL = 'switchyard.layer'
export const ROUTE_CHANNEL = 'switchyard.route'

export const layerChannel = dc.tracingChannel<unknown, LayerContext & object>(LAYER_CHANNEL)
export const routeChannel = dc.channel(ROUTE_CHANNEL)

const subChannels = [layerChannel.start, layerChannel.end, layerChannel.asyncStart, layerChannel.asyncEnd, layerChannel.error]

/**
 * router@2.3's TracingChannel (express@5.3 installs router@2.3), under its
 * name: `tracing:express.router.request:start`, `:end`, `:asyncStart`,
 * `:asyncEnd`, `:error`. Published around every middleware, route handler,
 * error handler and param callback, with router@2.3's context objects and
 * event order (`traceRequestCall`, `traceParamCall` below).
 */
export const REQUEST_CHANNEL = 'express.router.request'
export const requestChannel = dc.tracingChannel<unknown, RequestContext & object>(REQUEST_CHANNEL)
const requestSubChannels = [requestChannel.start, requestChannel.end, requestChannel.asyncStart, requestChannel.asyncEnd, requestChannel.error]

/** The context of an `express.router.request` event (router@2.3's fields, in its order). */
export interface RequestContext {
  req: any
  res: any
  /** error handlers: the error they were called with */
  incomingError?: unknown
  layer: Layer
  /** the function called */
  handler: (...args: any[]) => unknown
  /** the registered path the matched layer matched with (`req`'s `router.tracing.matchedRoute`) */
  route: unknown
  /** error handlers: true */
  errorHandler?: true
  /** param callbacks: the parameter's name */
  param?: string
  /** what the call threw, rejected with or passed to next() (first report only) */
  error?: unknown
  /** what the call returned (sync) or resolved to (async) */
  result?: unknown
}

/** Does anyone listen to the layer channel? (TracingChannel#hasSubscribers is Node >= 20.13; older ones ask each channel.) */
export const layerActive: () => boolean = 'hasSubscribers' in layerChannel
  ? () => (layerChannel as { hasSubscribers: boolean }).hasSubscribers
  : () => subChannels.some((c) => c.hasSubscribers)

/**
 * What the channels' subscribers were when a request last entered a router:
 * read once per router pass (`refreshTracing`), so that each layer call
 * checks one variable instead of five channels.
 */
export let layerTracing = false
export let anyTracing = false

/** Does anyone listen to router@2.3's request channel? (as layerActive) */
const requestActive: () => boolean = 'hasSubscribers' in requestChannel
  ? () => (requestChannel as { hasSubscribers: boolean }).hasSubscribers
  : () => requestSubChannels.some((c) => c.hasSubscribers)

/** router@2.3's request channel has subscribers (read with the others, once per router pass). */
export let requestTracing = false
/** Either channel that wraps handler calls has subscribers: a handler call takes the traced path. */
export let handlerTracing = false

/**
 * Does router@2.3's channel have subscribers now? router@2.3 asks at every
 * call, so a subscriber attached (or detached) mid-request counts from the
 * next call on. (Switchyard's own channel is read once per router pass.)
 */
export function requestTraced(): boolean {
  if (requestActive() !== requestTracing) {
    requestTracing = !requestTracing
    handlerTracing = layerTracing || requestTracing
  }
  return requestTracing
}

// router@2.3's five channels, each read by handlerTraced on every call
const [requestStart, requestEnd, requestAsyncStart, requestAsyncEnd, requestError] = requestSubChannels

/**
 * Is a handler call traced, by either channel? (see requestTraced) The
 * common answer, no, comes from the five channels read in place: a chain of
 * calls (requestTraced, requestActive, the TracingChannel's getter) is
 * compiled into every handler call too, and left V8 less of its inlining
 * budget for the pass-through step.
 */
export function handlerTraced(): boolean {
  if (requestTracing === true || layerTracing === true || requestStart.hasSubscribers || requestEnd.hasSubscribers || requestAsyncStart.hasSubscribers || requestAsyncEnd.hasSubscribers || requestError.hasSubscribers) {
    requestTraced()
    return handlerTracing
  }
  return false
}

/** Read the channels' state; called when a request enters a router. */
export function refreshTracing(): void {
  layerTracing = layerActive()
  requestTracing = requestActive()
  handlerTracing = layerTracing || requestTracing
  anyTracing = layerTracing || routeChannel.hasSubscribers
}

/** The patterns of the routers/apps the request is inside, joined (kept only while tracing). */
export const kMountRoute = Symbol('switchyard.mountRoute')

/** A registered path as text: strings as they are, regular expressions as `String(re)`, arrays joined with ','. */
export function patternText(path: unknown): string {
  if (typeof path === 'string') return path
  if (Array.isArray(path)) return path.map(patternText).join(',')
  return String(path)
}

/** Join a mount pattern and a pattern below it ('/' alone adds nothing). */
export function joinPattern(mount: string, pattern: string): string {
  if (pattern === '/' || pattern === '') return mount === '' ? pattern || '/' : mount
  if (mount === '' || mount === '/') return pattern
  return mount.endsWith('/') && pattern.startsWith('/') ? mount + pattern.slice(1) : mount + pattern
}

function contextFor(layer: Layer, req: any, res: any, kind: LayerKind): LayerContext {
  // a route's own layers carry `method` (router@2's shape); a router's carry `route`
  const inRoute = 'method' in layer
  const route = inRoute && req.route ? patternText(req.route.path) : patternText(layer.rawPath)
  const mount: string | undefined = req[kMountRoute]
  // a router's middleware: the router already joined its pattern to the mounts above it
  const fullRoute = inRoute ? joinPattern(mount ?? '', route) : mount ?? joinPattern('', route)
  return { req, res, kind, name: layer.name, route, fullRoute, layer }
}

/** Publish `switchyard.route` for a route that starts handling `req`. */
export function publishRoute(req: any, res: any, path: unknown): void {
  const route = patternText(path)
  const message: RouteMessage = { req, res, route, fullRoute: joinPattern(req[kMountRoute] ?? '', route) }
  routeChannel.publish(message)
}

/**
 * Call `fn(...args)` inside the layer channel: start, the call, end; a thrown
 * error publishes error (before end) and goes to `next`; a returned promise
 * publishes asyncStart/asyncEnd when it settles (error first when it
 * rejects); an error passed to `next` publishes error.
 */
export function traceCall(layer: Layer, kind: LayerKind, req: any, res: any, err: unknown, next: (err?: any) => void): void {
  const ctx = contextFor(layer, req, res, kind)
  let ret: any
  try {
    ret = callInLayerChannel(ctx, layer, kind, req, res, err, next)
  } catch (e) {
    next(e)
    return
  }
  if (isThenable(ret)) {
    // (router@2.3 has no such channel: its site is the untraced call's)
    warnThenable(ret, kind === 'error handler' ? ThenableSite.ErrorMiddleware : ThenableSite.Middleware, layer)
    followLayerPromise(ctx, ret, ignoreValue, next)
  }
}

function ignoreValue(): void {}

/**
 * Call a layer's handler inside `switchyard.layer`'s start (with its stores):
 * `error` for a throw, then `end`; returns what the handler returned and
 * rethrows what it threw. The handler's `next` publishes `error` for an
 * error passed on (not 'route' or 'router'), then calls `next`.
 */
function callInLayerChannel(ctx: LayerContext, layer: Layer, kind: LayerKind, req: any, res: any, err: unknown, next: (err?: any) => void): unknown {
  const fn = layer.handle
  const tracedNext = (e?: any) => {
    if (e && !isSignal(e)) {
      ctx.error = e
      layerChannel.error.publish(ctx)
    }
    next(e)
  }
  let ret: unknown
  layerChannel.start.runStores(ctx, () => {
    try {
      ret = kind === 'error handler' ? fn(err, req, res, tracedNext) : fn(req, res, tracedNext)
      ctx.result = ret
    } catch (e) {
      ctx.error = e
      layerChannel.error.publish(ctx)
      throw e
    } finally {
      layerChannel.end.publish(ctx)
    }
  })
  return ret
}

/**
 * When a handler's promise settles, publish `switchyard.layer`'s
 * asyncStart and asyncEnd (an `error` first for a rejection, whose reason
 * becomes an Error when it is falsy), then call `fulfilled(value)` or
 * `rejected(error)`. A `then` that throws is a rejection with what it threw,
 * passed on as it is (as untraced).
 */
function followLayerPromise(ctx: LayerContext, ret: PromiseLike<unknown>, fulfilled: (value: unknown) => void, rejected: (err: unknown) => void): void {
  const fail = (e: unknown) => {
    ctx.error = e
    layerChannel.error.publish(ctx)
    layerChannel.asyncStart.publish(ctx)
    layerChannel.asyncEnd.publish(ctx)
    rejected(e)
  }
  try {
    ret.then((value: unknown) => {
      ctx.result = value
      layerChannel.asyncStart.publish(ctx)
      layerChannel.asyncEnd.publish(ctx)
      fulfilled(value)
    }, (reason: unknown) => fail(rejectionError(reason)))
  } catch (e) {
    fail(e)
  }
}

// ---- router@2.3's express.router.request ------------------------------------

/**
 * router@2.3 keeps on each request the registered path of the layer it matched
 * last (`match.pattern`), restored when a router pass ends, whether or not
 * anyone subscribes. Each copy of router has its own symbol; this one has
 * the same description, so tools that list a request's symbols see the same.
 */
export const kMatchedRoute = Symbol('router.tracing.matchedRoute')

/**
 * router@2.3's set of the errors already reported for a request: a registered
 * symbol, so every copy of router (and this one) share it. Created when the
 * first error passes through a router, whether or not anyone subscribes.
 */
const kSeenErrors = Symbol.for('router.tracing.publishedErrors')

/** 'route' and 'router' steer the router; they are not errors. */
function isSignal(err: unknown): boolean {
  return err === 'route' || err === 'router'
}

/** Remember an error as reported for `req`; true the first time (then it is to be published). */
export function recordError(req: any, err: unknown): boolean {
  if (!err || isSignal(err)) return false
  let seen: Set<unknown> | undefined = req[kSeenErrors]
  if (!seen) {
    seen = req[kSeenErrors] = new Set()
  } else if (seen.has(err)) {
    return false
  }
  seen.add(err)
  return true
}

/** An error handler dealt with `err` (recovered or replaced it): the same object failing later is a new failure. */
function forgetError(req: any, err: unknown): void {
  const seen: Set<unknown> | undefined = req[kSeenErrors]
  if (seen) seen.delete(err)
}

/**
 * The `next` a traced call gets: it publishes `error` for the first report of
 * a real error (not a routing signal), then passes on. An error handler's
 * incoming error is its caller's, never its own.
 */
function reportingNext(ctx: RequestContext, next: (err?: any) => void): (err?: any) => void {
  if (ctx.errorHandler) recordError(ctx.req, ctx.incomingError)
  return (err?: any) => {
    if (ctx.errorHandler && err !== ctx.incomingError) forgetError(ctx.req, ctx.incomingError)
    if (err && recordError(ctx.req, err)) {
      ctx.error = err
      requestChannel.error.publish(ctx)
    }
    next(err)
  }
}

/** A throw or rejection on the context: a routing signal thrown is a plain return; a repeated error keeps the first. */
function noteThrown(ctx: RequestContext, err: unknown, sync: boolean): void {
  if (isSignal(err)) {
    if (sync) ctx.result = undefined
    return
  }
  if (!('error' in ctx)) ctx.error = err
}

/** Publish `end`; for a call that returned a promise, an error already reported is left out of it (end then means "returned"). */
function publishEnd(ctx: RequestContext, async: boolean): void {
  if (!async || !('error' in ctx)) {
    requestChannel.end.publish(ctx)
    return
  }
  const error = ctx.error
  delete ctx.error
  requestChannel.end.publish(ctx)
  ctx.error = error
}

/** asyncStart (entering its bound stores) and asyncEnd inside them. */
function publishAsyncEnd(ctx: RequestContext): void {
  requestChannel.asyncStart.runStores(ctx, publishAsyncEndOnly, null, ctx)
}

function publishAsyncEndOnly(ctx: RequestContext): void {
  requestChannel.asyncEnd.publish(ctx)
}

/**
 * Call a middleware, route handler or error handler inside
 * `express.router.request`, as router@2.3 does: `exec(next)` makes the call.
 * start (with its stores) around the call; a throw goes to `next` inside it,
 * then end; a returned promise publishes end at once and
 * asyncStart/asyncEnd when it first settles (a rejection also goes to next,
 * as untraced).
 */
export function traceRequestCall(exec: (next: (err?: any) => void) => unknown, ctx: RequestContext, next: (err?: any) => void): void {
  const reporting = reportingNext(ctx, next)
  let settled = false
  const rejected = (err: unknown): void => {
    reporting(err)
    if (settled) return
    settled = true
    noteThrown(ctx, err, false)
    publishAsyncEnd(ctx)
  }
  requestChannel.start.runStores(ctx, () => {
    let ret: any
    let promised: boolean
    try {
      ret = exec(reporting)
      promised = isThenable(ret)
      if (promised) warnThenable(ret, ThenableSite.Traced)
      else ctx.result = ret
    } catch (err) {
      // forwarded as it is: a falsy throw routes as untraced
      reporting(err)
      noteThrown(ctx, err, true)
      publishEnd(ctx, false)
      return
    }
    publishEnd(ctx, promised)
    if (!promised) return
    try {
      ret.then((value: unknown) => {
        if (settled) return
        settled = true
        ctx.result = value
        publishAsyncEnd(ctx)
      }, (reason: unknown) => rejected(rejectionError(reason)))
    } catch (err) {
      // a `then` that throws is a rejection, passed on as it is
      rejected(err)
    }
  })
}

/**
 * Call a param callback inside `express.router.request`, as router@2.3 does:
 * its `next` reports errors; a promise it returns settles the trace once
 * (never before end, even when it settles inside `then`), and a rejection
 * goes to `next`.
 */
export function traceParamCall(fn: (...args: any[]) => unknown, ctx: RequestContext, next: (err?: any) => void, value: unknown, name: string): void {
  const reporting = reportingNext(ctx, next)
  let promised = false
  let ended = false
  let settled = false
  let early: (() => void) | undefined
  const finish = (outcome: unknown, failed: boolean): void => {
    if (!failed) ctx.result = outcome
    else noteThrown(ctx, outcome, false)
    publishAsyncEnd(ctx)
  }
  const settle = (outcome: unknown, failed: boolean): void => {
    if (settled) return
    settled = true
    if (!ended) {
      early = () => finish(outcome, failed)
      return
    }
    finish(outcome, failed)
  }
  const rejected = (err: unknown): void => {
    reporting(err)
    settle(err, true)
  }
  requestChannel.start.runStores(ctx, () => {
    try {
      let ret: any
      try {
        ret = fn(ctx.req, ctx.res, reporting, value, name)
      } catch (err) {
        noteThrown(ctx, err, true)
        throw err
      }
      promised = isThenable(ret)
      if (!promised) ctx.result = ret
      else {
        warnThenable(ret, ThenableSite.ParamTraced)
        try {
          ret.then((v: unknown) => settle(v, false), (reason: unknown) => rejected(rejectionError(reason)))
        } catch (err) {
          rejected(err)
        }
      }
    } catch (err) {
      reporting(err)
    } finally {
      publishEnd(ctx, promised)
      ended = true
      if (early) early()
    }
  })
}

/**
 * Call a layer's handler with whichever of the two handler channels have
 * subscribers: `switchyard.layer` alone (traceCall), `express.router.request`
 * alone, or both (router@2.3's channel outside, Switchyard's inside it).
 */
export function traceHandler(layer: Layer, kind: LayerKind, req: any, res: any, err: unknown, next: (err?: any) => void): void {
  if (!requestTracing) {
    traceCall(layer, kind, req, res, err, next)
    return
  }
  const fn = layer.handle
  const errorHandler = kind === 'error handler'
  const ctx: RequestContext = errorHandler
    ? { req, res, incomingError: err, layer, handler: fn, route: req[kMatchedRoute], errorHandler: true }
    : { req, res, layer, handler: fn, route: req[kMatchedRoute] }
  const exec = layerTracing
    ? layerExec(layer, kind, req, res, err)
    : errorHandler ? (n: (e?: any) => void) => fn(err, req, res, n) : (n: (e?: any) => void) => fn(req, res, n)
  traceRequestCall(exec, ctx, next)
}

/**
 * The call as `switchyard.layer` traces it, for use inside the request
 * channel: it publishes that channel's events, and leaves passing a throw or
 * a rejection on to the caller (it rethrows, or returns a promise that
 * rejects with the same value after its events).
 */
function layerExec(layer: Layer, kind: LayerKind, req: any, res: any, err: unknown): (next: (err?: any) => void) => unknown {
  return (next) => {
    const ctx = contextFor(layer, req, res, kind)
    const ret = callInLayerChannel(ctx, layer, kind, req, res, err, next) as PromiseLike<unknown>
    if (!isThenable(ret)) return ret
    warnThenable(ret, ThenableSite.Traced)
    return new Promise((resolve, reject) => followLayerPromise(ctx, ret, resolve, reject))
  }
}
