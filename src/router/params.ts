/**
 * Filling the params objects the router's own matchers make, with code made
 * for their keys (docs/design.md, Speed, item 55).
 *
 * A matcher stores each parameter as `params[name] = value`. The matchers
 * share that line, so V8 sees every pattern's objects there, and the store
 * goes through its megamorphic keyed-store stub (~250 instructions a
 * parameter). Under `mergeParams`, the copy of the parent's params,
 * `Object.assign({}, parent)`, costs ~500 more, one key at a time through a
 * generic builtin. A fill is one small function per list of keys, made with
 * `new Function`: `o["version"] = b["version"]; o["uid"] = v0; return o`.
 * Each of its lines sees one key and few object shapes, and V8 compiles it
 * to a few loads and stores.
 *
 * It is the same JavaScript: each line is a `[[Get]]` of the parent's key
 * and a `[[Set]]` on the new object (strict code: a store that fails
 * throws, as `Object.assign`'s does), in the order `Object.assign` takes
 * the keys, then the parameters in capture order. Two conditions make it
 * that order, and the callers keep them:
 * - the parent's params must have exactly the own keys `copied`, in that
 *   order, as data properties: a fill copies only what the router itself
 *   made and no code has touched since (src/router/index.ts, `parentKeys`);
 * - no key may be an array index, which an object lists before every other
 *   key whatever the order of its stores, or `__proto__` (the generic path
 *   takes both, as it always did).
 *
 * Where code cannot be made from strings (Node's
 * `--disallow-code-generation-from-strings`), the first attempt throws,
 * and every matcher keeps the generic path: the same objects, more slowly.
 */

/** Stores `names` (the values `v0`...) into `o`, after copying `copied` from `base`; returns `o`. */
export type Fill = (o: Record<string, any>, base: Record<string, any> | undefined, v0: unknown, v1: unknown, v2: unknown, v3: unknown) => Record<string, any>

/** A fill and the own keys of the object it leaves (in their order). */
export interface Filler {
  readonly fill: Fill
  readonly keys: readonly string[]
}

/** The most parameters a fill takes: a pattern with more keeps the generic path. */
export const FILL_VALUES = 4

/** The fills made so far, by their key lists (bounded: past it, new lists keep the generic path). */
const fillers = new Map<string, Filler>()
const MAX_FILLERS = 1000

/** The builtins a fill is made with, as they were when this module loaded. */
const stringify = JSON.stringify
const FunctionConstructor = Function

/** Set to false when `new Function` throws: code generation from strings is disallowed. */
let generating = true

/** No keys (a literal path's params, or a parent's without any). */
export const NO_KEYS: readonly string[] = Object.freeze([])

/** Is `key` a canonical array index ('0', '1', ... below 2**32 - 1)? */
export function isArrayIndex(key: string): boolean {
  const n = key.length
  if (n === 0 || n > 10) return false
  const first = key.charCodeAt(0)
  if (first === 0x30) return n === 1
  for (let i = 0; i < n; i++) {
    const c = key.charCodeAt(i)
    if (c < 0x30 || c > 0x39) return false
  }
  return Number(key) < 4294967295
}

/**
 * The filler for a parent's params with the own keys `copied` (undefined:
 * no parent to copy) and the parameters `names`, or null when there can be
 * none (see above). `copied` must be a key list a filler gave, or NO_KEYS.
 */
export function fillerFor(copied: readonly string[] | undefined, names: readonly string[]): Filler | null {
  if (!generating || names.length > FILL_VALUES) return null
  const from = copied ?? NO_KEYS
  for (const key of from) if (key === '__proto__' || isArrayIndex(key)) return null
  for (const key of names) if (key === '__proto__' || isArrayIndex(key)) return null
  const id = stringify([from, names])
  const known = fillers.get(id)
  if (known !== undefined) return known
  if (fillers.size >= MAX_FILLERS) return null
  // (JSON's string literals are JavaScript's)
  let body = ''
  for (const key of from) body += `o[${stringify(key)}] = b[${stringify(key)}];\n`
  for (let i = 0; i < names.length; i++) body += `o[${stringify(names[i])}] = v${i};\n`
  let fill: Fill
  try {
    // eslint-disable-next-line no-new-func
    fill = new FunctionConstructor(`'use strict'\nreturn function fill(o, b, v0, v1, v2, v3) {\n${body}return o\n}`)() as Fill
  } catch {
    generating = false
    return null
  }
  const keys: string[] = [...from]
  for (const key of names) if (!keys.includes(key)) keys.push(key)
  const filler: Filler = { fill, keys: Object.freeze(keys) }
  fillers.set(id, filler)
  return filler
}

/**
 * One matcher's last filler for a parent's key list: most matchers only
 * ever see one (their router is mounted in one place), so a compare of the
 * list's identity replaces the lookup.
 */
export interface FillerCache {
  copied: readonly string[] | undefined
  filler: Filler | null
}

/** The filler for `copied` and `names`, from `cache` when it holds that list. */
export function cachedFiller(cache: FillerCache, copied: readonly string[], names: readonly string[]): Filler | null {
  if (cache.copied === copied) return cache.filler
  const filler = fillerFor(copied, names)
  cache.copied = copied
  cache.filler = filler
  return filler
}

/** Whether fills are made at all (false once code generation from strings was refused): the router hands keys down only then. */
export function fillsGenerated(): boolean {
  return generating
}
