// The npm alias layout of docs/migration.md: `"express": "npm:switchyardjs@^0.1.0"`.
// npm installs the switchyard package under the directory node_modules/express
// (its package.json still says "name": "switchyardjs"), so a dependency that calls
// require('express') or `import express from 'express'` gets Switchyard.
//
// The layout is built in a temporary directory from the BUILT package (npm test
// builds first): node_modules/express is a copy of the package as npm would
// install it (package.json + dist), node_modules/switchyardjs is a second copy
// (an app that lists both names gets both), the package's runtime dependencies
// are linked in beside them (hoisted, as npm lays them out), and two fake
// dependencies load `express` by name, one CommonJS and one ESM. Every check
// runs in a plain Node process whose working directory is the temporary app, so
// what is tested is Node's own module resolution.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import ts from 'typescript'

const repoRoot = fileURLToPath(new URL('..', import.meta.url))
const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'))
let app = ''

function write(file: string, text: string) {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, text)
}

function installCopy(dir: string) {
  fs.mkdirSync(dir, { recursive: true })
  fs.copyFileSync(path.join(repoRoot, 'package.json'), path.join(dir, 'package.json'))
  fs.cpSync(path.join(repoRoot, 'dist'), path.join(dir, 'dist'), { recursive: true })
}

beforeAll(() => {
  expect(fs.existsSync(path.join(repoRoot, 'dist', 'index.cjs')), 'run `npm run build` first').toBe(true)
  app = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-alias-'))
  const nm = path.join(app, 'node_modules')
  write(path.join(app, 'package.json'), JSON.stringify({
    name: 'alias-app',
    private: true,
    dependencies: { express: `npm:switchyardjs@^${pkg.version}`, switchyardjs: `^${pkg.version}`, 'uses-express': '1.0.0', 'uses-express-esm': '1.0.0' }
  }))
  installCopy(path.join(nm, 'express'))
  installCopy(path.join(nm, 'switchyardjs'))
  for (const dep of Object.keys(pkg.dependencies)) {
    fs.mkdirSync(path.dirname(path.join(nm, dep)), { recursive: true })
    fs.symlinkSync(path.join(repoRoot, 'node_modules', dep), path.join(nm, dep), 'junction')
  }
  // like swagger-ui-express: its own require('express'), a static handler and a router
  write(path.join(nm, 'uses-express', 'package.json'), JSON.stringify({ name: 'uses-express', version: '1.0.0', main: 'index.js', peerDependencies: { express: '>=4' } }))
  write(path.join(nm, 'uses-express', 'index.js'), `
const express = require('express')
exports.express = express
exports.serve = [express.static(__dirname)]
exports.docs = function docs () {
  const router = express.Router()
  router.get('/', (req, res) => { res.json({ from: 'uses-express' }) })
  return router
}
exports.app = function app () {
  const a = express()
  a.get('/', (req, res) => { res.send('sub-app') })
  return a
}
`)
  write(path.join(nm, 'uses-express', 'asset.txt'), 'asset')
  write(path.join(nm, 'uses-express-esm', 'package.json'), JSON.stringify({ name: 'uses-express-esm', version: '1.0.0', type: 'module', exports: './index.js' }))
  write(path.join(nm, 'uses-express-esm', 'index.js'), `
import express, { Router, json } from 'express'
export { express, Router, json }
`)
})

afterAll(() => {
  if (app) fs.rmSync(app, { recursive: true, force: true })
})

function run(code: string, type: 'commonjs' | 'module' = 'commonjs'): any {
  const out = execFileSync(process.execPath, ['--input-type=' + type, '-e', code], { cwd: app, encoding: 'utf8' })
  return JSON.parse(out)
}

// starts `app`, makes each request, prints the answers as JSON, closes
const SERVE = `
async function serve (app, paths) {
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const out = []
  for (const p of paths) {
    const res = await fetch('http://127.0.0.1:' + server.address().port + p)
    out.push({ status: res.status, poweredBy: res.headers.get('x-powered-by'), body: await res.text() })
  }
  server.close()
  return out
}`

