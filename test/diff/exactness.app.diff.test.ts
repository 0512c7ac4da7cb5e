// Differential tests of the application against express@5.3: settings read
// through app.get/app.set, the default error handler (its page and its log),
// template engines and views, the prototypes code reflects on, and values of
// the wrong type. Each builds the same app on both, sends the same request,
// and compares what a client or a middleware can observe.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { inspect } from 'node:util'
import { createRequire } from 'node:module'
import express from 'express'
import { describe, expect, it, vi } from 'vitest'
import fw from '../../src/index'
import { listen, request } from '../support/diff'
import { both } from '../support/res-diff'
import { consoleErrors } from '../support/output'
import { recorded, type Lib } from '../support/recorded'

// Express reads settings through app.get (which calls app.set) and
// app.enabled: `env` and `x-powered-by` on every request, `etag fn`, the JSON
// settings (escape first), `query parser fn`, `trust proxy fn` (req.host
// reads it whether it uses it or not)... A tool that wraps one of these sees
// those reads, and its answers are used.
describe('settings read through app.get, app.set and app.enabled', () => {
  // (both final handlers log the error of a production app with console.error)
  const uses: Record<string, (req: any, res: any) => void> = {
    'res.send': (req, res) => res.send('hi'),
    'res.json': (req, res) => res.json({ a: 1 }),
    'res.jsonp': (req, res) => res.jsonp([1]),
    'req.query': (req, res) => res.end(JSON.stringify(req.query)),
    'req.hostname': (req, res) => res.end(String(req.hostname)),
    'req.subdomains': (req, res) => res.end(String(req.subdomains)),
    'an error to the final handler': (req, res) => { throw new Error('boom') }
  }
  for (const wrapped of [['get', 'set', 'enabled'], ['set'], ['get'], ['enabled']]) {
    for (const [name, use] of Object.entries(uses)) {
      it(`${name}, with app.${wrapped.join('/app.')} wrapped`, async () => {
        let out!: Awaited<ReturnType<typeof recorded>>
        const fails = name === 'an error to the final handler'
        const logged = await consoleErrors(fails ? 2 : 0, async () => {
          out = await recorded((app, lib, record) => {
            app.set('env', 'production')
            for (const method of wrapped) {
              const original = app[method]
              app[method] = function (this: any, ...args: any[]) {
                record(method + '(' + args.map((a) => typeof a === 'function' ? 'fn' : JSON.stringify(a)).join(', ') + ')')
                return original.apply(this, args)
              }
            }
            app.get('/t', use)
          }, { method: 'GET', path: '/t?callback=cb&a[b]=1', headers: { host: 'a.b.example.com' } })
          // (the final handlers log an error from a setImmediate, reading env then)
          await new Promise((resolve) => setTimeout(resolve, 20))
        })
        expect(logged).toEqual(fails ? ['Error: boom', 'Error: boom'] : [])
        expect(out.switchyard).toEqual(out.express)
        expect(out.express.records.length).toBeGreaterThan(0)
      })
    }
  }

  it('a wrapper\'s answers are used: app.get giving another env and json spaces', async () => {
    const out = await recorded((app) => {
      app.set('env', 'production')
      const get = app.get
      app.get = function (this: any, ...args: any[]) {
        if (args.length === 1 && args[0] === 'env') return 'development'
        if (args.length === 1 && args[0] === 'json spaces') return 2
        return get.apply(this, args)
      }
      app.get('/json', (req: any, res: any) => res.json({ a: 1 }))
    }, { method: 'GET', path: '/json' })
    expect(out.switchyard).toEqual(out.express)
    expect((out.express.answer as any).body).toContain('\n  "a"')
    let errors!: Awaited<ReturnType<typeof recorded>>
    const logged = await consoleErrors(2, async () => {
      errors = await recorded((app) => {
        app.set('env', 'development')
        const get = app.get
        app.get = function (this: any, ...args: any[]) { return args.length === 1 && args[0] === 'env' ? 'production' : get.apply(this, args) }
        app.get('/error', () => { throw new Error('<detail>') })
      }, { method: 'GET', path: '/error' })
    })
    expect(logged).toEqual(['Error: <detail>', 'Error: <detail>'])
    expect(errors.switchyard).toEqual(errors.express)
    // the production page (no stack): the wrapper's env was used
    expect((errors.express.answer as any).body).toContain('<pre>Internal Server Error</pre>')
  })
})

