// Function names in the BUILT package (npm test builds first): the bundler must
// not rename what users, tools and stack traces see. Compared with express@5.
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const require = createRequire(import.meta.url)
const repoRoot = fileURLToPath(new URL('..', import.meta.url))

/** The names a tool or a stack trace sees, for a library loaded as `lib`. Runs as plain JS in both module systems. */
const PROBE = `
function probe(lib) {
  const app = lib()
  const router = lib.Router()
  router.get('/r', function inRouter(req, res) { res.end() })
  app.use(lib.json(), lib.raw(), lib.text(), lib.urlencoded({ extended: false }))
  app.use(lib.static('.'))
  app.use('/router', router)
  app.get('/route', function inRoute(req, res) { res.end() })
  app.use('/sub', lib())
  const route = new lib.Route('/x')
  return {
    exports: {
      fw: lib.name, Router: lib.Router.name, Route: lib.Route.name, RouterRoute: lib.Router.Route && lib.Router.Route.name,
      json: lib.json.name, raw: lib.raw.name, text: lib.text.name, urlencoded: lib.urlencoded.name, static: lib.static.name
    },
    stack: app.router.stack.map((l) => [l.name, l.handle.name]),
    routeStack: app.router.stack.filter((l) => l.route).map((l) => l.route.stack.map((x) => x.name)),
    routeClass: route.constructor.name,
    routerConstructor: router.constructor.name,
    appMethods: ['use', 'route', 'handle', 'param', 'set', 'render', 'listen'].map((m) => app[m].name),
    routerMethods: ['use', 'route', 'handle', 'param'].map((m) => router[m].name),
    resMethods: ['send', 'json', 'set', 'cookie', 'render', 'status', 'sendFile'].map((m) => lib.response[m].name),
    // V8 words these from the source text of the failing call: the bundle must not show in them
    misuse: [['type', 12], ['type', null], ['type', {}], ['set', 12, 'x'], ['set', undefined, 'x'], ['set', Symbol('s'), 'x']].map(([m, ...args]) => {
      try { Object.create(lib.response)[m](...args); return 'no error' } catch (err) { return err.name + ': ' + err.message }
    })
  }
}
`

