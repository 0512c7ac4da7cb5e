// One test per known advisory of the Express stack: each reproduces the attack,
// asserts the safe behaviour, and sends the same request to the express@5
// oracle, which must answer the same way. The threat list with the test for
// each is in docs/reliability.md.
import zlib from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import bodyParserOracle from 'body-parser'
import { both, express, fw, one, reportErrors, tempTree } from './support'

describe('CVE-2024-29041: open redirect through malformed URLs in res.location / res.redirect', () => {
  const targets = ['http://a.com\\@b.com', 'http://a.com\\\\@b.com/x', 'http://a.com%5c@b.com', '//evil.com', '/\\evil.com', '\\\\evil.com',
    'http://a.com\t@b.com', 'https://good.com:443\\@evil.com', 'http://a.com/\\@b.com', 'HTTP://A.COM\\@B.COM']
  const build = (app: any) => {
    app.get('/location', (req: any, res: any) => { res.location(String(req.query.to)).end() })
    app.get('/redirect', (req: any, res: any) => { res.redirect(String(req.query.to)) })
  }
  for (const to of targets) {
    it(`keeps the backslash of ${JSON.stringify(to)} escaped, as express does`, async () => {
      const q = encodeURIComponent(to)
      const answers = await both(build, [{ path: '/location?to=' + q }, { path: '/redirect?to=' + q }])
      for (const { ours, theirs } of answers) {
        expect(ours).toEqual(theirs)
        // safe: encoding never changes which host the URL points at (the bypass
        // turned a browser-normalised '\\' into %5C, moving the host to after the '@')
        const location = String(ours.headers.location)
        expect(new URL(location, 'http://base.test/').host).toBe(new URL(to, 'http://base.test/').host)
        expect(location).not.toMatch(/[\t\r\n]/)
      }
    })
  }
})

describe('CVE-2024-43796: XSS through the body of res.redirect', () => {
  const targets = ['javascript:alert(1)', '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "javascript:alert('x')//<b>",
    'http://x.com/?q=<svg onload=alert(1)>', '/p?a="b"&c=\'d\'']
  const build = (app: any) => { app.get('/r', (req: any, res: any) => { res.redirect(String(req.query.to)) }) }
  for (const to of targets) {
    for (const accept of ['text/html', 'text/plain', '*/*']) {
      it(`escapes ${JSON.stringify(to)} for Accept: ${accept}`, async () => {
        const { ours, theirs } = await one(build, { path: '/r?to=' + encodeURIComponent(to), headers: { Accept: accept } })
        expect(ours).toEqual(theirs)
        expect(ours.body).not.toMatch(/<(script|img|svg|b)\b/i)
        expect(ours.body).not.toMatch(/href="[^"]*"[^>]*"/)
      })
    }
  }
})