describe('"express": "npm:switchyardjs" (npm alias)', () => {
  test('node_modules/express is the switchyard package', () => {
    const result = run(`
      console.log(JSON.stringify({
        name: require('express/package.json').name,
        resolved: require.resolve('express'),
      }))`)
    expect(result.name).toBe('switchyardjs')
    expect(result.resolved).toBe(fs.realpathSync(path.join(app, 'node_modules', 'express', 'dist', 'index.cjs')))
  })

  test("a dependency's require('express') gets Switchyard", async () => {
    const result = run(`${SERVE}
      const uses = require('uses-express')
      const express = require('express')
      const dist = require('./node_modules/express/dist/index.cjs')
      ;(async () => {
        const app = express()
        app.use('/docs', uses.serve, uses.docs())
        app.use('/sub', uses.app())
        const answers = await serve(app, ['/docs', '/docs/asset.txt', '/sub'])
        console.log(JSON.stringify({
          same: uses.express === express && express === dist,
          isRealExpress: express === require(${JSON.stringify(path.join(repoRoot, 'node_modules', 'express'))}),
          members: ['Router', 'Route', 'json', 'static', 'urlencoded'].filter((k) => typeof express[k] === 'function'),
          answers
        }))
      })()`)
    expect(result.same).toBe(true)
    expect(result.isRealExpress).toBe(false)
    expect(result.members).toEqual(['Router', 'Route', 'json', 'static', 'urlencoded'])
    expect(result.answers).toEqual([
      { status: 200, poweredBy: 'Switchyard', body: JSON.stringify({ from: 'uses-express' }) },
      { status: 200, poweredBy: 'Switchyard', body: 'asset' },
      { status: 200, poweredBy: 'Switchyard', body: 'sub-app' }
    ])
  })

  test("a dependency's `import express from 'express'` gets Switchyard", () => {
    const result = run(`
      import { createRequire } from 'node:module'
      import * as esm from 'uses-express-esm'
      import express from 'express'
      const require = createRequire(process.cwd() + '/index.js')
      const cjs = require('express')
      console.log(JSON.stringify({
        url: import.meta.resolve('express'),
        sameDefault: esm.express === cjs && express === cjs,
        sameNamed: esm.Router === cjs.Router && esm.json === cjs.json,
        name: require('express/package.json').name
      }))`, 'module')
    expect(result.url).toBe(pathToFileURL(path.join(fs.realpathSync(app), 'node_modules', 'express', 'dist', 'index.mjs')).href)
    expect(result.sameDefault).toBe(true)
    expect(result.sameNamed).toBe(true)
    expect(result.name).toBe('switchyardjs')
  })

  test("express@5's own files by path (require('express/lib/response') and the rest) are the bundle's", async () => {
    const result = run(`${SERVE}
      const express = require('express')
      const paths = ['express/lib/express', 'express/lib/express.js', 'express/index.js', 'express/index',
        'express/lib/application', 'express/lib/request', 'express/lib/response', 'express/lib/view', 'express/lib/utils',
        'express/lib/application.js', 'express/lib/request.js', 'express/lib/response.js', 'express/lib/view.js', 'express/lib/utils.js']
      const got = Object.fromEntries(paths.map((p) => [p, require(p)]))
      // what such code does: extend the response prototype every app inherits from
      got['express/lib/response'].hello = function hello () { this.type('text').send('hello from lib/response') }
      ;(async () => {
        const app = express()
        app.get('/', (req, res) => { res.hello() })
        const answers = await serve(app, ['/'])
        console.log(JSON.stringify({
          entry: paths.slice(0, 4).map((p) => got[p] === express),
          protos: [got['express/lib/application'] === express.application, got['express/lib/request'] === express.request, got['express/lib/response'] === express.response],
          view: got['express/lib/view'] === express().get('view'),
          utils: Object.keys(got['express/lib/utils']),
          withJs: paths.slice(4, 9).map((p) => got[p] === got[p + '.js']),
          body: answers[0].body
        }))
      })()`)
    expect(result).toEqual({
      entry: [true, true, true, true],
      protos: [true, true, true],
      view: true,
      utils: ['methods', 'etag', 'wetag', 'normalizeType', 'normalizeTypes', 'compileETag', 'compileQueryParser', 'compileTrust', 'setCharset'],
      withJs: [true, true, true, true, true],
      body: 'hello from lib/response'
    })
    const esm = run(`
      import { createRequire } from 'node:module'
      import * as utils from 'express/lib/utils.js'
      import response from 'express/lib/response.js'
      import View from 'express/lib/view.js'
      import * as entry from 'express/lib/express.js'
      const require = createRequire(process.cwd() + '/index.js')
      const express = require('express')
      console.log(JSON.stringify({
        utils: Object.keys(utils),
        sameUtils: utils.default === require('express/lib/utils') && utils.compileTrust === utils.default.compileTrust,
        response: response === express.response,
        view: View === express().get('view'),
        entry: Object.keys(entry),
        sameEntry: entry.default === express
      }))`, 'module')
    expect(esm).toEqual({
      utils: ['compileETag', 'compileQueryParser', 'compileTrust', 'default', 'etag', 'methods', 'normalizeType', 'normalizeTypes', 'setCharset', 'wetag'],
      sameUtils: true,
      response: true,
      view: true,
      entry: ['Route', 'Router', 'application', 'default', 'json', 'raw', 'request', 'response', 'static', 'text', 'urlencoded'],
      sameEntry: true
    })
  })

  test("a package's augmentation of the module 'express' (@types/cookie-parser) reaches Switchyard's types", () => {
    // installed as npm installs it: under the app's node_modules, so that its
    // `import express = require("express")` and `declare module "express"` reach the alias
    const nm = path.join(app, 'node_modules')
    fs.cpSync(path.join(repoRoot, 'node_modules', '@types', 'cookie-parser'), path.join(nm, '@types', 'cookie-parser'), { recursive: true })
    if (!fs.existsSync(path.join(nm, '@types', 'node'))) fs.symlinkSync(path.join(repoRoot, 'node_modules', '@types', 'node'), path.join(nm, '@types', 'node'), 'junction')
    write(path.join(app, 'typed.ts'), `
import express from 'express'
import cookieParser from 'cookie-parser'
const app = express()
app.use(cookieParser('secret'))
// secret is declared only by @types/cookie-parser's augmentation of 'express'
app.get('/', (req, res) => { res.send(String(req.secret) + req.signedCookies.a) })
export function annotated (req: express.Request): string | undefined { return req.secret }
`)
    write(path.join(app, 'typed-esm.mts'), `
import express, { type Request } from 'express'
export function annotated (req: Request): string | undefined { return req.secret }
export const viaDefault = (req: express.Request): string | undefined => req.secret
`)
    const program = ts.createProgram([path.join(app, 'typed.ts'), path.join(app, 'typed-esm.mts')], {
      strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
      esModuleInterop: true, skipLibCheck: false, types: ['node']
    })
    const diagnostics = ts.getPreEmitDiagnostics(program)
    const text = ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => app, getNewLine: () => '\n' })
    expect(text).toBe('')
    // and the program did see the augmentation through the alias, not some other 'express'
    const files = program.getSourceFiles().map((f) => f.fileName)
    expect(files.some((f) => f.endsWith('/@types/cookie-parser/index.d.ts') && f.startsWith(fs.realpathSync(app)))).toBe(true)
    expect(files.some((f) => f.includes('/@types/express/'))).toBe(false)
  })

  test("an app on require('switchyardjs') mounts what a dependency built with require('express')", () => {
    const result = run(`${SERVE}
      const fw = require('switchyardjs')
      const uses = require('uses-express')
      ;(async () => {
        const app = fw()
        app.use(fw.json())
        app.use('/docs', uses.serve, uses.docs())
        app.use('/sub', uses.app())
        const answers = await serve(app, ['/docs/asset.txt', '/sub', '/nowhere'])
        console.log(JSON.stringify({ twoCopies: fw !== uses.express, answers: answers.map((a) => [a.status, a.poweredBy, a.status === 404 ? '' : a.body]) }))
      })()`)
    expect(result.twoCopies).toBe(true)
    expect(result.answers).toEqual([
      [200, 'Switchyard', 'asset'],
      [200, 'Switchyard', 'sub-app'],
      [404, 'Switchyard', '']
    ])
  })
})
