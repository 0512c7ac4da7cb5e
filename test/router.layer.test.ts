// The static fast path must decide exactly as path-to-regexp would.
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { match } from 'path-to-regexp'
import { Layer, decodeParam, kInternals, matchLayer, segmentParts } from '../src/router/layer'
import { fillerFor, fillsGenerated, generate, isArrayIndex } from '../src/router/params'
import { pathToRegexp } from 'path-to-regexp'

/** The router's match of a layer, as router@2's matchers give it: `merged` (set only when the router asks a matcher to merge) is false here. */
function matchOf(layer: Layer, path: string): { path: string; params: Record<string, any> } | null {
  const m = matchLayer(layer, path)
  if (m === null) return null
  expect(m.merged).toBe(false)
  return { path: m.path, params: m.params }
}

const noop = () => {}

function viaRegexp(path: string, opts: { end: boolean; strict: boolean; sensitive: boolean }, decode: (s: string) => string = decodeURIComponent) {
  const loosened = opts.strict || path === '/' ? path : path.replace(/\/+$/, '')
  const m = match(loosened, { end: opts.end, trailing: !opts.strict, sensitive: opts.sensitive, decode })
  return (p: string) => {
    const r = m(p)
    return r ? { path: r.path, params: r.params } : null
  }
}

const patterns = ['/', '/foo', '/foo/', '/foo/bar', '/Foo', '/a.b', '/x-y/z', '', '/foo//']
const requests = ['/', '//', '/foo', '/foo/', '/foo//', '/FOO', '/foo/bar', '/foo/bar/', '/foobar', '/Foo/Bar', '/a.b', '/aXb', '/x-y/z/w', '/x-y/z/', '', '/fo']

describe('Layer static matching agrees with path-to-regexp', () => {
  for (const end of [true, false]) {
    for (const strict of end ? [true, false] : [false]) {
      for (const sensitive of [true, false]) {
        it(`end=${end} strict=${strict} sensitive=${sensitive}`, () => {
          for (const pattern of patterns) {
            if (!end && pattern === '/') continue // the slash fast path, tested below
            const layer = new Layer(pattern, { end, strict, sensitive }, noop)
            const expected = viaRegexp(pattern, { end, strict, sensitive })
            for (const path of requests) {
              expect({ pattern, path, got: matchOf(layer, path) }).toEqual({ pattern, path, got: expected(path) })
            }
          }
        })
      }
    }
  }

  it("a non-ending layer on '/' matches everything with an empty path", () => {
    const layer = new Layer('/', { end: false }, noop)
    expect(layer.slash).toBe(true)
    expect(matchOf(layer, '/anything/at/all')).toEqual({ path: '', params: {} })
  })

  it('records literal paths only for parameter-free string paths', () => {
    expect(new Layer('/a/b', { end: true }, noop)[kInternals].literals).toEqual(['/a/b'])
    expect(new Layer(['/A', '/b/'], { end: true }, noop)[kInternals].literals).toEqual(['/a', '/b'])
    expect(new Layer('/A', { end: true, sensitive: true }, noop)[kInternals].literals).toEqual(['/A'])
    expect(new Layer('/a/:id', { end: true }, noop)[kInternals].literals).toBeUndefined()
    expect(new Layer(/a/, { end: true }, noop)[kInternals].literals).toBeUndefined()
    expect(new Layer(['/a', /b/], { end: true }, noop)[kInternals].literals).toBeUndefined()
    expect(new Layer('/caf\u00e9', { end: true }, noop)[kInternals].literals).toBeUndefined()
  })

  it('matches escaped special characters literally', () => {
    const layer = new Layer('/a\\(b\\)', { end: true }, noop)
    expect(layer[kInternals].literals).toEqual(['/a(b)'])
    expect(matchOf(layer, '/a(b)')).toEqual({ path: '/a(b)', params: {} })
    expect(matchOf(layer, '/ab')).toBeNull()
  })

  it('does not fold non-ASCII look-alikes onto ASCII letters', () => {
    const layer = new Layer('/k', { end: true }, noop)
    expect(matchOf(layer, '/\u212a')).toBeNull() // KELVIN SIGN lower-cases to 'k'
    expect(matchOf(layer, '/K')).not.toBeNull()
  })

  it('throws at registration for an invalid pattern, with path-to-regexp\'s message', () => {
    expect(() => new Layer('*', { end: true }, noop)).toThrow(/Missing parameter name/)
    expect(() => new Layer('/:', { end: true }, noop)).toThrow(/Missing parameter name/)
    expect(() => new Layer('/a(b', { end: true }, noop)).toThrow()
  })

  it('names regexp parameters by index, or by group name', () => {
    const layer = new Layer(/^\/(\d+)\/(?:x|y)\/(?<name>[a-z]+)\/([a-z])$/, { end: true }, noop)
    expect(matchOf(layer, '/12/x/abc/q')).toEqual({ path: '/12/x/abc/q', params: { 0: '12', name: 'abc', 1: 'q' } })
  })

  it('decodes parameters and reports malformed escapes with status 400', () => {
    const layer = new Layer('/u/:id', { end: true }, noop)
    expect(matchOf(layer, '/u/a%2Fb')).toEqual({ path: '/u/a%2Fb', params: { id: 'a/b' } })
    let error: any
    try { matchOf(layer, '/u/%E0%A4%A') } catch (e) { error = e }
    expect(error).toBeInstanceOf(URIError)
    expect(error.status).toBe(400)
    expect(error.message).toBe("Failed to decode param '%E0%A4%A'")
  })

  it('gives splat parameters as arrays of decoded segments', () => {
    const layer = new Layer('/f/*rest', { end: true }, noop)
    expect(matchOf(layer, '/f/a/b%20c')).toEqual({ path: '/f/a/b%20c', params: { rest: ['a', 'b c'] } })
  })
})

