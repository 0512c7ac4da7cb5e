// The router's lookup structures (exact static paths, first-segment buckets
// for parameterised routes and prefixed middleware, everything else in order)
// must visit exactly the layers express@5 visits, in the same order. Every
// layer records itself and passes on; the answer lists what ran.
import express from 'express'
import { describe, expect, it } from 'vitest'
import fw from '../src/index'
import { LINEAR_MAX } from '../src/router/stack'
import { listen, request } from './support/diff'

const PATTERNS: Array<[kind: 'use' | 'get' | 'all', path: any]> = [
  ['use', '/'],
  ['get', '/users/:id'],
  ['get', '/users/me'],
  ['use', '/users'],
  ['get', '/Users/:id/posts'],
  ['all', '/files/*rest'],
  ['get', '/files{/:name}'],
  ['get', '/:page'],
  ['use', '/api/:v'],
  ['get', '/api/v1/items/:id'],
  ['get', ['/a/:x', '/b/:y']],
  ['get', ['/a/:x', /^\/c\/(\d+)$/]],
  ['get', /^\/users\/(\d+)$/],
  ['use', '/users/'],
  ['get', '/users{s}/:id'],
  ['get', '/caf\u00e9/:x'],
  ['get', '/x-:a-:b'],
  ['use', '/static'],
  ['get', '/static/:file'],
  ['get', '/users/:id/'],
  ['get', '/USERS/:id']
]

const PATHS = [
  '/', '/users', '/users/', '/users/7', '/USERS/7', '/Users/7/posts', '/users/7/posts', '/users/me', '/usersx/1', '/userss/1', '/users/7/',
  '/files', '/files/', '/files/a/b', '/files/a', '/api/v2/items/3', '/api/v1/items/3', '/API/v1/items/3', '/a/1', '/b/2', '/c/3', '/c/x',
  '/caf%C3%A9/1', '/x-1-2', '/static', '/static/app.js', '/STATIC/app.js', '//users/7', '/users%2F7', '/page', '/users/7?x=1'
]

function build(lib: any, options: { sensitive?: boolean; strict?: boolean }) {
  const app = lib()
  if (options.sensitive) app.enable('case sensitive routing')
  if (options.strict) app.enable('strict routing')
  PATTERNS.forEach(([kind, path], n) => {
    const record = (req: any, res: any, next: any) => { (req.seen ??= []).push(n); next() }
    app[kind](path, record)
  })
  // a mounted router gets the same treatment below its mount path
  const inner = lib.Router(options.sensitive || options.strict ? { caseSensitive: options.sensitive, strict: options.strict } : undefined)
  PATTERNS.forEach(([kind, path], n) => {
    inner[kind](path, (req: any, res: any, next: any) => { (req.seen ??= []).push('m' + n); next() })
  })
  app.use('/mount', inner)
  app.use((req: any, res: any) => res.json(req.seen ?? []))
  app.use((err: any, req: any, res: any, next: any) => res.status(500).json({ error: err.message, seen: req.seen }))
  return app
}

