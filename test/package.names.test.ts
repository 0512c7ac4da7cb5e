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
    resMethods: ['send', 'json', 'set', 'cookie', 'render', 'status', 'sendFile'].map((m) => lib.response[m].name)
  }
}
`

function run(code: string, type: 'commonjs' | 'module'): any {
  const args = type === 'module' ? ['--input-type=module', '-e', code] : ['-e', code]
  return JSON.parse(execFileSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8' }))
}

describe('names in the built package', () => {
  const express = run(`${PROBE}; process.stdout.write(JSON.stringify(probe(require('express'))))`, 'commonjs')
  const cjs = run(`${PROBE}; process.stdout.write(JSON.stringify(probe(require('switchyard'))))`, 'commonjs')
  const esm = run(`${PROBE}; import fw from 'switchyard'; process.stdout.write(JSON.stringify(probe(fw)))`, 'module')

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
    expect(trace('switchyard')).toBe('boom,' + trace('express').split(',')[1])
  })
})