/**
 * Every pattern's layer gives path-to-regexp's `match` for every path: the
 * match, its params (with their keys in order and no prototype), or the
 * same 400 error for a malformed escape.
 */
function expectSameMatches(patterns: string[], requests: string[], opts: { end: boolean; strict: boolean; sensitive: boolean }): void {
  const outcome = (f: () => any) => { try { return f() } catch (e: any) { return { error: e.message, status: e.status } } }
  for (const pattern of patterns) {
    const layer = new Layer(pattern, opts, noop)
    const expected = viaRegexp(pattern, opts, decodeParam)
    for (const path of requests) {
      const got = outcome(() => matchOf(layer, path))
      const want = outcome(() => expected(path))
      expect({ pattern, path, got }).toEqual({ pattern, path, got: want })
      if (got && want && !got.error) {
        expect(Object.getPrototypeOf(got.params)).toBe(null)
        expect(Reflect.ownKeys(got.params)).toEqual(Reflect.ownKeys(want.params))
      }
    }
  }
}

describe('Layer parameter matching agrees with path-to-regexp\'s match', () => {
  // src/router/layer.ts fills params as a fast-mode object and then drops its
  // prototype; the result must be the same object path-to-regexp's match gives
  const patterns = ['/user/:id', '/:a/:b', '/:b/:a', '/:"0"/:"1"', '/a/:x/b/:y', '/Api/V:v/:id', '/u-:id', '/x.y/:z/', '/files/*path', '/x{/:opt}', '/:a{-:b}', '/"quoted":q', '/:__proto__', '/*all', '/p{/:x}/:y', '/x/:a.json', '/ü/:id']
  const requests = ['/user/42', '/user/a%20b', '/user/%E2%82%AC', '/user/%E0', '/a/b', '/a/1/b/2', '/a/%E0/c/1', '/a/1/B/2/', '/a/1/b/2/c', '/a/1/b//', '/api/v2/7', '/API/V2/7/', '/api/v/7', '/u-9', '/u-', '/x.y/1', '/x.y/1/', '/x.y//', '/files/x/y%2Fz/', '/x', '/x/1', '/x/f.json', '/one-two', '/one', '/quoted', '/z', '/p/y', '/p/1/2', '/', '//', '/user/42/', '/USER/7', '/user/42//', '/user//42', '/ü/1', '/%C3%BC/1', '/user/\n', '/a/b\u212a']
  for (const [end, strict] of [[true, false], [true, true], [false, false]] as const) {
    for (const sensitive of [true, false]) {
      it(`end=${end} strict=${strict} sensitive=${sensitive}`, () => {
        expectSameMatches(patterns, requests, { end, strict, sensitive })
      })
    }
  }

  it('keeps a parameter named __proto__ as an own property', () => {
    const m = new Layer('/:__proto__', { end: true }, noop).match('/v')
    if (m === false) throw new Error('no match')
    expect(Object.getOwnPropertyDescriptor(m.params, '__proto__')?.value).toBe('v')
    expect(Object.getPrototypeOf(m.params)).toBe(null)
  })

  it('gives a new params object on every match', () => {
    const layer = new Layer('/u/:id', { end: true }, noop)
    const a = matchOf(layer, '/u/1')!.params
    a.extra = true
    expect(matchOf(layer, '/u/1')!.params).toEqual(Object.assign(Object.create(null), { id: '1' }))
  })
})

