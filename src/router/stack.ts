// A router's stack as the dispatch uses it: the array itself, the Proxy that
// tools read and edit as `router.stack` (every edit bumps a version), and the
// index of the layers by exact path and by first path segment, rebuilt when
// the version moved. See docs/design.md (Speed, items 2, 8 and 10).
import { Layer, firstSegment, kInternals, ownMatcher } from './layer'
import type { FillerCache } from './params'

/** The static-route index of a router's stack, rebuilt when the stack changes. */
export interface StackIndex {
  /** the stack version it was built for (see kVersion) */
  version: number
  /** literal path -> indexes of the route layers matching exactly that path */
  literal: Map<string, number[]>
  /** first path segment -> indexes of the other layers that can only match paths starting with it */
  segment: Map<string, number[]>
  /** indexes of every other layer, in order */
  other: number[]
  /** for each stack index i: the position in `other` of the first index >= i */
  otherFrom: Int32Array
  sensitive: boolean
  strict: boolean
  /** sensitive and strict as one small integer, compared when the index is reused */
  mode: number
  /** whether the index keys any layer (else every layer is in `other`) */
  keyed: boolean
  /**
   * The last path looked up and what it found: a pure function of the path
   * and this index, so a pass of any request reuses it while the path is
   * the same (hello world's '/' on every request), with no lower-cased copy
   * and no Map lookup.
   */
  lastPath: string
  lastLiterals: number[] | undefined
  lastSegments: number[] | undefined
}

/**
 * A router's internals, in one object behind one hidden property (a router is
 * a function: every extra property it carries slows the loads the dispatch
 * makes from it).
 */
export interface RouterState {
  /** the stack array itself; `router.stack` is `view`, a Proxy over it that counts edits */
  stack: Layer[]
  view: Layer[]
  /** bumped by every edit of the stack (through the Proxy, by the router, or a new array) */
  version: number
  /** the index, valid while its version is `version` */
  index: StackIndex | undefined
  /** the fill of the params a '/' middleware gets under mergeParams, for the parent's last key list (src/router/params.ts) */
  slashFill: FillerCache
}

export const kState = Symbol('switchyard.router.state')

// ---- the stack as tools see it ---------------------------------------------
// Tools and apps read and edit `router.stack` (route listers, APM agents, apps
// that move a layer). The router dispatches from the array itself and keeps an
// index of it; `router.stack` is a Proxy over that array whose every write
// (index assignment, push, splice, sort, length) bumps the version, so the
// index is rebuilt before the next request. A new array assigned to
// `router.stack` is noticed when the next request enters (an identity check).
// The hot path never goes through the Proxy.

export function newState(stack: Layer[]): RouterState {
  const state: RouterState = { stack, view: stack, version: 0, index: undefined, slashFill: { copied: undefined, filler: null } }
  state.view = new Proxy(stack, {
    set(target, key, value) {
      state.version++
      return Reflect.set(target, key, value)
    },
    deleteProperty(target, key) {
      state.version++
      return Reflect.deleteProperty(target, key)
    },
    defineProperty(target, key, descriptor) {
      state.version++
      return Reflect.defineProperty(target, key, descriptor)
    }
  })
  return state
}

/** The router's state, taking over a new array assigned to `router.stack`. */
export function stateOf(router: { stack: unknown; [kState]: RouterState }): RouterState {
  let state = router[kState]
  const stack = router.stack
  if (stack !== state.view) {
    const version = state.version + 1
    state = newState(Array.isArray(stack) ? stack : [])
    state.version = version
    router[kState] = state
    router.stack = state.view
  }
  return state
}

/**
 * Stacks up to this many layers get an empty index: every layer is tried in
 * turn. Looking a path up costs a lower-cased copy of it, its first segment
 * and two Map lookups, more than trying a few layers.
 */
export const LINEAR_MAX = 4

/** Build (or reuse) the index for the stack as it is now. */
export function indexOf(state: RouterState, sensitive: boolean, strict: boolean): StackIndex {
  const cached = state.index
  // (the options compared as one integer: `===` on two booleans compiles to
  // a call of V8's generic StrictEqual builtin, two per router pass)
  const mode = (sensitive ? 1 : 0) | (strict ? 2 : 0)
  if (cached !== undefined && cached.version === state.version && cached.mode === mode) return cached
  const stack = state.stack
  // a short stack is tried layer by layer: cheaper than making the lookup keys
  const linear = stack.length <= LINEAR_MAX
  const literal = new Map<string, number[]>()
  const segment = new Map<string, number[]>()
  const other: number[] = []
  const otherFrom = new Int32Array(stack.length + 1)
  const add = (map: Map<string, number[]>, keys: string[], i: number) => {
    for (const key of new Set(keys)) {
      const list = map.get(key)
      if (list) list.push(i)
      else map.set(key, [i])
    }
  }
  for (let i = 0; i < stack.length; i++) {
    const layer = stack[i]
    // (a layer whose match a tool replaced is tried in turn: router@2.3 asks every layer)
    const keys = !linear && layer instanceof Layer && layer[kInternals].sensitive === sensitive && ownMatcher(layer) ? layer[kInternals] : undefined
    const lits = keys !== undefined && layer.route && keys.end && keys.strict === strict ? keys.literals : undefined
    const segs = keys !== undefined && lits === undefined ? keys.segments : undefined
    if (lits) add(literal, lits, i)
    else if (segs) add(segment, segs, i)
    else other.push(i)
  }
  for (let i = stack.length, pos = other.length; i >= 0; i--) {
    while (pos > 0 && other[pos - 1] >= i) pos--
    otherFrom[i] = pos
  }
  const keyed = literal.size !== 0 || segment.size !== 0
  const index: StackIndex = { version: state.version, literal, segment, other, otherFrom, sensitive, strict, mode, keyed, lastPath: '', lastLiterals: undefined, lastSegments: undefined }
  // (the last path starts as '', looked up now: it is always a string, so
  // the comparison in lookUp compiles to a string comparison, not V8's
  // generic one for a string against undefined)
  find(index, '')
  state.index = index
  return index
}

/** The position of the first entry >= idx in a sorted list of stack indexes. */
export function from(list: number[], idx: number): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (list[mid] < idx) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Look `path` up in a keyed index: the hits land in `index.lastLiterals` and `index.lastSegments`. */
export function lookUp(index: StackIndex, path: string): void {
  if (path !== index.lastPath) find(index, path)
}

/** Look `path` up in the index's maps (see lookUp). */
function find(index: StackIndex, path: string): void {
  const key = literalKey(path, index)
  index.lastLiterals = index.literal.size !== 0 ? index.literal.get(key) : undefined
  index.lastSegments = index.segment.size !== 0 ? index.segment.get(firstSegment(key)) : undefined
  index.lastPath = path
}

/** The key under which a request path is looked up in the static-route index. */
export function literalKey(path: string, index: StackIndex): string {
  let key = path
  if (!index.strict && key.length > 1 && key.charCodeAt(key.length - 1) === 0x2f) key = key.slice(0, -1)
  return index.sensitive ? key : key.toLowerCase()
}
