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
import { isThenable, rejectionError, type Layer } from './layer'

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

/** Read the channels' state; called when a request enters a router. */
export function refreshTracing(): void {
  layerTracing = layerActive()
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
  const fn = layer.handle
  const tracedNext = (e?: any) => {
    if (e && e !== 'route' && e !== 'router') {
      ctx.error = e
      layerChannel.error.publish(ctx)
    }
    next(e)
  }
  let threw = false
  let thrown: unknown
  let ret: any
  layerChannel.start.runStores(ctx, () => {
    try {
      ret = kind === 'error handler' ? fn(err, req, res, tracedNext) : fn(req, res, tracedNext)
      ctx.result = ret
    } catch (e) {
      threw = true
      thrown = e
      ctx.error = e
      layerChannel.error.publish(ctx)
    } finally {
      layerChannel.end.publish(ctx)
    }
  })
  if (threw) {
    next(thrown)
    return
  }
  if (isThenable(ret)) {
    const rejected = (e: unknown) => {
      ctx.error = e
      layerChannel.error.publish(ctx)
      layerChannel.asyncStart.publish(ctx)
      layerChannel.asyncEnd.publish(ctx)
      next(e)
    }
    try {
      ret.then((value) => {
        ctx.result = value
        layerChannel.asyncStart.publish(ctx)
        layerChannel.asyncEnd.publish(ctx)
      }, (reason) => rejected(rejectionError(reason)))
    } catch (e) {
      // a `then` that throws is a rejection, passed on as it is (as untraced)
      rejected(e)
    }
  }
}