describe('patterns matched by a scan of their segments', () => {
  // segmentParts reads the regexp path-to-regexp builds; the scan it enables
  // must give path-to-regexp's match for every pattern it accepts
  const scanned = ['/user/:id', '/:uid/posts', '/:pid', '/api/:version', '/a/:x/b/:y', '/x.y/:z', '/u-:id', '/:a/:b', '/Api/V:v/:id', '/:"0"/:"1"', '/:__proto__', '/a/:x/', '/A\\+B/:c', '/\\(x\\)/:y']
  const refused = ['/files/*path', '/x{/:opt}', '/:a{-:b}', '/ü/:id', '/*all', '/p{/:x}/:y', '/:a-:b', '/:a.:b', '/x/:a.json']
  const requests = ['/user/42', '/user/42/', '/user/42//', '/user//', '/user/', '/USER/7', '/user/42/x', '/user/a%20b', '/user/%E0', '/7/posts', '/7/posts/', '/7/posts/9', '/7/POSTS', '/7/postsx', '//posts', '/7//posts',
    '/api/v1', '/api/v1/', '/api/v1/users/42', '/api/v1//', '/api', '/a/1/b/2', '/a/1/b/2/', '/a/1/B/2/c', '/a//b/2', '/x.y/1', '/xzy/1', '/u-9', '/u-9/', '/u-', '/1/2', '/1/2/3', '/api/v2/7', '/API/v2/7', '/Api/V/7',
    '/A+B/1', '/a+b/1', '/(x)/1', '/x/1', '/', '', '//', '/user/\u212a', '/user/k\u212a', '/a/b\u212a', '/user/\n', '/%C3%BC/1', '/v']
  it('reads the common patterns and refuses the others', () => {
    for (const pattern of scanned) {
      for (const [end, trailing, sensitive] of [[true, true, false], [true, false, true], [false, true, false], [false, true, true]] as const) {
        const { regexp, keys } = pathToRegexp(pattern, { end, trailing, sensitive })
        expect({ pattern, end, trailing, sensitive, parts: segmentParts(regexp, keys.length) !== undefined }).toEqual({ pattern, end, trailing, sensitive, parts: true })
      }
    }
    for (const pattern of refused) {
      const { regexp, keys } = pathToRegexp(pattern, { end: true, trailing: true })
      expect({ pattern, parts: segmentParts(regexp, keys.length) }).toEqual({ pattern, parts: undefined })
    }
    // a regexp of another shape, or with other flags, is refused too
    expect(segmentParts(/^(?:\/([^\/]+))$/g, 1)).toBe(undefined)
    expect(segmentParts(/^(?:\/([^\/]+))$/, 2)).toBe(undefined)
    expect(segmentParts(/^(?:\/([^\/]+))(?:\/$)?(?=\/)/, 1)).toBe(undefined)
    expect(segmentParts(/^(?:\/([^\/]+)-x)$/, 1)).toBe(undefined)
  })
  for (const [end, strict] of [[true, false], [true, true], [false, false]] as const) {
    for (const sensitive of [true, false]) {
      it(`gives path-to-regexp's match with end=${end} strict=${strict} sensitive=${sensitive}`, () => {
        expectSameMatches([...scanned, ...refused], requests, { end, strict, sensitive })
      })
    }
  }
  it('merges the parent params as the regexp matcher does (mergeParams)', () => {
    const layer = new Layer('/:uid/posts', { end: false, strict: false, sensitive: false }, noop)
    const m = matchLayer(layer, '/42/posts/7', true, { version: 'v1', uid: 'parent' })!
    expect(m).toEqual({ path: '/42/posts', params: { version: 'v1', uid: '42' }, merged: true })
    expect(Object.keys(m.params)).toEqual(['version', 'uid'])
    expect(Object.getPrototypeOf(m.params)).toBe(Object.prototype)
  })
})