function run(code: string, type: 'commonjs' | 'module'): any {
  const args = type === 'module' ? ['--input-type=module', '-e', code] : ['-e', code]
  return JSON.parse(execFileSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8' }))
}

describe('names in the built package', () => {
  const express = run(`${PROBE}; process.stdout.write(JSON.stringify(probe(require('express'))))`, 'commonjs')
  const cjs = run(`${PROBE}; process.stdout.write(JSON.stringify(probe(require('switchyardjs'))))`, 'commonjs')
  const esm = run(`${PROBE}; import fw from 'switchyardjs'; process.stdout.write(JSON.stringify(probe(fw)))`, 'module')

  test('exports keep their source names (CJS), as express@5 names them', () => {
    expect({ ...cjs.exports, fw: undefined }).toEqual({ ...express.exports, fw: undefined })
  })

  test('exports keep their source names (ESM)', () => {
    expect(esm.exports).toEqual(cjs.exports)
  })

  test("a sample app's stack shows express@5's layer names", () => {
    // the two body parsers' middleware keep body-parser's names (jsonParser...), the sub-app is mounted_app
    expect(cjs.stack).toEqual(express.stack)
    expect(esm.stack).toEqual(express.stack)
    expect(cjs.routeStack).toEqual(express.routeStack)
  })

  test("misused res.type and res.set throw express@5's TypeErrors, word for word", () => {
    expect(cjs.misuse).toEqual(express.misuse)
    expect(esm.misuse).toEqual(express.misuse)
    expect(express.misuse[0]).toBe('TypeError: type.indexOf is not a function')
  })

  test('classes keep the names express@5 gives them', () => {
    for (const key of ['routeClass', 'routerConstructor', 'routerMethods']) expect(cjs[key], key).toEqual(express[key])
  })

  test('methods keep their source names (the built package against the TypeScript source)', async () => {
    const source = (await import('../src/index')).default as any
    const fromSource = new Function('lib', PROBE + '; return probe(lib)')(source)
    for (const key of ['appMethods', 'resMethods', 'routerMethods', 'stack', 'exports']) {
      expect(cjs[key], key).toEqual(fromSource[key])
      expect(esm[key], key).toEqual(fromSource[key])
    }
  })

  test('a stack trace through a route names the route layer handle', () => {
    const trace = (lib: string) => execFileSync(process.execPath, ['-e', `
      const lib = require('${lib}')
      const app = lib()
      app.get('/', function boom() { throw new Error('x') })
      app.use((err, req, res, next) => { process.stdout.write(err.stack.split('\\n').slice(1, 3).map((l) => l.trim().split(' ')[1]).join(',')) })
      app.handle({ method: 'GET', url: '/', headers: {} }, { setHeader() {}, getHeader() {}, end() {} })
    `], { cwd: repoRoot, encoding: 'utf8' })
    expect(trace('switchyardjs')).toBe('boom,' + trace('express').split(',')[1])
  })
})

// The build keeps every function's source name (esbuild's keepNames) but
// leaves `name` alone where the function already carries it: redefining it
// turns a function into a slow dictionary-mode object, and the app and the
// routers are read on every request.
describe('the built functions', () => {
  /** path -> name of every function reachable from the public surface, and from an app with a router, a route and a mounted app. */
  function names(fw: any): Map<string, string> {
    const out = new Map<string, string>()
    const seen = new Set<unknown>()
    const walk = (value: any, path: string, depth: number) => {
      if (value === null || (typeof value !== 'object' && typeof value !== 'function') || seen.has(value)) return
      seen.add(value)
      if (typeof value === 'function') out.set(path, value.name)
      if (depth === 0) return
      for (const key of Object.getOwnPropertyNames(value)) {
        if (key === 'caller' || key === 'arguments') continue
        const desc = Object.getOwnPropertyDescriptor(value, key)!
        if (desc.get) out.set(`${path}.get ${key}`, desc.get.name)
        if (desc.set) out.set(`${path}.set ${key}`, desc.set.name)
        if ('value' in desc) walk(desc.value, `${path}.${key}`, depth - 1)
      }
    }
    const app = fw()
    const router = fw.Router()
    router.get('/:id', () => {})
    const sub = fw()
    app.use('/r', router)
    app.use('/sub', sub)
    app.use(fw.json(), fw.urlencoded(), fw.raw(), fw.text(), fw.static('.'))
    walk(fw, 'fw', 3)
    walk(app, 'app', 2)
    walk(router, 'router', 2)
    walk(Object.getPrototypeOf(router), 'Router.prototype', 1)
    walk(fw.Route.prototype, 'Route.prototype', 1)
    app.router.stack.forEach((layer: any, i: number) => out.set(`app.router.stack[${i}].name`, layer.name))
    router.stack.forEach((layer: any, i: number) => out.set(`router.stack[${i}].name`, layer.name))
    return out
  }

  test('keep the names they have in the source', async () => {
    const built = names(require('switchyardjs'))
    const source = names((await import('../src/index')).default)
    // not vacuous: the walk reaches the app, the routers, the prototypes and the stacks
    expect(built.size).toBeGreaterThan(150)
    expect(built.get('app')).toBe('app')
    expect(built.get('router')).toBe('router')
    expect(built.get('app.router.stack[0].name')).toBe('router')
    expect(built.get('app.router.stack[1].name')).toBe('mounted_app')
    expect(built.get('router.stack[0].name')).toBe('handle')
    expect(built.get('fw.response.send')).toBe('send')
    expect(Object.fromEntries(built)).toEqual(Object.fromEntries(source))
  })

  // In a process of its own: maps are shared across every copy of a library
  // loaded in a process (the source, imported above, defines the same
  // 'router' getter with a function of its own), and such a mix is not what
  // this checks.
  // (routers do not share a map: each has an object of its own between it and
  // Router.prototype, as router@2.3 builds them, and V8 gives each its map)
  // the params of every middleware on '/' are
  // small fast-mode objects (a {} reserves four fields), and so are those of
  // a mount that a mergeParams router below copies for every layer (copying
  // from a dictionary goes through V8's runtime); a route's params, other
  // mounts' params and res.locals are dictionaries, as Express's
  // Object.create(null) are (giving a fast object the null prototype is a
  // runtime call that costs more).
  // What a handler can observe of them is compared with express@5 in
  // test/diff/exactness.diff.test.ts
  test('the empty objects of the request path: fast where they are copied, dictionaries as Express\'s elsewhere', () => {
    const out = execFileSync(process.execPath, ['--allow-natives-syntax', '-e', `
      const http = require('node:http')
      const fw = require('switchyardjs')
      const fast = (a) => %HasFastProperties(a)
      const nullProto = (a) => Object.getPrototypeOf(a) === null
      const seen = {}
      const app = fw()
      app.use((req, res, next) => { seen.slashParams = fast(req.params); next() })
      // a mount's params: a dictionary, unless a mergeParams router below copies them
      app.use('/static', (req, res, next) => { seen.mountParams = fast(req.params) + ' ' + nullProto(req.params); next() })
      app.param('x', (req, res, next) => { seen.copiedMountParams = fast(req.params) + ' ' + nullProto(req.params); next() })
      const merged = fw.Router({ mergeParams: true })
      merged.get('/static', (req, res) => res.end())
      app.use('/m/:x', merged)
      app.get('/static', (req, res) => {
        seen.routeParams = fast(req.params) + ' ' + nullProto(req.params)
        seen.locals = fast(res.locals) + ' ' + nullProto(res.locals)
        for (let i = 0; i < 10; i++) res.locals['k' + i] = i
        seen.localsKeys = Object.keys(res.locals).join()
        res.end()
      })
      const server = http.createServer(app).listen(0, () => {
        const base = 'http://127.0.0.1:' + server.address().port
        http.get(base + '/static', (res) => {
          res.resume()
          res.on('end', () => http.get(base + '/m/1/static', (res) => {
            res.resume()
            res.on('end', () => {
              server.close()
              process.stdout.write(JSON.stringify(seen))
            })
          }))
        })
      })`], { cwd: repoRoot, encoding: 'utf8' })
    expect(JSON.parse(out)).toEqual({
      slashParams: true,
      mountParams: 'false true',
      copiedMountParams: 'true true',
      routeParams: 'false true',
      locals: 'false true',
      localsKeys: 'k0,k1,k2,k3,k4,k5,k6,k7,k8,k9'
    })
  })

  // an app that has served requests (a 404 and an error page
  // through its final handler, a route, a sub-app) is still in fast mode:
  // nothing is added to the app function per request (its final handler was,
  // and that put the app in dictionary mode on its first request)
  test('an app keeps fast properties once it has served requests', () => {
    const out = execFileSync(process.execPath, ['--allow-natives-syntax', '-e', `
      const http = require('node:http')
      const fw = require('switchyardjs')
      const fast = (a) => %HasFastProperties(a)
      const app = fw()
      const sub = fw()
      app.set('env', 'test')
      app.get('/', (req, res) => res.send('ok'))
      app.get('/error', () => { throw new Error('no') })
      sub.get('/', (req, res) => res.send('sub'))
      app.use('/sub', sub)
      const before = fast(app)
      const server = http.createServer(app).listen(0, async () => {
        for (const path of ['/', '/nope', '/error', '/sub', '/', '/nope']) {
          await new Promise((resolve) => http.get('http://127.0.0.1:' + server.address().port + path, (res) => { res.resume(); res.on('end', resolve) }))
        }
        server.close()
        process.stdout.write(JSON.stringify({ before, app: fast(app), sub: fast(sub), symbols: Object.getOwnPropertySymbols(app).length }))
      })`], { cwd: repoRoot, encoding: 'utf8' })
    expect(JSON.parse(out)).toEqual({ before: true, app: true, sub: true, symbols: 0 })
  })

  test('the app and its routers keep fast properties, and apps share maps', () => {
    const out = execFileSync(process.execPath, ['--allow-natives-syntax', '-e', `
      const fw = require('switchyardjs')
      const fast = (a) => %HasFastProperties(a)
      // several apps, as a process with a sub-app has: the first one alone says little
      const apps = [fw(), fw(), fw()]
      const one = fw.Router({ mergeParams: true })
      const two = fw.Router({ mergeParams: true })
      apps[1].use('/a', one)
      apps[1].use('/sub', apps[2])
      apps[2].get('/', () => {})
      // a function whose name is redefined is the slow kind the build avoids
      const renamed = function other() {}
      Object.defineProperty(renamed, 'name', { value: 'x', configurable: true })
      process.stdout.write(JSON.stringify({
        fast: [...apps, ...apps.map((a) => a.router), one, two].map(fast),
        sameApps: %HaveSameMap(apps[0], apps[1]),
        sameRouters: %HaveSameMap(one, two),
        // read on every request too: the settings of an app that is no other's parent, a route's methods
        settings: fast(apps[0].settings),
        methods: fast(apps[2].router.stack[0].route.methods),
        nullPrototypes: Object.getPrototypeOf(apps[0].settings) === null && Object.getPrototypeOf(apps[2].router.stack[0].route.methods) === null,
        renamed: fast(renamed)
      }))`], { cwd: repoRoot, encoding: 'utf8' })
    expect(JSON.parse(out)).toEqual({ fast: new Array(8).fill(true), sameApps: true, sameRouters: false, settings: true, methods: true, nullPrototypes: true, renamed: false })
  })
})
