/**
 * Filling the params objects the router's own matchers make, with code made
 * for their keys.
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
 * The segment matchers of src/router/layer.ts are made the same way, one
 * for each pattern (and parent key list): their params are filled by the
 * same lines (`fillLines`), with the key lists given by `keysAfter`
 *.
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
/** The key lists given so far (keysAfter), bounded as the fills are. */
const keyLists = new Map<string, readonly string[]>()
const MAX_FILLERS = 1000

/**
 * The builtins a fill is made with, as they were when this module loaded
 * (`stringify` also quotes the texts of layer.ts's compiled matchers: JSON's
 * string literals are JavaScript's).
 */
export const stringify = JSON.stringify
const FunctionConstructor = Function
const EvalErrorConstructor = EvalError

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
 * none (see above). `copied` must be a key list a filler or a compiled
 * matcher gave (`keysAfter`), or NO_KEYS.
 */
export function fillerFor(copied: readonly string[] | undefined, names: readonly string[]): Filler | null {
  if (!generating || names.length > FILL_VALUES || !fillable(copied, names)) return null
  const from = copied ?? NO_KEYS
  const id = stringify([from, names])
  const known = fillers.get(id)
  if (known !== undefined) return known
  if (fillers.size >= MAX_FILLERS) return null
  const fill = generate<Fill>(`return function fill(o, b, v0, v1, v2, v3) {\n${fillLines(from, names, 'v')}return o\n}`)
  if (fill === null) return null
  const filler: Filler = { fill, keys: keysAfter(from, names) }
  fillers.set(id, filler)
  return filler
}

/** Can a fill copy `copied` and store `names`? (no `__proto__`, no array index: see above) */
export function fillable(copied: readonly string[] | undefined, names: readonly string[]): boolean {
  if (copied !== undefined) for (const key of copied) if (key === '__proto__' || isArrayIndex(key)) return false
  for (const key of names) if (key === '__proto__' || isArrayIndex(key)) return false
  return true
}

/**
 * A fill's lines: `o` gets `copied` from `b`, then each of `names` from the
 * local `${value}0`, `${value}1`... (JSON's string literals are JavaScript's.)
 */
export function fillLines(copied: readonly string[], names: readonly string[], value: string): string {
  let body = ''
  for (const key of copied) body += `o[${stringify(key)}] = b[${stringify(key)}];\n`
  for (let i = 0; i < names.length; i++) body += `o[${stringify(names[i])}] = ${value}${i};\n`
  return body
}

/**
 * The own keys, in order, of an object filled with `copied` then `names`:
 * one frozen list for each, so that the matchers below, which keep the
 * last list they saw, compare lists by identity (bounded as the fills are).
 */
export function keysAfter(copied: readonly string[], names: readonly string[]): readonly string[] {
  const id = stringify([copied, names])
  const known = keyLists.get(id)
  if (known !== undefined) return known
  const keys: string[] = [...copied]
  for (const key of names) if (!keys.includes(key)) keys.push(key)
  Object.freeze(keys)
  if (keyLists.size < MAX_FILLERS) keyLists.set(id, keys)
  return keys
}

/**
 * Run `body` as strict code with `new Function`, its parameters named
 * `params` and given `args`, and return what it returns: null (for good)
 * once code generation from strings is refused (an EvalError). Any other
 * error would be a fault of the code made here: that one function is not
 * made, and its caller keeps the generic path.
 */
export function generate<T>(body: string, params: readonly string[] = [], args: readonly unknown[] = []): T | null {
  if (!generating) return null
  try {
    // eslint-disable-next-line no-new-func
    return new FunctionConstructor(...params, `'use strict'\n${body}`)(...args) as T
  } catch (err) {
    if (err instanceof EvalErrorConstructor) generating = false
    return null
  }
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