describe('a layer whose handle is replaced', () => {
  it('uses the new handler\'s arity (tools wrap layer.handle after registration)', () => {
    const calls: string[] = []
    const layer = new Layer('/', { end: false }, (req: any, res: any, next: any) => { calls.push('request'); next() })
    const next = (err?: any) => calls.push('next ' + (err ? err.message : ''))
    layer.handleRequest({}, {}, next)
    layer.handleError(new Error('e1'), {}, {}, next)
    // now an error handler: skipped for requests, called for errors
    layer.handle = (err: any, req: any, res: any, next: any) => { calls.push('error ' + err.message); next() }
    layer.handleRequest({}, {}, next)
    layer.handleError(new Error('e2'), {}, {}, next)
    // and back to a request handler
    layer.handle = (req: any, res: any, next: any) => { calls.push('request again'); next() }
    layer.handleRequest({}, {}, next)
    expect(calls).toEqual(['request', 'next ', 'next e1', 'next ', 'error e2', 'next ', 'request again', 'next '])
  })
})

describe('Layer matching with the parent params to merge (mergeParams)', () => {
  const noop = () => {}
  it('copies the parent params first, then the captures (a capture wins), into one ordinary object', () => {
    const parent = Object.assign(Object.create(null), { id: 'parent', top: 't' })
    const m = matchLayer(new Layer('/:id/:leaf', { end: true }, noop), '/c/l', true, parent)!
    expect(m.merged).toBe(true)
    expect(Reflect.ownKeys(m.params)).toEqual(['id', 'top', 'leaf'])
    expect(m.params).toEqual({ id: 'c', top: 't', leaf: 'l' })
    expect(Object.getPrototypeOf(m.params)).toBe(Object.prototype)
    expect(m.params).not.toBe(parent)
    expect(parent.id).toBe('parent')
    const literal = matchLayer(new Layer('/static', { end: false }, noop), '/static/x', true, parent)!
    expect(literal).toEqual({ path: '/static', params: { id: 'parent', top: 't' }, merged: true })
  })

  it('keeps its own captures when copying the parent params runs another match (a getter that routes)', () => {
    // the scan notes where each parameter ends for the matcher to read after
    // the copy; a getter on the parent params that matches another path in
    // between must not leave that path's ends behind
    const inner = new Layer('/:a/:b', { end: true }, noop)
    const other = new Layer('/:q/:r/:s', { end: true }, noop)
    const seen: unknown[] = []
    const parent = {
      get top() {
        seen.push(matchLayer(other, '/1/22/333', true, undefined)!.params)
        return 't'
      }
    }
    const m = matchLayer(inner, '/alpha/be%20ta', true, parent)!
    expect(m.params).toEqual({ top: 't', a: 'alpha', b: 'be ta' })
    expect(seen).toEqual([{ q: '1', r: '22', s: '333' }])
  })

  it('leaves the merge to the router when a capture is named "0" or "__proto__", or the path is a regexp', () => {
    const parent = { 0: 'p' }
    for (const [path, url] of [['/:"0"', '/x'], ['/:__proto__', '/x'], [/^\/(\d+)$/, '/5']] as const) {
      const m = matchLayer(new Layer(path, { end: true }, noop), url, true, parent)!
      expect(m.merged).toBe(false)
      expect(Object.values(m.params)).not.toContain('p')
    }
  })
})