// express@5.3's final handler logs what reached it as it is: console.error(err)
// (util.inspect: an error's own fields, a plain object or array as data), and
// so never throws on a value without a usable toString.
describe('what the default error handler logs', () => {
  const values: Array<[string, () => unknown]> = [
    ['an Error with fields of its own', () => Object.assign(new Error('timed out'), { code: 'ETIMEDOUT', timeout: 20 })],
    ['a plain object', () => ({ status: 409, message: 'conflict' })],
    ['an array', () => ['a', 'b']],
    ['an object without a prototype', () => Object.assign(Object.create(null), { status: 400 })],
    ['an object whose toString is not a function', () => ({ status: 422, toString: 1 })],
    ['a string', () => 'plain text']
  ]
  for (const [label, make] of values) {
    it(`${label}: the same answer, and the same thing logged`, async () => {
      const logged: Record<string, unknown[]> = {}
      const answers: Record<string, unknown> = {}
      const spy = vi.spyOn(console, 'error').mockImplementation(() => {})
      try {
        for (const [name, lib] of [['switchyard', fw], ['express', express]] as const) {
          const app = (lib as Lib)()
          app.set('env', 'production')
          app.get('/', (req: any, res: any, next: any) => next(make()))
          const server = await listen(app)
          try {
            const { status, body } = await request(server.port, { path: '/' })
            answers[name] = { status, body }
            await new Promise((r) => setImmediate(r))
            // the stack's frames differ between the libraries; the rest must not
            logged[name] = spy.mock.calls.map((args) => args.map((a) => inspect(a).replace(/\n\s+at .*/g, '')))
            spy.mockClear()
          } finally {
            await server.close()
          }
        }
      } finally {
        spy.mockRestore()
      }
      expect(answers.switchyard).toEqual(answers.express)
      expect(logged.switchyard).toEqual(logged.express)
      expect(logged.express).toHaveLength(1)
    })
  }
})

