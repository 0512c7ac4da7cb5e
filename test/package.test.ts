// The BUILT package (npm test builds first), loaded by its own name through the
// "exports" map, in both module systems.
import { describe, expect, test } from 'vitest'
import { createRequire } from 'node:module'
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const repoRoot = fileURLToPath(new URL('..', import.meta.url))
const SPLIT = 'The bodyParser() generic has been split into individual middleware to use instead.'
const MEMBERS = ['Router', 'Route', 'json', 'raw', 'text', 'urlencoded', 'static', 'application', 'request', 'response']

describe("require('switchyardjs')", () => {
  const fw = require('switchyardjs')

  test('resolves to dist/index.cjs and returns the fw function itself', () => {
    expect(require.resolve('switchyardjs')).toMatch(/dist[\\/]index\.cjs$/)
    expect(typeof fw).toBe('function')
    expect(fw.default).toBeUndefined()
  })

  test('carries Router, Route, the parsers, static and the prototypes', () => {
    for (const name of MEMBERS) expect(fw[name], name).toBeDefined()
    for (const name of ['Router', 'Route', 'json', 'raw', 'text', 'urlencoded', 'static']) expect(typeof fw[name], name).toBe('function')
  })

  test('fw() creates an application whose prototypes come from fw.request/fw.response', () => {
    const app = fw()
    expect(typeof app).toBe('function')
    expect(typeof app.use).toBe('function')
    expect(typeof app.listen).toBe('function')
    expect(Object.getPrototypeOf(app.request)).toBe(fw.request)
    expect(Object.getPrototypeOf(app.response)).toBe(fw.response)
  })
})

// ESM is checked in a plain Node process: vitest's own module loader would
// re-interpret the wrapper, and what matters is what Node does.
function esm(code: string): Record<string, unknown> {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: repoRoot, encoding: 'utf8' })
  return JSON.parse(out)
}
const PRELUDE = "import { createRequire } from 'node:module'; const require = createRequire(process.cwd() + '/x.js');"

describe("import fw, { Router, json } from 'switchyardjs'", () => {
  test('resolves to the ESM wrapper over the same CommonJS code', () => {
    const result = esm(`${PRELUDE}
      import * as mod from 'switchyardjs'
      const cjs = require('switchyardjs')
      const names = ${JSON.stringify(MEMBERS)}
      console.log(JSON.stringify({
        url: import.meta.resolve('switchyardjs'),
        sameDefault: mod.default === cjs,
        same: names.filter((n) => mod[n] === cjs[n] && mod[n] !== undefined),
        keys: Object.keys(mod).sort()
      }))`)
    expect(result.url).toMatch(/dist\/index\.mjs$/)
    expect(result.sameDefault).toBe(true)
    expect(result.same).toEqual(MEMBERS)
    expect(result.keys).toEqual(['default', ...MEMBERS].sort())
  })

  test('the imported values work', () => {
    const result = esm(`
      import fw, { Router, json, static as serveStatic } from 'switchyardjs'
      const app = fw()
      const router = Router()
      router.get('/:id', (req, res) => res.send(req.params.id))
      app.use(json(), serveStatic('.'))
      app.use('/r', router)
      console.log(JSON.stringify({ app: typeof app, use: typeof app.use, get: typeof router.get }))`)
    expect(result).toEqual({ app: 'function', use: 'function', get: 'function' })
  })
})

describe("switchyardjs/body-parser", () => {
  test('require() returns the throwing generic carrying the four parsers', () => {
    const bodyParser = require('switchyardjs/body-parser')
    expect(require.resolve('switchyardjs/body-parser')).toMatch(/dist[\\/]body-parser\.cjs$/)
    expect(typeof bodyParser).toBe('function')
    expect(() => bodyParser()).toThrow(SPLIT)
    for (const name of ['json', 'raw', 'text', 'urlencoded']) expect(typeof bodyParser[name], name).toBe('function')
  })

  test('import gives the same functions as named and default exports', () => {
    const result = esm(`${PRELUDE}
      import bodyParser, { json, raw, text, urlencoded } from 'switchyardjs/body-parser'
      const cjs = require('switchyardjs/body-parser')
      let message = ''
      try { bodyParser() } catch (err) { message = err.message }
      console.log(JSON.stringify({
        url: import.meta.resolve('switchyardjs/body-parser'),
        sameDefault: bodyParser === cjs,
        same: [json === cjs.json, raw === cjs.raw, text === cjs.text, urlencoded === cjs.urlencoded],
        message
      }))`)
    expect(result.url).toMatch(/dist\/body-parser\.mjs$/)
    expect(result.sameDefault).toBe(true)
    expect(result.same).toEqual([true, true, true, true])
    expect(result.message).toBe(SPLIT)
  })
})