describe('the router visits the same layers as express, in the same order', () => {
  for (const options of [{}, { sensitive: true }, { strict: true }, { sensitive: true, strict: true }]) {
    it(`options ${JSON.stringify(options)}`, async () => {
      const ours = await listen(build(fw, options))
      const theirs = await listen(build(express, options))
      try {
        for (const path of [...PATHS, ...PATHS.map((p) => '/mount' + p)]) {
          for (const method of ['GET', 'POST']) {
            const [a, b] = await Promise.all([request(ours.port, { method, path }), request(theirs.port, { method, path })])
            expect({ method, path, status: a.status, body: a.body }).toEqual({ method, path, status: b.status, body: b.body })
          }
        }
      } finally {
        await Promise.all([ours.close(), theirs.close()])
      }
    })
  }

  it('options that are not booleans, and options changed between requests, visit the same layers', async () => {
    // the router's options are read at every pass as truthy or not (without
    // Boolean())
    const steps: Array<Record<string, unknown>> = [
      { caseSensitive: 1, strict: 'yes', mergeParams: {} },
      { caseSensitive: 0, strict: '', mergeParams: null },
      { caseSensitive: 'on', strict: undefined, mergeParams: 1 },
      { caseSensitive: undefined, strict: [], mergeParams: false },
      { caseSensitive: true, strict: true, mergeParams: true }
    ]
    const buildChanging = (lib: any) => {
      const app = lib()
      const router = lib.Router(steps[0])
      PATTERNS.forEach(([kind, path], n) => {
        router[kind](path, (req: any, res: any, next: any) => { (req.seen ??= []).push(n, req.params); next() })
      })
      app.use('/r/:tag', router)
      app.use((req: any, res: any) => res.json(req.seen ?? []))
      app.use((err: any, req: any, res: any, next: any) => res.status(500).json({ error: err.message, seen: req.seen }))
      return { app, router }
    }
    const ours = buildChanging(fw)
    const theirs = buildChanging(express)
    const a = await listen(ours.app)
    const b = await listen(theirs.app)
    try {
      for (const options of steps) {
        Object.assign(ours.router, options)
        Object.assign(theirs.router, options)
        for (const path of PATHS) {
          const req = { method: 'GET', path: '/r/t' + path }
          const [x, y] = await Promise.all([request(a.port, req), request(b.port, req)])
          expect({ options, path, status: x.status, body: x.body }).toEqual({ options, path, status: y.status, body: y.body })
        }
      }
    } finally {
      await Promise.all([a.close(), b.close()])
    }
  })

  it('short stacks, tried layer by layer without the lookup, visit the same layers', async () => {
    // routers of 1 to 5 layers taken from PATTERNS (up to LINEAR_MAX layers
    // have no lookup; 5 have one), each mounted on its own path
    const windows: Array<Array<[kind: 'use' | 'get' | 'all', path: any]>> = []
    for (const size of [1, 2, 3, LINEAR_MAX, LINEAR_MAX + 1]) {
      for (const offset of [0, 4, 9, 16]) windows.push(PATTERNS.slice(offset, offset + size))
    }
    const buildShort = (lib: any, options: { sensitive?: boolean; strict?: boolean }) => {
      const app = lib()
      windows.forEach((window, w) => {
        const router = lib.Router({ caseSensitive: options.sensitive, strict: options.strict })
        window.forEach(([kind, path], n) => {
          router[kind](path, (req: any, res: any, next: any) => { (req.seen ??= []).push(n); next() })
        })
        app.use('/w' + w, router)
      })
      app.use((req: any, res: any) => res.json(req.seen ?? []))
      app.use((err: any, req: any, res: any, next: any) => res.status(500).json({ error: err.message, seen: req.seen }))
      return app
    }
    for (const options of [{}, { sensitive: true, strict: true }]) {
      const ours = await listen(buildShort(fw, options))
      const theirs = await listen(buildShort(express, options))
      try {
        for (let w = 0; w < windows.length; w++) {
          for (const path of PATHS) {
            const req = { method: 'GET', path: '/w' + w + path }
            const [a, b] = await Promise.all([request(ours.port, req), request(theirs.port, req)])
            expect({ path: req.path, status: a.status, body: a.body }).toEqual({ path: req.path, status: b.status, body: b.body })
          }
        }
      } finally {
        await Promise.all([ours.close(), theirs.close()])
      }
    }
  })

  it('a path asked again after the stack changed is looked up again (the lookup of the last path is kept per index)', async () => {
    for (const lib of [fw, express]) {
      const app = (lib as any)()
      for (let i = 0; i < 10; i++) app.get(`/s${i}`, (req: any, res: any) => res.send(`s${i}`))
      app.use((req: any, res: any) => res.status(404).send('none ' + req.url))
      const server = await listen(app)
      try {
        const ask = async (path: string) => (await request(server.port, { path })).body
        expect(await ask('/s3')).toBe('s3')
        expect(await ask('/s3')).toBe('s3')
        expect(await ask('/S3/')).toBe('s3')
        expect(await ask('/late')).toBe('none /late')
        // a route on the same path, moved in front of the 404 handler through router.stack
        app.get('/late', (req: any, res: any) => res.send('late'))
        const stack = app.router.stack
        stack.splice(stack.length - 2, 0, stack.pop())
        expect(await ask('/late')).toBe('late')
        // a layer in front of the route for /s3, through the same Proxy
        stack.splice(3, 0, stack[stack.length - 2])
        expect(await ask('/s3')).toBe('s3')
        expect(await ask('/late')).toBe('late')
        stack.splice(3, 1)
        stack.splice(stack.length - 2, 1)
        expect(await ask('/late')).toBe('none /late')
      } finally {
        await server.close()
      }
    }
  })

  it('1,000 parameterised routes: the last one answers, and routes registered later are seen', async () => {
    for (const lib of [fw, express]) {
      const app = (lib as any)()
      for (let i = 0; i < 1000; i++) app.get(`/r${i}/:id`, (req: any, res: any) => res.send(`r${i} ${req.params.id}`))
      const server = await listen(app)
      try {
        expect((await request(server.port, { path: '/r999/42' })).body).toBe('r999 42')
        app.get('/late/:x', (req: any, res: any) => res.send('late ' + req.params.x))
        expect((await request(server.port, { path: '/late/1' })).body).toBe('late 1')
        app.router.stack.unshift(app.router.stack.pop())
        app.get('/r999/:id', (req: any, res: any) => res.send('shadowed'))
        expect((await request(server.port, { path: '/r999/42' })).body).toBe('r999 42')
      } finally {
        await server.close()
      }
    }
  })
})
