// router.stack edited in place after requests have been served: every edit
// must be seen by the next request (the static-route index is rebuilt), as in
// express@5. Each case runs on both and compares the answers.
import express from 'express'
import { describe, expect, it } from 'vitest'
import fw from '../src/index'
import { listen, request } from './support/diff'

type Edit = (app: any, lib: any) => void

function requireToken(req: any, res: any, next: any) {
  if (req.headers['x-token'] === 'ok') next()
  else res.status(401).send('token required')
}

function base(lib: any) {
  const app = lib()
  app.get('/maintenance', (req: any, res: any) => res.send('maintenance'))
  app.get('/admin', (req: any, res: any) => res.send('admin'))
  app.get('/about', (req: any, res: any) => res.send('about'))
  return app
}

async function run(edit: Edit, paths: string[]) {
  const out: Record<string, unknown[]> = {}
  for (const [name, lib] of [['switchyard', fw], ['express', express]] as const) {
    const app = base(lib)
    const server = await listen(app)
    try {
      await request(server.port, { path: '/admin' }) // builds the index
      edit(app, lib)
      const answers = []
      for (const path of paths) {
        const a = await request(server.port, { path })
        answers.push([path, a.status, a.body])
      }
      out[name] = answers
    } finally {
      await server.close()
    }
  }
  return out
}

const edits: Array<[string, Edit]> = [
  ['a middleware moved to the front by index assignment (the reported case)', (app) => {
    app.use(requireToken)
    app.router.stack[0] = app.router.stack.pop()
  }],
  ['splice inserting a middleware first', (app, lib) => {
    const probe = lib.Router()
    probe.use(requireToken)
    app.use(requireToken)
    const layer = app.router.stack.pop()
    app.router.stack.splice(0, 0, layer)
  }],
  ['unshift', (app) => {
    app.use(requireToken)
    app.router.stack.unshift(app.router.stack.pop())
  }],
  ['reverse', (app) => { app.router.stack.reverse() }],
  ['sort by name, then a route removed', (app) => {
    app.router.stack.sort((a: any, b: any) => String(a.route?.path).localeCompare(String(b.route?.path)))
    app.router.stack.splice(1, 1)
  }],
  ['length truncated', (app) => { app.router.stack.length = 1 }],
  ['the whole stack replaced', (app) => {
    const moved = app.router.stack.slice()
    app.use(requireToken)
    app.router.stack = [app.router.stack[app.router.stack.length - 1], ...moved]
  }],
  ['a route layer swapped for another', (app) => {
    const s = app.router.stack
    const tmp = s[0]
    s[0] = s[1]
    s[1] = tmp
  }]
]

describe('router.stack edited after requests', () => {
  for (const [name, edit] of edits) {
    it(name, async () => {
      const r = await run(edit, ['/admin', '/maintenance', '/about', '/ABOUT/'])
      expect(r.switchyard).toEqual(r.express)
    })
  }

  it('the reported case answers 401 through the moved middleware', async () => {
    const r = await run(edits[0][1], ['/admin'])
    expect(r.switchyard[0]).toEqual(['/admin', 401, 'token required'])
  })

  it('router.stack stays an array that tools can walk and copy', () => {
    const app = base(fw)
    expect(Array.isArray(app.router.stack)).toBe(true)
    expect(app.router.stack.length).toBe(3)
    expect(app.router.stack.map((l: any) => l.route.path)).toEqual(['/maintenance', '/admin', '/about'])
    expect([...app.router.stack]).toHaveLength(3)
    expect(Object.keys(app.router)).toEqual(Object.keys(express().router))
  })
})

describe('a malformed percent-escape in a route parameter', () => {
  it('reaches error handlers with status and statusCode 400, as in express', async () => {
    const out: Record<string, unknown> = {}
    for (const [name, lib] of [['switchyard', fw], ['express', express]] as const) {
      const app = lib()
      app.get('/p/:x', (req: any, res: any) => res.send(req.params.x))
      app.use((err: any, req: any, res: any, next: any) => {
        res.status(err.statusCode ?? 500).json({ status: err.status, statusCode: err.statusCode, message: err.message, name: err.name })
      })
      const server = await listen(app)
      try {
        out[name] = await request(server.port, { path: '/p/%E0%A4%A' })
      } finally {
        await server.close()
      }
    }
    const { date: _a, 'x-powered-by': _b, etag: _c, ...ours } = (out.switchyard as any).headers
    const { date: _d, 'x-powered-by': _e, etag: _f, ...theirs } = (out.express as any).headers
    expect(ours).toEqual(theirs)
    expect((out.switchyard as any).body).toBe((out.express as any).body)
    expect((out.switchyard as any).status).toBe(400)
    expect(JSON.parse((out.switchyard as any).body)).toMatchObject({ status: 400, statusCode: 400 })
  })
})