describe('params filled by code made for their keys', () => {
  it('tells array indexes apart as an object orders its keys', () => {
    for (const key of ['0', '1', '10', '4294967294']) expect(isArrayIndex(key)).toBe(true)
    for (const key of ['', '01', '-1', '1.5', '4294967295', '99999999999', 'a', '1a', ' 1', '١']) expect(isArrayIndex(key)).toBe(false)
  })

  it('makes no fill for a key an object would order first, for __proto__, or for more than four captures', () => {
    expect(fillerFor(undefined, ['0'])).toBeNull()
    expect(fillerFor(['7'], ['a'])).toBeNull()
    expect(fillerFor(undefined, ['__proto__'])).toBeNull()
    expect(fillerFor(['__proto__'], [])).toBeNull()
    expect(fillerFor(undefined, ['a', 'b', 'c', 'd', 'e'])).toBeNull()
    expect(fillerFor(undefined, ['a', 'b', 'c', 'd'])).not.toBeNull()
  })

  it("copies the parent's keys, then stores the captures; a capture the parent has keeps its place", () => {
    const parent = fillerFor(undefined, ['x', 'y'])!
    const filler = fillerFor(parent.keys, ['y', 'z'])!
    expect(filler.keys).toEqual(['x', 'y', 'z'])
    const base = parent.fill(Object.create(null), undefined, 'X', 'Y', undefined, undefined)
    const params = filler.fill({}, base, 'y2', 'z2', undefined, undefined)
    expect(Reflect.ownKeys(params)).toEqual(['x', 'y', 'z'])
    expect(params).toEqual({ x: 'X', y: 'y2', z: 'z2' })
    // one fill per key lists
    expect(fillerFor(parent.keys, ['y', 'z'])).toBe(filler)
    // names that need quoting in the code
    const odd = fillerFor(undefined, ['a"b', 'c\\d', 'e\u2028f', '\u{1f600}'])!
    expect(Reflect.ownKeys(odd.fill({}, undefined, 1, 2, 3, 4))).toEqual(['a"b', 'c\\d', 'e\u2028f', '\u{1f600}'])
  })

  it('gives a layer the same match with the parent keys known as without', () => {
    const parentLayer = new Layer('/:version', { end: false }, noop)
    const parentMatch = matchLayer(parentLayer, '/v1/rest', undefined)!
    expect(parentMatch.keys).toEqual(['version'])
    expect(Object.getPrototypeOf(parentMatch.params)).toBeNull()
    for (const [path, url] of [['/:uid/posts', '/42/posts/7'], ['/users', '/users/7'], ['/:uid', '/4%202']] as const) {
      const known = matchLayer(new Layer(path, { end: false }, noop), url, true, parentMatch.params, parentMatch.keys)!
      const unknown = matchLayer(new Layer(path, { end: false }, noop), url, true, parentMatch.params, undefined)!
      expect(known.params).toEqual(unknown.params)
      expect(Reflect.ownKeys(known.params)).toEqual(Reflect.ownKeys(unknown.params))
      expect(Object.getPrototypeOf(known.params)).toBe(Object.prototype)
      expect(known.keys).toEqual(Reflect.ownKeys(known.params))
      expect(unknown.keys).toBeUndefined()
    }
  })

  it('keeps the generic path, with the same answers, where code cannot be made from strings', () => {
    const repoRoot = fileURLToPath(new URL('..', import.meta.url))
    const code = `
      const http = require('node:http')
      const fw = require('switchyardjs')
      const app = fw()
      const a = fw.Router({ mergeParams: true })
      const b = fw.Router({ mergeParams: true })
      b.get('/:pid', (req, res) => res.json({ keys: Object.keys(req.params), params: req.params, proto: Object.getPrototypeOf(req.params) === Object.prototype }))
      a.use('/users/:uid', b)
      app.use('/api/:version', a)
      const server = http.createServer(app).listen(0, async () => {
        const out = []
        for (let i = 0; i < 3; i++) {
          out.push(await new Promise((resolve) => http.get('http://127.0.0.1:' + server.address().port + '/api/v1/users/4%202/' + i, (res) => {
            let body = ''
            res.setEncoding('utf8').on('data', (c) => { body += c }).on('end', () => resolve(body))
          })))
        }
        server.close()
        let generated = true
        try { new Function('return 1') } catch { generated = false }
        process.stdout.write(JSON.stringify({ out, generated }))
      })`
    const run = (flags: string[]) => JSON.parse(execFileSync(process.execPath, [...flags, '-e', code], { cwd: repoRoot, encoding: 'utf8' }))
    const plain = run([])
    const refused = run(['--disallow-code-generation-from-strings'])
    expect(refused.generated).toBe(false)
    expect(plain.generated).toBe(true)
    expect(refused.out).toEqual(plain.out)
    expect(JSON.parse(plain.out[2])).toEqual({ keys: ['version', 'uid', 'pid'], params: { version: 'v1', uid: '4 2', pid: '2' }, proto: true })
  })
})

