// Entity tags for dynamic responses, as the `etag` package makes them:
// `"<byte length in hex>-<first 27 chars of the base64 SHA-1>"`, prefixed
// with `W/` when weak. String bodies, which repeat far more often than not
// (constant texts, JSON answers), keep their tag in a bounded cache: short
// ones keyed by the body itself, longer ones (up to 16 K characters) under a
// sampled key and confirmed by comparing the whole body. A tag is a pure
// function of the body, so the cache only ever saves the hashing.
import crypto from 'node:crypto'
import nodeBuffer from 'node:buffer'

/** node:buffer's Buffer, as Express's utils.js takes it for its ETags (see src/response.ts). */
const Buffer = nodeBuffer.Buffer

/** The tag of `data` whose UTF-8 byte length is `length`. */
function makeTag(data: string | Buffer, length: number, weak: boolean): string {
  const tag = '"' + length.toString(16) + '-' + crypto.hash('sha1', data, 'base64').substring(0, 27) + '"'
  return weak ? 'W/' + tag : tag
}

/** Bodies up to this length (in UTF-16 units) are cached by the body itself (V8 hashes the whole key). */
export const CACHE_MAX_BODY = 1024
/** Entries per cache; the oldest entry leaves when a new one arrives. */
export const CACHE_MAX_ENTRIES = 256
/**
 * Longer bodies up to this length are cached under a cheap sampled key and
 * confirmed by comparing the whole body; longer ones are hashed every time.
 */
export const CACHE_MAX_LARGE_BODY = 16 * 1024
/** Entries of each large-body cache (at most 64 x 16 K characters kept). */
export const CACHE_MAX_LARGE_ENTRIES = 64

const weakCache = new Map<string, string>()
const strongCache = new Map<string, string>()

interface LargeEntry {
  body: string
  tag: string
}
const weakLarge = new Map<number, LargeEntry>()
const strongLarge = new Map<number, LargeEntry>()

/**
 * A key for a long body: its length and 16 characters spread over it. Two
 * bodies may share a key; the entry found is used only when its body is
 * equal to this one (comparing 2 KB costs ~0.1 us, hashing it ~1.4 us).
 * More samples cost ~35 instructions each and only help when same-length
 * bodies alternate.
 */
function sampleKey(body: string): number {
  const n = body.length
  const step = (n >>> 4) || 1
  let h = n
  for (let i = 0; i < n; i += step) h = (Math.imul(h, 31) + body.charCodeAt(i)) | 0
  return h
}

function largeTag(body: string, length: number, weak: boolean): string {
  const cache = weak ? weakLarge : strongLarge
  const key = sampleKey(body)
  const entry = cache.get(key)
  if (entry !== undefined && entry.body === body) return entry.tag
  const tag = makeTag(body, length, weak)
  if (entry !== undefined) cache.delete(key)
  else if (cache.size >= CACHE_MAX_LARGE_ENTRIES) cache.delete(cache.keys().next().value as number)
  cache.set(key, { body, tag })
  return tag
}

/** The tag of a string body whose UTF-8 byte length is known. */
export function stringTag(body: string, length: number, weak: boolean): string {
  if (body.length > CACHE_MAX_BODY) {
    return body.length > CACHE_MAX_LARGE_BODY ? makeTag(body, length, weak) : largeTag(body, length, weak)
  }
  const cache = weak ? weakCache : strongCache
  let tag = cache.get(body)
  if (tag === undefined) {
    tag = makeTag(body, length, weak)
    if (cache.size >= CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value as string)
    cache.set(body, tag)
  }
  return tag
}

/** The tag of a body: a string (with `encoding`, default UTF-8) or bytes. */
export function entityTag(body: string | Buffer, encoding: BufferEncoding | undefined, weak: boolean): string {
  if (typeof body === 'string') {
    if (encoding === undefined || encoding === 'utf8' || encoding === 'utf-8') {
      return stringTag(body, Buffer.byteLength(body, 'utf8'), weak)
    }
    const bytes = Buffer.from(body, encoding)
    return makeTag(bytes, bytes.length, weak)
  }
  return makeTag(body, body.length, weak)
}

/** How many entries each cache holds now (for tests). */
export function cacheSizes(): { weak: number; strong: number; weakLarge: number; strongLarge: number } {
  return { weak: weakCache.size, strong: strongCache.size, weakLarge: weakLarge.size, strongLarge: strongLarge.size }
}