describe('CVE-2024-43799 / CVE-2024-43800: markup in a directory name echoed by the redirects of static and send', () => {
  const names = ['<img src=x onerror=alert(1)>', '"><svg onload=alert(1)>', "a'b<i>"]
  const tree = tempTree(Object.fromEntries(names.map((n) => [n + '/index.html', 'inside'])))
  afterAll(() => tree.remove())
  const build = (app: any, lib: any) => {
    app.use('/s', lib.static(tree.root))
    app.get('/f/*name', (req: any, res: any, next: any) => { res.sendFile(req.params.name.join('/'), { root: tree.root }, (err: any) => { if (err) next(err) }) })
    app.use(reportErrors)
  }
  for (const name of names) {
    it(`fw.static escapes ${JSON.stringify(name)} in the 301 body and Location`, async () => {
      const { ours, theirs } = await one(build, { path: '/s/' + encodeURIComponent(name), headers: { Accept: 'text/html' } })
      expect(ours.status).toBe(301)
      expect(ours).toEqual(theirs)
      expect(ours.body).not.toMatch(/<(img|svg|i)\b/)
      expect(String(ours.headers.location)).not.toMatch(/[<>" ]/)
    })
    it(`res.sendFile on ${JSON.stringify(name)} answers as express does, echoing no markup`, async () => {
      const { ours, theirs } = await one(build, { path: '/f/' + encodeURIComponent(name), headers: { Accept: 'text/html' } })
      expect(ours).toEqual(theirs)
      expect(ours.body).not.toMatch(/<(img|svg|i)\b/)
    })
  }
})

describe('CVE-2024-45296 and later path-to-regexp advisories: backtracking patterns', () => {
  // The hang limit in `both` (5 s) is the failure condition; a vulnerable matcher
  // takes minutes on these inputs.
  const patterns = ['/:a-:b', '/:a-:b-:c', '/:a.:b.:c', '/:a{-:b}{-:c}{-:d}', '/{:a}-{:b}-{:c}', '/:a::b', '/*a-*b', '/:a-*b']
  const long = ['/' + '-'.repeat(20000) + 'x', '/a' + '-a'.repeat(8000) + '/', '/' + '.'.repeat(20000), '/' + ':'.repeat(20000) + '/x', '/' + 'a-'.repeat(6000) + '/b']
  for (const pattern of patterns) {
    it(`${pattern}: registers (or refuses) as express does, and matches long paths in bounded time`, async () => {
      const register = (lib: any) => { try { lib().get(pattern, () => {}); return 'ok' } catch (err: any) { return err.name + ': ' + err.message } }
      const outcome = register(fw)
      expect(outcome).toBe(register(express))
      if (outcome !== 'ok') return
      const build = (app: any) => {
        app.get(pattern, (req: any, res: any) => { res.json(Object.keys(req.params)) })
        app.use((req: any, res: any) => { res.status(404).end() })
      }
      for (const { ours, theirs } of await both(build, long.map((path) => ({ path })))) expect(ours).toEqual(theirs)
    })
  }

  for (const groups of [6, 10, 24]) {
    it(`a route with ${groups} optional groups is refused at registration or matches in bounded time, as in express`, async () => {
      const pattern = '/x' + Array.from({ length: groups }, (_, i) => `{-:p${i}}`).join('')
      const register = (lib: any) => { try { lib().get(pattern, () => {}); return 'ok' } catch (err: any) { return err.name + ': ' + err.message } }
      const outcome = register(fw)
      expect(outcome).toBe(register(express))
      if (groups === 24) expect(outcome).toMatch(/^TypeError: Too many path combinations/)
      if (outcome !== 'ok') return
      const build = (app: any) => {
        app.get(pattern, (req: any, res: any) => { res.json(req.params) })
        app.use((req: any, res: any) => { res.status(404).end() })
      }
      const paths = ['/x' + '-a'.repeat(groups), '/x' + '-a'.repeat(groups + 1), '/x' + '-'.repeat(5000), '/x-' + 'a-'.repeat(3000) + '/']
      for (const { ours, theirs } of await both(build, paths.map((path) => ({ path })))) expect(ours).toEqual(theirs)
    })
  }
})

describe('CVE-2024-45590 / CVE-2025-13466: urlencoded depth floods and floods of &', () => {
  const build = (app: any, lib: any) => {
    app.post('/e', lib.urlencoded({ extended: true }), (req: any, res: any) => { res.json({ keys: Object.keys(req.body ?? {}).length }) })
    app.post('/s', lib.urlencoded(), (req: any, res: any) => { res.json({ keys: Object.keys(req.body ?? {}).length }) })
    app.use(reportErrors)
  }
  const form = { 'Content-Type': 'application/x-www-form-urlencoded' }
  const bodies: Array<[string, string]> = [
    ['depth flood a[b][b]... x 20,000', 'a' + '[b]'.repeat(20000) + '=1'],
    ['depth flood a[][][]... x 20,000', 'a' + '[]'.repeat(20000) + '=1'],
    ['depth flood of opening brackets', 'a' + '['.repeat(50000) + '=1'],
    ['flood of 90,000 &', '&'.repeat(90000)],
    ['flood of & with one key', '&'.repeat(50000) + 'a=1'],
    ['1,001 parameters', Array.from({ length: 1001 }, (_, i) => 'k' + i + '=1').join('&')],
    ['flood of =', '='.repeat(90000)]
  ]
  for (const [label, body] of bodies) {
    for (const route of ['/e', '/s']) {
      it(`${label} (${route === '/e' ? 'extended' : 'simple'}): a bounded answer, the same as body-parser`, async () => {
        const { ours, theirs } = await one(build, { method: 'POST', path: route, headers: form, body })
        expect(ours).toEqual(theirs)
        expect(ours.status).not.toBe(500)
      })
    }
  }
})

describe('CVE-2022-24999, CVE-2025-15284, CVE-2026-2391: qs prototype poisoning and arrayLimit bypasses', () => {
  const inputs = [
    '__proto__[polluted]=1', 'a[__proto__][polluted]=1', 'constructor[prototype][polluted]=1', 'a[constructor][prototype][polluted]=1',
    '__proto__=x&a=1', 'a[hasOwnProperty]=1&a[b]=2', 'toString=1', 'a[toString]=1',
    'a[]=' + Array.from({ length: 200 }, (_, i) => i).join('&a[]='),
    Array.from({ length: 150 }, (_, i) => 'a[]=' + i).join('&'),
    'a[' + 20 + ']=x', 'a[100]=x', 'a[101]=x', 'a[999999999]=x', 'a[0]=x&a[999999]=y',
    Array.from({ length: 120 }, (_, i) => `a[${i}]=${i}`).join('&'),
    'a[][b]=1&a[][b]=2', 'a[b][]=1&a[b][]=2&a[b][0]=3', 'a[]=1&a=2&a[x]=3', 'a=1,2,3', 'a[]=' + 'x,'.repeat(500)
  ]
  const describeValue = (v: unknown): unknown => (Array.isArray(v) ? { array: v.length } : v !== null && typeof v === 'object' ? { keys: Object.keys(v).slice(0, 5), proto: Object.getPrototypeOf(v) === null ? null : 'object' } : v)
  const build = (app: any, lib: any) => {
    app.set('query parser', 'extended')
    const report = (value: any) => ({ value: value === undefined ? null : Object.fromEntries(Object.keys(value).map((k) => [k, describeValue(value[k])])), polluted: ({} as any).polluted ?? null })
    app.get('/q', (req: any, res: any) => { res.json(report(req.query)) })
    app.post('/b', lib.urlencoded({ extended: true }), (req: any, res: any) => { res.json(report(req.body)) })
    app.use(reportErrors)
  }
  for (const input of inputs) {
    it(`${input.length > 60 ? input.slice(0, 60) + '…' : input}: query and extended form parse as express does, Object.prototype untouched`, async () => {
      const answers = await both(build, [
        { path: '/q?' + input },
        { method: 'POST', path: '/b', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: input }
      ])
      for (const { ours, theirs } of answers) {
        expect(ours).toEqual(theirs)
        expect(JSON.parse(ours.body).polluted).toBeNull()
      }
      expect(({} as any).polluted).toBeUndefined()
      expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false)
    })
  }
})

describe('CVE-2024-47764: injection through cookie name, path and domain', () => {
  const cases: Array<[string, string, Record<string, unknown>]> = [
    ['a;b', 'v', {}], ['a=b', 'v', {}], ['a\r\nSet-Cookie: x', 'v', {}], ['a b', 'v', {}], ['a', 'v', { path: '/; Domain=evil.com' }],
    ['a', 'v', { path: '/\r\nX: y' }], ['a', 'v', { domain: 'good.com; Path=/admin' }], ['a', 'v', { domain: 'evil.com\n' }],
    ['a', 'v;Secure', {}], ['a', 'v\r\nX: 1', {}], ['a', 'v', { path: '/ok' }], ['a', 'v', { domain: '.good.com' }], ['a', 'v', { sameSite: 'none;x' }],
    ['a', 'v', { priority: 'high\n' }]
  ]
  const build = (app: any) => {
    app.get('/c/:i', (req: any, res: any) => {
      const [name, value, options] = cases[Number(req.params.i)]
      res.cookie(name, value, options).send('set')
    })
    app.use(reportErrors)
  }
  cases.forEach(([name, value, options], i) => {
    it(`res.cookie(${JSON.stringify(name)}, ${JSON.stringify(value)}, ${JSON.stringify(options)}) refuses or encodes, as express does`, async () => {
      const { ours, theirs } = await one(build, { path: '/c/' + i })
      expect(ours).toEqual(theirs)
      const setCookie = ([] as string[]).concat(ours.headers['set-cookie'] ?? [])
      expect(setCookie.length).toBeLessThanOrEqual(1)
      for (const c of setCookie) {
        expect(c).not.toMatch(/[\r\n]/)
        expect(c.toLowerCase()).not.toContain('domain=evil.com')
        expect(c).not.toMatch(/; Path=\/admin|; Secure/)
      }
    })
  })
})

describe('CVE-2026-12590: a body limit that does not parse never turns the size check off', () => {
  const bad: Array<[string, unknown]> = [['NaN', NaN], ["''", ''], ['false', false], ['Number(unset env)', Number(process.env.SWITCHYARD_NO_SUCH_VARIABLE)], ["'abc'", 'abc']]
  for (const [label, limit] of bad) {
    for (const parser of ['json', 'raw', 'text', 'urlencoded'] as const) {
      it(`fw.${parser}({ limit: ${label} }) throws the TypeError body-parser 2.4 throws`, () => {
        const message = (() => { try { (bodyParserOracle as any)[parser]({ limit }) } catch (err: any) { return err.message } return 'no error' })()
        expect(message).toMatch(/^option limit ".*" is invalid$/)
        expect(() => (fw as any)[parser]({ limit })).toThrow(new TypeError(message))
      })
    }
  }

  it('a 100 KB gzip bomb (inflating to 100 MB) gets 413 under the default limit, as with body-parser', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(100 * 1024 * 1024, 0x20))
    expect(bomb.length).toBeLessThan(120 * 1024)
    const build = (app: any, lib: any) => {
      app.post('/j', lib.json(), (req: any, res: any) => { res.json({ parsed: true }) })
      app.post('/t', lib.text(), (req: any, res: any) => { res.json({ parsed: true }) })
      app.use(reportErrors)
    }
    const answers = await both(build, ['/j', '/t'].map((path) => ({ method: 'POST', path, headers: { 'Content-Type': path === '/j' ? 'application/json' : 'text/plain', 'Content-Encoding': 'gzip' }, body: bomb })))
    for (const { ours, theirs } of answers) {
      expect(ours).toEqual(theirs)
      expect(ours.status).toBe(413)
      expect(JSON.parse(ours.body).type).toBe('entity.too.large')
    }
  })

  it('a brotli bomb gets 413 under an explicit limit, as with body-parser', async () => {
    const bomb = zlib.brotliCompressSync(Buffer.alloc(64 * 1024 * 1024))
    expect(bomb.length).toBeLessThan(4096)
    const build = (app: any, lib: any) => {
      app.post('/r', lib.raw({ limit: '1mb' }), (req: any, res: any) => { res.json({ length: req.body.length }) })
      app.use(reportErrors)
    }
    const { ours, theirs } = await one(build, { method: 'POST', path: '/r', headers: { 'Content-Type': 'application/octet-stream', 'Content-Encoding': 'br' }, body: bomb })
    expect(ours).toEqual(theirs)
    expect(ours.status).toBe(413)
  })
})