describe('segment matchers made for their pattern', () => {
  // the code made for a pattern must give what the generic path gives: the
  // match of path-to-regexp, the params' keys in order, their prototype by
  // the caller's `plain`, and the parent's params copied first
  const patterns = ['/user/:id', '/:uid/posts', '/:pid', '/api/:version', '/a/:x/b/:y', '/Api/V:v/:id', '/u-:id', '/x.y/:z/', '/:a/:b/:c/:d/:e', '/:a/:b/:c/:d/:e/:f/:g/:h/:i', '/:"0"/x', '/:__proto__', '/:"a\\"b"/:"\u2028"']
  const requests = ['/user/42', '/user/42/', '/user/42//', '/USER/7', '/user/a%20b', '/user/%E0', '/user/', '/7/posts', '/7/posts/', '/7/posts/9', '/7/POSTS', '/7/postsx', '//posts', '/7', '/7/', '/%41', '/api/v1', '/api/v1/users/42', '/Api/V2/7', '/api/v/7', '/a/1/b/2', '/a/1/b/2/', '/a//b/2', '/u-9', '/u-', '/x.y/1', '/x.y/1/', '/1/2/3/4/5', '/1/2/3/4/5/', '/1/2/3/4/5/6/7/8/9', '/1/2/3/4/5/6/7/8/%E0', '/0/x', '/v', '/', '', '//']
  const outcome = (f: () => any) => { try { return f() } catch (e: any) { return { error: e.message, status: e.status } } }
  // (more than eight parameters, an index key or __proto__: the generic path)
  const compiledFor = (pattern: string) => !pattern.includes('"0"') && !pattern.includes('__proto__') && pattern.split(':').length <= 9
  const shapeOf = (m: any) => m === false ? null : m && !m.error ? { path: m.path, entries: Reflect.ownKeys(m.params).map((k) => [k, m.params[k]]), proto: Object.getPrototypeOf(m.params), merged: m.merged } : m

  for (const [end, strict, sensitive] of [[true, false, false], [true, true, true], [false, false, false], [false, false, true]] as const) {
    it(`gives the generic path's params for each plain, end=${end} strict=${strict} sensitive=${sensitive}`, () => {
      const opts = { end, strict, sensitive }
      for (const pattern of patterns) {
        const matcher = new Layer(pattern, opts, noop).matchers[0]
        const expected = viaRegexp(pattern, opts, decodeParam)
        for (const path of requests) {
          const want = outcome(() => expected(path))
          for (const plain of [true, false, undefined]) {
            const got = outcome(() => matcher(path, plain) || null)
            // a route's params are a dictionary unless the caller copies them at once; a mount's keep the null prototype unless `plain`
            // (a '__proto__' key makes them a dictionary whatever the caller does with them)
            const proto = plain === true && !pattern.includes('__proto__') ? Object.prototype : null
            expect({ pattern, path, plain, got: shapeOf(got) }).toEqual({ pattern, path, plain, got: want && !want.error ? { path: want.path, entries: Reflect.ownKeys(want.params).map((k) => [k, want.params[k]]), proto, merged: false } : want })
            if (got && !got.error) {
              expect({ pattern, keys: got.keys }).toEqual({ pattern, keys: compiledFor(pattern) ? Reflect.ownKeys(got.params) : undefined })
            }
          }
        }
      }
    })
  }

  it("copies the parent's params by their known keys as the generic path copies them", () => {
    const parentLayer = new Layer('/:version/:uid', { end: false }, noop)
    const parent = parentLayer.matchers[0]('/v1/p', undefined) as any
    expect(parent.keys).toEqual(['version', 'uid'])
    // (paths without parameters too: a route or a mount under mergeParams copies the parent's params alone)
    const literals = ['/users', '/Users', '/a', '/posts/list', '/x.y/']
    const literalRequests = ['/users', '/USERS/7', '/users/', '/Users//', '/usersx', '/user', '/a', '/A/b', '/ab', '/posts/list/', '/posts/List/x', '/x.y', '/x.y/', '/x.y//']
    for (const pattern of [...patterns, ...literals]) {
      for (const [end, strict, sensitive] of [[true, false, false], [false, false, false], [true, true, true], [false, false, true]] as const) {
        const known = new Layer(pattern, { end, strict, sensitive }, noop).matchers[0]
        const unknown = new Layer(pattern, { end, strict, sensitive }, noop).matchers[0]
        for (const path of [...requests, ...literalRequests]) {
          const a = outcome(() => known(path, true, parent.params, parent.keys))
          const b = outcome(() => unknown(path, true, parent.params, undefined))
          expect({ pattern, end, strict, sensitive, path, got: shapeOf(a) }).toEqual({ pattern, end, strict, sensitive, path, got: shapeOf(b) })
          if (a && !a.error && a.merged) {
            expect({ pattern, end, strict, sensitive, path, keys: a.keys }).toEqual({ pattern, end, strict, sensitive, path, keys: compiledFor(pattern) ? Reflect.ownKeys(a.params) : undefined })
            expect(b.keys).toBeUndefined()
          }
        }
      }
    }
  })

  it('keeps to the parent it is given: a router mounted under two parents', () => {
    const first = new Layer('/:version/:uid', { end: false }, noop).matchers[0]('/v1/p', undefined) as any
    const second = new Layer('/:tenant', { end: false }, noop).matchers[0]('/t9', undefined) as any
    const matcher = new Layer('/:uid/posts', { end: false }, noop).matchers[0]
    for (let i = 0; i < 3; i++) {
      for (const [parent, want] of [[first, { version: 'v1', uid: '42' }], [second, { tenant: 't9', uid: '42' }]] as const) {
        const m = matcher('/42/posts/7', true, parent.params, parent.keys) as any
        expect(m.params).toEqual(want)
        expect(Reflect.ownKeys(m.params)).toEqual(Object.keys(want))
        expect(m.keys).toEqual(Object.keys(want))
      }
    }
  })

  it('leaves one function unmade, not all, when its code does not compile', () => {
    expect(generate('return function (', [], [])).toBeNull()
    expect(fillsGenerated()).toBe(true)
    expect(generate<(x: number) => number>('return function (x) { return x + a }', ['a'], [1])!(2)).toBe(3)
  })

  it('makes one matcher per pattern and key list, and gives each the same key list object', () => {
    const a = new Layer('/:uid/posts', { end: false }, noop).matchers[0]('/7/posts', undefined) as any
    const b = new Layer('/:uid/posts', { end: false }, noop).matchers[0]('/8/posts', undefined) as any
    const c = new Layer('/:uid', { end: true }, noop).matchers[0]('/9', undefined) as any
    expect(a.keys).toEqual(['uid'])
    expect(b.keys).toBe(a.keys)
    expect(c.keys).toBe(a.keys)
    expect(Object.isFrozen(a.keys)).toBe(true)
  })
})
