// One of Node's `process.nextTick` tick objects, held for the life of the
// process (docs/design.md, Speed, item 58).
//
// Why: every request makes a few tick objects (Node's streams call
// `process.nextTick`), each an object literal with two computed symbol keys.
// V8 11 (Node 20) builds them through a chain of four hidden classes ("maps")
// and remembers, at each of the four stores, the one map it saw. Nothing holds
// those maps strongly but live tick objects. A full garbage collection that
// runs while no tick object is alive (a server idle after start-up, with a
// heap that grew while routes were registered) frees the chain; the next tick
// object builds a new one, the stores see a second map, and V8 turns them
// megamorphic for good: every tick object is then built through V8's runtime,
// with a map migration, ~35% more CPU per request for the life of the server.
// Holding one tick object keeps its maps alive, so the chain is never rebuilt.
//
// How: the tick object is the async resource of its own callback, which the
// public `async_hooks.executionAsyncResource()` returns; it is kept only if
// its `callback` is the function it was made for. Nothing else reads it or
// changes it. Without that function (another runtime), or given another
// object, nothing is held and nothing else changes: only the saving is lost.
import * as asyncHooks from 'node:async_hooks'

let held: object | undefined
let asked = false

/** Hold one tick object, once per process; the first router made asks (an app's, or one made alone). */
export function holdTickShape(): void {
  if (asked) return
  asked = true
  process.nextTick(takeResource)
}

function takeResource(): void {
  const current = (asyncHooks as { executionAsyncResource?: () => object }).executionAsyncResource
  if (typeof current !== 'function') return
  // kept only if it is the tick object made for this very callback (not,
  // say, what a fake nextTick of a test's timers runs it in)
  const resource = current() as { callback?: unknown } | undefined
  if (resource !== null && typeof resource === 'object' && resource.callback === takeResource) held = resource
}

/** The tick object held (for the tests), or undefined before it is taken or without the API. */
export function heldTickShape(): object | undefined {
  return held
}
