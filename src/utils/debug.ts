// The `debug` namespaces Express and its packages print to (DEBUG=...).
import createDebug from 'debug'

/** One debug namespace: `log(...)` prints as the `debug` package prints; `on()` says whether it would. */
export interface DebugNamespace {
  log: createDebug.Debugger
  on(): boolean
}

/**
 * A namespace, as express@5.3 and the packages it installs name theirs.
 * @example const debug = debugNamespace('router'); if (debug.on()) debug.log('dispatching %s %s', method, url)
 */
export function debugNamespace(name: string): DebugNamespace {
  const log = createDebug(name)
  // (a boolean whatever `enabled` was set to: the router tests it with `=== true`)
  return { log, on: () => !!log.enabled }
}
