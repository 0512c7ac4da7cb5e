// The built-in ETag generators: same tags as the `etag` package, a memo that
// can never hand out a stale tag.
import etag from 'etag'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import fw from '../src/index'
import { CACHE_MAX_BODY, CACHE_MAX_ENTRIES, CACHE_MAX_LARGE_BODY, CACHE_MAX_LARGE_ENTRIES, cacheSizes, entityTag, stringTag } from '../src/utils/etag'
import { strongETag, weakETag } from '../src/utils/compile'

const samples = ['', 'Hello World', 'é', '\u{1f600} emoji', 'x'.repeat(CACHE_MAX_BODY), 'y'.repeat(CACHE_MAX_BODY + 1), JSON.stringify({ a: [1, 2, 3] })]

describe('weak and strong tags', () => {
  for (const body of samples) {
    it(`match the etag package for a ${body.length}-character string`, () => {
      expect(weakETag(body)).toBe(etag(body, { weak: true }))
      expect(strongETag(body)).toBe(etag(body, { weak: false }))
      // asked twice (the second answer may come from the memo)
      expect(weakETag(body)).toBe(etag(body, { weak: true }))
    })
  }
  it('match the etag package for bytes and for other encodings', () => {
    const bytes = Buffer.from([0, 1, 2, 255])
    expect(weakETag(bytes)).toBe(etag(bytes, { weak: true }))
    expect(strongETag(bytes)).toBe(etag(bytes, { weak: false }))
    expect(weakETag('caf\u00e9', 'latin1')).toBe(etag(Buffer.from('caf\u00e9', 'latin1'), { weak: true }))
  })
})

describe('the tag memo', () => {
  it('gives a new tag when the body changes, even by one character', () => {
    const a = stringTag('status: ok', 10, true)
    const b = stringTag('status: ko', 10, true)
    expect(a).not.toBe(b)
    expect(stringTag('status: ok', 10, true)).toBe(a)
  })

  it('keeps weak and strong tags apart', () => {
    expect(stringTag('same body', 9, true)).toBe('W/' + stringTag('same body', 9, false))
  })

  it('stays bounded', () => {
    for (let i = 0; i < CACHE_MAX_ENTRIES * 3; i++) stringTag('body ' + i, 5 + String(i).length, true)
    expect(cacheSizes().weak).toBeLessThanOrEqual(CACHE_MAX_ENTRIES)
  })

  it('does not keep bodies over the large-body limit', () => {
    const before = cacheSizes()
    entityTag('z'.repeat(CACHE_MAX_LARGE_BODY + 10), undefined, false)
    expect(cacheSizes()).toEqual(before)
  })

  it('keeps long bodies under a sampled key, and a change between the samples still gives a new tag', () => {
    const base = 'q'.repeat(CACHE_MAX_BODY * 2)
    const tag = stringTag(base, base.length, true)
    expect(tag).toBe(etag(base, { weak: true }))
    expect(cacheSizes().weakLarge).toBeGreaterThan(0)
    // 2048 characters are sampled every 128: positions 1, 33, 1000 are never read by the key
    for (const at of [1, 33, 1000, base.length - 1]) {
      const changed = base.slice(0, at) + 'r' + base.slice(at + 1)
      expect(stringTag(changed, changed.length, true)).toBe(etag(changed, { weak: true }))
      // and the original body, asked again after a colliding body replaced its entry
      expect(stringTag(base, base.length, true)).toBe(tag)
    }
    const json = JSON.stringify({ users: Array.from({ length: 40 }, (_, i) => ({ id: i, name: 'user ' + i })) })
    const edited = json.replace('user 17', 'user 71')
    expect(stringTag(json, json.length, false)).toBe(etag(json))
    expect(stringTag(edited, edited.length, false)).toBe(etag(edited))
    expect(stringTag(json, json.length, false)).toBe(etag(json))
  })

  it('keeps the large-body caches bounded', () => {
    for (let i = 0; i < CACHE_MAX_LARGE_ENTRIES * 3; i++) stringTag(i + 'w'.repeat(CACHE_MAX_BODY + i), CACHE_MAX_BODY + i + String(i).length, false)
    expect(cacheSizes().strongLarge).toBeLessThanOrEqual(CACHE_MAX_LARGE_ENTRIES)
  })

  it('a response whose body changes gets a new ETag', async () => {
    const app = fw()
    let n = 0
    app.get('/', (req, res) => { res.send('count ' + (n++ % 2)) })
    const a = await request(app).get('/')
    const b = await request(app).get('/')
    const c = await request(app).get('/')
    expect(a.headers.etag).toBe(etag('count 0', { weak: true }))
    expect(b.headers.etag).toBe(etag('count 1', { weak: true }))
    expect(c.headers.etag).toBe(a.headers.etag)
  })
})

describe('headers stay readable after res.send', () => {
  it('ETag, Content-Length and Content-Type read back with the types Express gives', async () => {
    const app = fw()
    let seen: unknown[] = []
    app.get('/', (req, res) => {
      res.send('Hello World')
      seen = [res.getHeader('ETag'), res.getHeader('Content-Length'), res.getHeader('Content-Type'), res.getHeaders()['x-powered-by']]
    })
    await request(app).get('/').expect(200)
    expect(seen).toEqual([etag('Hello World', { weak: true }), '11', 'text/html; charset=utf-8', 'Switchyard'])
  })
})
