// The `debug` namespaces Express and its packages print to (DEBUG=...), for
// the request path: a namespace is asked whether it is on with one property
// load, not a getter call per message.
import createDebug from 'debug'

/** One debug namespace: `log(...)` prints as the `debug` package prints; `on()` says whether it would. */
export interface DebugNamespace {
  log: createDebug.Debugger
  on(): boolean
}

/**
 * The debug module's function, held once: `createDebug` compiles to a load
 * of `default` from the bundle's import object, a dictionary, on every use.
 */
const debugModule = createDebug as { namespaces?: unknown }

/**
 * The debug module's function keeps its settings as properties (`names`,
 * `skips`, `formatters`, `namespaces`...), so many that V8 keeps them in
 * dictionary mode, and each `on()` below read `namespaces` through a generic
 * LoadIC call, once per router pass and per body read. V8 gives an object
 * fast properties again when it becomes a function's `prototype` (objects
 * built from it inherit from it): that is all this does. Nothing is added to
 * or changed on the debug function; should a V8 keep it slow, only the
 * saving is lost.
 */
function FastProperties(): void {}
FastProperties.prototype = debugModule

/**
 * A namespace, as express@5.3 and the packages it installs name theirs.
 * `on()` asks `log.enabled` (a getter on a function object, a few hundred
 * instructions per request in the real server) only when the debug module's
 * `namespaces` changed: that is when its own cache asks again
 * (`createDebug.enable()` sets it; DEBUG is read when the module loads).
 * @example const debug = debugNamespace('router'); if (debug.on()) debug.log('dispatching %s %s', method, url)
 */
export function debugNamespace(name: string): DebugNamespace {
  const log = createDebug(name)
  let seen: unknown = Symbol('not read yet')
  let enabled = false
  return {
    log,
    on(): boolean {
      const namespaces = debugModule.namespaces
      if (namespaces !== seen) {
        seen = namespaces
        // (a boolean whatever `enabled` was set to: the router tests it with `=== true`)
        enabled = !!log.enabled
      }
      return enabled
    }
  }
}
