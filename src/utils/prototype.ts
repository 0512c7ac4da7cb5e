// Giving a request or response another prototype without slowing down what
// follows, and small empty objects.

/** A private key that swapPrototype adds and deletes at once. */
const kSwap = Symbol('switchyard.swap')

/**
 * Whether V8 `version` (a `process.versions.v8` string) keeps an object
 * whose prototype was swapped in a transition tree, so that properties added
 * to it afterwards follow cached transitions and objects swapped alike share
 * their maps. V8 13 does (Node 24: its `Object.setPrototypeOf` result shares
 * maps as a freshly built object's does); V8 11 and 12 (Node 20 to 23) give
 * the object a map outside any tree, and each property added after that
 * builds a map for that one object.
 * Only speed rests on the answer: both ways of swapping leave the same own
 * keys, values and prototype.
 * @example swapKeepsMaps(process.versions.v8) // false on Node 20
 */
export function swapKeepsMaps(version: string): boolean {
  return Number.parseInt(version, 10) >= 13
}

/** The running V8's answer, read once at load. */
export const plainSwap = swapKeepsMaps(process.versions.v8)

/**
 * `Object.setPrototypeOf(obj, proto)` for a request or response, done the way
 * that keeps what follows fast on the running V8. Nothing observable differs
 * between the ways: own keys, their order, values and descriptors stay as they
 * are. An object that already has `proto` is left as it is.
 *
 * Why: V8 11 and 12 (Node 20 to 23) give an object whose prototype was
 * swapped a map of its own, outside any transition tree. Every property added
 * after that (`req.params`, `res.locals`, Node's own bookkeeping...) then
 * builds a new map for that one object, and every inline cache that meets it
 * turns megamorphic: a hello world on a server Switchyard cannot adopt cost
 * ~6x the CPU of one on an adopted server. A dictionary-mode object made from
 * a given map gets a map shared with all the others, and adding properties to
 * it builds none. V8 13 (Node 24) keeps the
 * swapped object's map in a tree: there a plain swap is the fast one, and a
 * dictionary-mode object only slows every later read.
 *
 * How, where V8 loses the maps: the key is added while the object still has
 * its ordinary map (a cached transition), and deleted after the swap, when it
 * is no longer the last step of a transition tree: V8 then turns the object
 * into dictionary mode. Adding after the swap would build one more map per
 * object.
 */
export function swapPrototype(obj: any, proto: object): void {
  if (Object.getPrototypeOf(obj) === proto) return // nothing to swap
  if (plainSwap || !Object.isExtensible(obj)) {
    Object.setPrototypeOf(obj, proto) // (throws on a frozen object, as in Express)
    return
  }
  obj[kSwap] = undefined
  try {
    Object.setPrototypeOf(obj, proto)
  } finally {
    delete obj[kSwap] // even when the swap throws (a cyclic prototype chain)
  }
}

/**
 * Put `obj`'s own properties named in `keys` in that order, after any it
 * has that are not named (each is taken out and defined again with its
 * descriptor). For the prototypes whose key order Express fixes: `for...in`
 * over a request or a response lists them in that order, and tools print
 * them so. Run once, when the module loads.
 * With `enumerable`, each is also made enumerable (or not).
 * @example orderKeys(request, ['header', 'get', 'accepts'])
 */
export function orderKeys(obj: object, keys: readonly string[], enumerable?: boolean): void {
  for (const key of keys) {
    const desc = Object.getOwnPropertyDescriptor(obj, key)
    if (desc === undefined) continue
    delete (obj as Record<string, unknown>)[key]
    // (a class's methods made enumerable, as those of a constructor function's prototype are)
    if (enumerable !== undefined) desc.enumerable = enumerable
    Object.defineProperty(obj, key, desc)
  }
}

/**
 * A new empty object, as `{}` is one: an ordinary object whose prototype is
 * Object.prototype (so its `constructor` is Object), with no own keys.
 * Nothing in the language tells the two apart, but V8 gives every `{}` room
 * for four properties (48 bytes) and an object made by this constructor only
 * what its constructor adds (none: 16 bytes, once V8 has seen a few). For
 * the objects the request path makes and usually leaves empty: the params of
 * every middleware on '/'.
 * @example const params = new EmptyObject()
 */
export const EmptyObject = function EmptyObject() {} as unknown as new () => Record<string, any>
EmptyObject.prototype = Object.prototype

/**
 * A new empty object without prototype, as `Object.create(null)` makes one,
 * in 16 bytes instead of 176: V8 makes `Object.create(null)` a dictionary
 * (a hash table), this one an ordinary fast-mode object given the null
 * prototype. Handlers that add keys to it get ordinary fast properties (an
 * empty object's map has no fields to lose, so the detached maps of swapPrototype do not
 * apply). `Object.setPrototypeOf` is a call into V8's runtime, though: it
 * costs more instructions than making and filling a dictionary. So it is
 * used where the object is copied afterwards (the params of a mount path
 * without parameters, which a `mergeParams` router below copies for every
 * layer: `Object.assign` from a dictionary goes through the runtime too) or
 * made once; `res.locals` and a route's params are dictionaries, as
 * Express's are.
 * @example HeaderStore.prototype = emptyNullObject()
 */
export function emptyNullObject(): Record<string, any> {
  const obj = new EmptyObject()
  Object.setPrototypeOf(obj, null)
  return obj
}