// Express loads an engine it has no app.engine() for with require() from
// its own location; the working directory's node_modules do not count.
describe('a template engine module is found where Express finds it', () => {
  it('not from the working directory: an engine only the working directory can see is missing for both', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sy-engine-'))
    try {
      mkdirSync(join(dir, 'node_modules', 'fakeeng'), { recursive: true })
      mkdirSync(join(dir, 'views'))
      writeFileSync(join(dir, 'views', 'page.fakeeng'), 'hi')
      writeFileSync(join(dir, 'node_modules', 'fakeeng', 'index.js'), "exports.__express = (p, o, cb) => cb(null, 'rendered by fakeeng')")
      const repo = fileURLToPath(new URL('../..', import.meta.url))
      // the built library, as an app installed elsewhere loads it (npm test builds first)
      const script = `
        const libs = { switchyard: require(${JSON.stringify(join(repo, 'dist/index.cjs'))}), express: require(${JSON.stringify(join(repo, 'node_modules/express'))}) }
        const out = {}
        let left = 2
        for (const [name, lib] of Object.entries(libs)) {
          const app = lib()
          app.set('views', ${JSON.stringify(join(dir, 'views'))})
          app.set('view engine', 'fakeeng')
          const done = (err, html) => {
            out[name] = err ? err.code + ': ' + err.message.split('\\n')[0] : html
            if (--left === 0) console.log(JSON.stringify(out))
          }
          // (a missing engine throws from app.render itself, in both)
          try { app.render('page', done) } catch (err) { done(err) }
        }`
      const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: dir, encoding: 'utf8' }))
      expect(out.switchyard).toBe(out.express)
      expect(out.express).toBe("MODULE_NOT_FOUND: Cannot find module 'fakeeng'")
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

// What code reads from the objects and errors the registration API gives,
// the same as on express@5.3 / router@2.3.
describe('the registration API as code reads it', () => {
  const both = (read: (lib: Lib) => unknown) => [read(fw), read(express)]
  const thrown = (fn: () => unknown) => {
    try {
      fn()
      return 'accepted'
    } catch (e: any) {
      return `${e.name}: ${e.message} (${e.originalPath})`
    }
  }

  for (const path of ['/:/', '/{/', '/a\\/', '/:a/:/', ['/ok', '/:/']]) {
    it(`${JSON.stringify(path)}: trailing slashes go before path-to-regexp sees the path (get and use)`, () => {
      const [ours, theirs] = both((lib) => [thrown(() => lib().get(path, () => {})), thrown(() => lib().use(path, () => {}))])
      expect(ours).toEqual(theirs)
    })
  }

  it("the trust proxy default marker: Express's non-enumerable string key", () => {
    const read = (lib: Lib) => {
      const app = lib()
      const before = [Object.getOwnPropertyNames(app.settings).includes('@@symbol:trust_proxy_default'), app.settings['@@symbol:trust_proxy_default'], Object.getOwnPropertySymbols(app.settings).length, Object.keys(app.settings).includes('@@symbol:trust_proxy_default')]
      app.set('trust proxy', 1)
      return [before, app.settings['@@symbol:trust_proxy_default']]
    }
    const [ours, theirs] = both(read)
    expect(ours).toEqual(theirs)
    expect(theirs).toEqual([[true, true, 0, false], false])
  })

  it("the compiled query parsers' names and lengths", () => {
    const read = (lib: Lib) => ['simple', 'extended', true].map((v) => { const app = lib(); app.set('query parser', v); const f = app.get('query parser fn'); return [f.name, f.length] })
    const [ours, theirs] = both(read)
    expect(ours).toEqual(theirs)
  })

  it("Route's methods: length 1, enumerable, in router@2.3's order", () => {
    const read = (lib: Lib) => { const route = lib().route('/x'); return [route.get.length, route.all.length, route.post.length, Object.keys(lib.Route.prototype)] }
    const [ours, theirs] = both(read)
    expect(ours).toEqual(theirs)
  })

  it("View's methods in express@5.3's order", () => {
    const [ours, theirs] = both((lib) => Object.getOwnPropertyNames(lib().get('view').prototype))
    expect(ours).toEqual(theirs)
  })

  it('route methods called with no handler, or with a non-function, throw the same', () => {
    const read = (lib: Lib) => [thrown(() => lib().route('/x').get()), thrown(() => lib().route('/x').all()), thrown(() => lib().route('/x').post(5)), thrown(() => lib().route('/x').get([]))]
    const [ours, theirs] = both(read)
    expect(ours).toEqual(theirs)
  })
})

describe('views set up wrong', () => {
  it('a view setting that is not a constructor: the TypeError names View', async () => {
    for (const value of [() => ({}), 'notfn', 5]) {
      const r = await both((app) => {
        app.set('view', value)
        app.get('/', (req: any, res: any) => {
          try {
            res.render('page')
          } catch (e: any) {
            res.send(e.constructor.name + ': ' + e.message)
          }
        })
      }, { path: '/' })
      expect(r.switchyard).toEqual(r.express)
      expect(r.express.body).toBe('TypeError: View is not a constructor')
    }
  })

  it('the View constructor called without options', () => {
    const outcome = (View: any, name: string) => {
      try {
        return inspect(new View(name))
      } catch (e: any) {
        return e.constructor.name + ': ' + e.message
      }
    }
    for (const name of ['index', 'index.ejs']) {
      expect(outcome(fw().get('view'), name)).toBe(outcome(express().get('view'), name))
    }
    expect(outcome(express().get('view'), 'index')).toContain('No default engine')
  })
})

describe('the request, response and application prototypes, as code reflecting on them sees them', () => {
  /** Each own property: key, enumerable, kind, function name and arity (of the value, or the getter). */
  const shape = (obj: object) => Object.getOwnPropertyNames(obj).map((key) => {
    const d = Object.getOwnPropertyDescriptor(obj, key)!
    const f = d.value ?? d.get
    return [key, d.enumerable, 'value' in d ? 'value' : 'getter', typeof f === 'function' ? f.name : typeof f, typeof f === 'function' ? f.length : -1]
  })
  for (const part of ['request', 'response', 'application'] as const) {
    it(`${part}: keys in Express's order, with its names and arities`, () => {
      expect(shape((fw as any)[part])).toEqual(shape((express as any)[part]))
    })
  }
  it('for...in over a request and a response lists what Express lists', () => {
    const keys = (obj: object) => { const out: string[] = []; for (const k in obj) out.push(k); return out }
    expect(keys(Object.create(fw().request))).toEqual(keys(Object.create(express().request)))
    expect(keys(Object.create(fw().response))).toEqual(keys(Object.create(express().response)))
  })
  it("the module's own keys", () => {
    expect(Object.keys(fw)).toEqual(Object.keys(express))
  })
})

describe('req.path and req.query after a middleware rewrote req.url', () => {
  for (const [label, url] of [["''", ''], ['undefined', undefined], ["'http://'", 'http://'], ["'/x?a=1'", '/x?a=1']] as const) {
    it(`req.url = ${label}`, async () => {
      const r = await both((app) => {
        app.use((req: any, res: any) => {
          req.url = url
          const read = (name: string) => {
            try {
              return JSON.stringify(req[name]) ?? 'undefined'
            } catch (e: any) {
              return e.constructor.name + ': ' + e.message
            }
          }
          res.json({ path: read('path'), query: read('query') })
        })
      }, { path: '/start?q=1' })
      expect(r.switchyard).toEqual(r.express)
    })
  }
})

describe("TypeErrors V8 words from Express's variable names, on values of the wrong type", () => {
  // the BUILT library (npm test builds first): the bundler renames variables
  // the source does not, and V8 words these messages from the names
  const fw = createRequire(import.meta.url)('../../dist/index.cjs')
  /** What `fn` throws, as `Name: message`, or 'no error'. */
  const thrown = (fn: () => unknown) => { try { fn(); return 'no error' } catch (e: any) { return e.constructor.name + ': ' + e.message } }
  it('app.use of a sub-app look-alike whose emit or handle is not a function', async () => {
    const run = async (lib: any) => {
      const out: string[] = []
      const d: any = function () {}; d.handle = () => {}; d.set = () => {}
      out.push(thrown(() => lib().use(d)))
      const sub = lib(); sub.emit = 5
      out.push(thrown(() => lib().use('/s', sub)))
      const app = lib(); const d2: any = function () {}; d2.handle = 'x'; d2.set = 1; d2.emit = () => {}
      app.use(d2)
      await new Promise<void>((resolve) => {
        app.use((err: any, req: any, res: any, next: any) => { out.push(err.message); resolve() })
        app.handle({ url: '/', method: 'GET', headers: {} }, { setHeader() {}, getHeader() {} }, () => resolve())
      })
      return out
    }
    const ours = await run(fw)
    expect(ours).toEqual(await run(express))
    expect(ours[0]).toBe('TypeError: fn.emit is not a function')
  })
  it('req.hostname and req.subdomains on a host that is not a string', () => {
    const run = (lib: any) => {
      const out: string[] = []
      for (const [getter, value] of [['host', 123], ['hostname', 123], ['host', null], ['hostname', '']] as const) {
        const app = lib()
        Object.defineProperty(app.request, getter, { configurable: true, get: () => value })
        const req = Object.create(app.request)
        req.headers = { host: 'a.b.example.com' }
        out.push(thrown(() => req.hostname), thrown(() => req.subdomains))
      }
      return out
    }
    expect(run(fw)).toEqual(run(express))
    expect(run(express)[0]).toBe('TypeError: host.indexOf is not a function')
  })
  it('the app called with a res that is not one, or no req', () => {
    const run = (lib: any) => {
      const req = () => ({ url: '/', method: 'GET', headers: {} })
      const res = () => ({ setHeader() {}, getHeader() {} })
      return [[req(), {}], [req(), { setHeader: 'x' }], [req(), 5], [null, res()], [undefined, res()], [undefined, undefined]]
        .map(([rq, rs]) => thrown(() => lib()(rq, rs)))
    }
    expect(run(fw)).toEqual(run(express))
  })
})

describe('the env the default error page is made for', () => {
  /** The page without the stack's frames (file paths differ) and the length they change. */
  const page = (a: any) => ({ ...a, headers: { ...a.headers, 'content-length': undefined }, body: a.body.replace(/<br>[^]*<\/pre>/, '</pre>') })
  it('is the one the request started with, when a handler changes it', async () => {
    for (const [from, to] of [['development', 'production'], ['production', 'development'], ['production', 'test']]) {
      let r!: Awaited<ReturnType<typeof both>>
      // (the final handlers log unless the env is test when they log)
      const logged = await consoleErrors(to === 'test' ? 0 : 2, async () => {
        r = await both((app) => {
          app.set('env', from)
          app.use((req: any, res: any, next: any) => { app.set('env', to); next(new Error('secret')) })
        }, { path: '/' })
      })
      expect(logged).toEqual(to === 'test' ? [] : ['Error: secret', 'Error: secret'])
      expect(page(r.switchyard)).toEqual(page(r.express))
      expect(r.express.body.includes('secret')).toBe(from !== 'production')
    }
  })
  it('falls back to NODE_ENV, then development, when the setting is falsy', async () => {
    const saved = process.env.NODE_ENV
    try {
      for (const nodeEnv of ['production', undefined]) {
        if (nodeEnv === undefined) delete process.env.NODE_ENV
        else process.env.NODE_ENV = nodeEnv
        for (const value of [undefined, '', null, false, 0]) {
          let r!: Awaited<ReturnType<typeof both>>
          const logged = await consoleErrors(2, async () => {
            r = await both((app) => {
              app.set('env', value)
              app.get('/', () => { throw new Error('secret') })
            }, { path: '/' })
          })
          expect(logged).toEqual(['Error: secret', 'Error: secret'])
          expect(page(r.switchyard)).toEqual(page(r.express))
          expect(r.express.body.includes('secret')).toBe(nodeEnv !== 'production')
        }
      }
    } finally {
      process.env.NODE_ENV = saved
    }
  })
  // Switchyard keeps the handler it made between requests; where it keeps it
  // must not show on the app (it was two symbol keys, added on the first request)
  it('is kept where no key of the app shows it, once requests have come', async () => {
    const r = await recorded((app, lib, record) => {
      app.get('/', (req: any, res: any) => {
        record([Reflect.ownKeys(req.app).length, Object.getOwnPropertySymbols(req.app).map(String)])
        res.end()
      })
    }, { path: '/' })
    expect(r.switchyard.records).toEqual(r.express.records)
    expect(r.express.records[0]).toEqual([expect.any(Number), []])
  })
})

describe('express.application, as plugins that patch it see it', () => {
  it('is an ordinary object (Object.prototype methods, String(), instanceof Object)', () => {
    const look = (lib: any) => {
      const a = lib.application
      return [Object.getPrototypeOf(a) === Object.prototype, a.hasOwnProperty('render'), String(a), a instanceof Object, Object.keys(a)]
    }
    expect(look(fw)).toEqual(look(express))
  })
})
