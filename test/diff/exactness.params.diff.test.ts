// Differential tests of route and mount params against express@5.3 /
// router@2.3: req.params at every kind of layer, mergeParams, param
// callbacks and params that cannot be decoded. Each builds the same app on
// both, sends the same request, and compares what a middleware can observe.
import express from 'express'
import { describe, expect, it } from 'vitest'
import fw from '../../src/index'
import { listen, request } from '../support/diff'
import { recorded, type Lib } from '../support/recorded'

describe('req.params of a static path', () => {
  it('has no prototype, as path-to-regexp gives it, for routes and use paths', async () => {
    const r = await recorded((app, lib, record) => {
      const check = (tag: string) => (req: any, res: any, next: any) => { record([tag, Object.getPrototypeOf(req.params) === null]); next() }
      app.use(check('use /'))
      app.use('/s', check('use /s'))
      app.get('/s/t', check('route /s/t'), (req: any, res: any) => res.end())
    }, { path: '/s/t' })
    expect(r.switchyard.records).toEqual(r.express.records)
  })
})

describe('req.params of a mount (a dictionary unless a mergeParams router copies them)', () => {
  // a mount's params are made one way for a mergeParams router below and
  // another for everything else; a param trigger sees the object itself
  const mounts: Array<[string, string]> = [
    ['a middleware', '/mw/1/x'],
    ['a router', '/r/2/x'],
    ['a mergeParams router', '/m/3/x'],
    ['a sub-app', '/app/4/x'],
    ['a mergeParams router without parameters', '/em/x'],
    ['a router without parameters', '/e/x']
  ]
  for (const [label, path] of mounts) {
    it(`on ${label}: the same object as in Express, to a param trigger and below`, async () => {
      const r = await recorded((app, lib, record) => {
        const look = (tag: string, p: any) => record({
          tag,
          nullProto: Object.getPrototypeOf(p) === null,
          keys: Reflect.ownKeys(p),
          json: JSON.stringify(p),
          extensible: Object.isExtensible(p),
          descriptor: Object.getOwnPropertyDescriptor(p, 'x')
        })
        app.param('x', (req: any, res: any, next: any, value: string) => {
          look('trigger', req.params)
          // written into the mount's own params: a mergeParams router below copies it
          req.params.written = value + '!'
          req.params.x = value + '?'
          next()
        })
        const answer = (req: any, res: any) => { look('route', req.params); res.json(req.params) }
        app.use('/mw/:x', (req: any, res: any) => { look('middleware', req.params); res.json(req.params) })
        const plain = lib.Router()
        plain.get('/x', answer)
        app.use('/r/:x', plain)
        const merged = lib.Router({ mergeParams: true })
        merged.use((req: any, res: any, next: any) => { look('merged middleware', req.params); next() })
        merged.get('/x', answer)
        app.use('/m/:x', merged)
        const sub = lib()
        sub.get('/x', answer)
        app.use('/app/:x', sub)
        const emptyMerged = lib.Router({ mergeParams: true })
        emptyMerged.get('/x', answer)
        app.use('/em', (req: any, res: any, next: any) => { look('before', req.params); next() }, emptyMerged)
        const empty = lib.Router()
        empty.get('/x', answer)
        app.use('/e', empty)
      }, { path })
      expect(r.switchyard).toEqual(r.express)
      expect(r.switchyard.records.length).toBeGreaterThan(0)
    })
  }
})

describe('req.params of a middleware on / (a fresh empty object)', () => {
  it('is an ordinary empty object, a new one for each middleware, as {} is in Express', async () => {
    const r = await recorded((app, lib, record) => {
      let previous: unknown
      const look = (tag: string) => (req: any, res: any, next: any) => {
        const p = req.params
        record({
          tag,
          proto: Object.getPrototypeOf(p) === Object.prototype,
          ctor: p.constructor === Object,
          keys: Reflect.ownKeys(p),
          json: JSON.stringify(p),
          text: Object.prototype.toString.call(p) + String(p),
          extensible: Object.isExtensible(p),
          same: p === previous,
          spread: { ...p }
        })
        previous = p
        // what one middleware writes stays in its own object
        p.written = tag
        Object.defineProperty(p, 'hidden', { value: 1, enumerable: false })
        record({ tag, after: Object.keys(p), descriptor: Object.getOwnPropertyDescriptor(p, 'written'), hidden: Object.getOwnPropertyNames(p) })
        next()
      }
      app.use(look('first'), look('second'))
      app.use(look('third'))
      const merged = lib.Router({ mergeParams: true })
      merged.use(look('in a mergeParams router'))
      merged.get('/:id', (req: any, res: any) => res.json(req.params))
      app.use('/m/:x', merged)
      const plain = lib.Router()
      plain.use(look('in a plain router'))
      plain.get('/:id', (req: any, res: any) => res.json(req.params))
      app.use('/p', plain)
    }, { path: '/m/1/2' })
    expect(r.switchyard).toEqual(r.express)
    expect(r.switchyard.records.length).toBe(8)
    const again = await recorded((app, lib, record) => {
      const plain = lib.Router()
      plain.use((req: any, res: any, next: any) => { record([Object.getPrototypeOf(req.params) === Object.prototype, Object.keys(req.params)]); next() })
      plain.get('/:id', (req: any, res: any) => res.json(req.params))
      app.use('/p', plain)
    }, { path: '/p/7' })
    expect(again.switchyard).toEqual(again.express)
    expect(again.switchyard.records).toEqual([[true, []]])
  })
})

describe('res.locals and the params of a path without parameters (empty objects without prototype)', () => {
  it('are fresh objects without prototype that take keys as Object.create(null) does', async () => {
    const r = await recorded((app, lib, record) => {
      const look = (tag: string, obj: any) => {
        record({
          tag,
          proto: Object.getPrototypeOf(obj),
          keys: Reflect.ownKeys(obj),
          json: JSON.stringify(obj),
          extensible: Object.isExtensible(obj),
          inObject: 'toString' in obj,
          text: Object.prototype.toString.call(obj)
        })
        obj.written = tag
        obj.__proto__ = 'a key like any other'
        obj[Symbol.for('switchyard.test')] = 1
        for (let i = 0; i < 40; i++) obj['k' + i] = i
        delete obj.k3
        record({ tag, keys: Reflect.ownKeys(obj).length, own: Object.keys(obj).slice(0, 6), proto: Object.getPrototypeOf(obj), protoKey: Object.getOwnPropertyDescriptor(obj, '__proto__') })
      }
      app.get('/static/path', (req: any, res: any, next: any) => {
        look('params', req.params)
        look('locals', res.locals)
        next()
      }, (req: any, res: any) => res.json({ params: req.params, locals: res.locals }))
    }, { path: '/static/path' })
    expect(r.switchyard).toEqual(r.express)
    expect(r.switchyard.records.length).toBe(4)
  })
})

describe('mergeParams copies what Object.assign copies', () => {
  it('keys the app added to the parent params (a symbol, a string) and indexed params, in order', async () => {
    const r = await recorded((app, lib, record) => {
      const mark = Symbol.for('switchyard.test.mark')
      const inner = lib.Router({ mergeParams: true })
      inner.get(/^\/(\d+)$/, (req: any, res: any) => {
        record([Object.keys(req.params), req.params[mark] ?? null, Object.getOwnPropertySymbols(req.params).length, { ...req.params }])
        res.end()
      })
      // the app calls the router itself, so the params it changed are the parent's
      app.use('/a/:x/:y', (req: any, res: any, next: any) => {
        req.params[mark] = 'symbol value'
        req.params.added = 'by the app'
        Object.defineProperty(req.params, 'hidden', { value: 'not enumerable', enumerable: false })
        inner(req, res, next)
      })
    }, { path: '/a/1/2/3' })
    expect(r.switchyard.records).toEqual(r.express.records)
    expect((r.switchyard.records[0] as unknown[])[1]).toBe('symbol value')
  })
})

describe('params through mergeParams routers', () => {
  const build = (app: any, lib: Lib, record: (v: unknown) => void) => {
    const look = (tag: string) => (req: any, res: any, next: any) => {
      record({ tag, params: { ...req.params }, keys: Object.keys(req.params), nullProto: Object.getPrototypeOf(req.params) === null })
      next()
    }
    const outer = lib.Router({ mergeParams: true })
    const inner = lib.Router({ mergeParams: true })
    const plain = lib.Router()
    inner.param('id', (req: any, res: any, next: any, id: string) => { record({ trigger: id }); next() })
    inner.get('/:id', look('inner route'))
    inner.get('/static/x', look('inner static'))
    inner.use('/m/:id', look('inner mount'))
    inner.get(/^\/(\d+)\/(\d+)$/, look('numeric'))
    outer.use('/:section', inner)
    outer.get('/only/:id', look('outer route'))
    plain.get('/:id', look('plain route'))
    app.use('/:area', outer)
    app.use('/p', plain)
    app.get('/static/y', look('app static'))
    app.use((req: any, res: any) => res.json({ done: true }))
  }
  for (const path of ['/a/b/42', '/a/b/static/x', '/a/b/m/7/rest', '/a/only/9', '/p/5', '/static/y', '/a/b/1/2']) {
    it(`gives the same params for ${path}`, async () => {
      const r = await recorded(build, { method: 'GET', path })
      expect(r.switchyard).toEqual(r.express)
      expect(r.switchyard.records.length).toBeGreaterThan(0)
    })
  }
})

describe('params filled by code made for their keys', () => {
  // One app per library; every path is asked of the same app in turn, so a
  // matcher that keeps the parent's key list of its last request sees
  // others (the router c is mounted twice, under parents with other keys).
  const look = (record: (v: unknown) => void, tag: string) => (req: any, res: any, next: any) => {
    const params = req.params
    const proto = Object.getPrototypeOf(params)
    record({
      tag,
      keys: Reflect.ownKeys(params).map(String),
      values: Object.values(params),
      proto: proto === null ? 'null' : proto === Object.prototype ? 'Object' : 'other',
      // every own key an enumerable, writable data property
      plainData: Reflect.ownKeys(params).every((k) => { const d = Object.getOwnPropertyDescriptor(params, k)!; return 'value' in d && d.enumerable && d.writable && d.configurable })
    })
    next()
  }
  const build = (app: any, lib: Lib, record: (v: unknown) => void) => {
    const a = lib.Router({ mergeParams: true })
    const b = lib.Router({ mergeParams: true })
    const c = lib.Router({ mergeParams: true })
    c.get('/:pid', look(record, 'three deep'))
    // a name the parent has: its value changes where the key stands
    c.get('/:uid/again', look(record, 'a name the parent has'))
    c.use(look(record, 'a middleware of c'))
    b.use('/:uid/posts', c)
    b.use('/lit', c)
    a.use('/users', b)
    app.use('/api/:version', a)
    // names a fill does not take, or that need quoting
    const odd = lib.Router({ mergeParams: true })
    odd.get('/q/:"a b"/:"x\\"y"/:ünï', look(record, 'quoted and unicode names'))
    odd.get('/idx/:"1"/:"0"', look(record, 'index names'))
    odd.get('/proto/:__proto__', look(record, '__proto__'))
    odd.get('/five/:p1/:p2/:p3/:p4/:p5', look(record, 'five parameters'))
    odd.get('/four/:p1/:p2/:p3/:p4', look(record, 'four parameters'))
    // literal routes under mergeParams, a strict router, eight and nine
    // parameters (the fill is made for patterns of up to eight)
    odd.get('/list', look(record, 'a literal route'))
    odd.get('/eight/:p1/:p2/:p3/:p4/:p5/:p6/:p7/:p8', look(record, 'eight parameters'))
    odd.get('/nine/:p1/:p2/:p3/:p4/:p5/:p6/:p7/:p8/:p9', look(record, 'nine parameters'))
    app.use('/odd/:"we ird"', odd)
    const strict = lib.Router({ mergeParams: true, strict: true })
    strict.get('/exact/', look(record, 'a strict literal route'))
    strict.get('/id/:n/', look(record, 'a strict route with a parameter'))
    app.use('/s/:k', strict)
    const sensitive = lib.Router({ mergeParams: true, caseSensitive: true })
    sensitive.get('/Item/:id', look(record, 'a case-sensitive route'))
    sensitive.get('/Items', look(record, 'a case-sensitive literal route'))
    app.use('/c/:k', sensitive)
    // a trigger on the router of the mount: the params are not filled then
    const t = lib.Router()
    t.param('tid', (req: any, res: any, next: any, id: string) => { record({ trigger: id }); next() })
    const below = lib.Router({ mergeParams: true })
    below.get('/:leaf', look(record, 'below a trigger'))
    t.use('/t/:tid', below)
    app.use(t)
    // a plain router between two mergeParams ones
    const plain = lib.Router()
    const under = lib.Router({ mergeParams: true })
    under.get('/:z', look(record, 'under a plain router'))
    plain.use('/:y', under)
    const over = lib.Router({ mergeParams: true })
    over.use('/p', plain)
    app.use('/o/:x', over)
    app.use((err: any, req: any, res: any, next: any) => res.status(err.status || 500).json({ error: err.message }))
    app.use((req: any, res: any) => res.json({ done: true, params: req.params }))
  }
  const paths = [
    '/api/v1/users/42/posts/7', '/api/v1/users/lit/9', '/api/v1/users/42/posts/7', '/api/v2/users/42/posts/42/again',
    '/api/v1/users/42/posts/', '/api/v%201/users/4%202/posts/7%25', '/api/v1/users/42/posts/%E0%A4%A', '/api/v1/users/lit/9',
    '/odd/w/q/1/2/3', '/odd/w/idx/1/2', '/odd/w/proto/x', '/odd/w/five/1/2/3/4/5', '/odd/w/four/1/2/3/4',
    '/t/9/leaf', '/o/1/p/2/3', '/API/V1/USERS/42/POSTS/7',
    '/odd/w/list', '/odd/w/LIST/', '/odd/w/list//', '/odd/w/eight/1/2/3/4/5/6/7/8', '/odd/w/eight/1/2/3/4/5/6/7/%E0', '/odd/w/nine/1/2/3/4/5/6/7/8/9',
    '/s/1/exact/', '/s/1/exact', '/s/1/exact//', '/s/1/EXACT/', '/s/1/id/7/', '/s/1/id/7', '/s/1/id/7//', '/s/1/id/%37/',
    '/c/1/Item/5', '/c/1/item/5', '/c/1/ITEM/5', '/c/1/Items', '/c/1/items', '/c/1/Items/'
  ]
  const run = async (lib: Lib) => {
    const records: unknown[] = []
    const app = (lib as Lib)()
    build(app, lib, (v) => records.push(v))
    const server = await listen(app)
    const answers: unknown[] = []
    try {
      for (const path of paths) {
        records.push({ path })
        const answer = await request(server.port, { method: 'GET', path })
        answers.push([answer.status, answer.body])
      }
    } finally {
      await server.close()
    }
    return { records, answers }
  }
  it('gives the same params, keys, order and prototypes as Express, request after request', async () => {
    const ours = await run(fw as unknown as Lib)
    const theirs = await run(express as unknown as Lib)
    expect(ours).toEqual(theirs)
    // (the paths reached what they were meant to)
    expect(ours.records).toContainEqual(expect.objectContaining({ tag: 'three deep', keys: ['version', 'uid', 'pid'], values: ['v1', '42', '7'] }))
    expect(ours.records).toContainEqual(expect.objectContaining({ tag: 'a name the parent has', keys: ['version', 'uid'], values: ['v2', '42'] }))
    expect(ours.records).toContainEqual(expect.objectContaining({ tag: 'three deep', keys: ['version', 'pid'], values: ['v1', '9'] }))
    expect(ours.records).toContainEqual(expect.objectContaining({ tag: 'quoted and unicode names', keys: ['we ird', 'a b', 'x"y', 'ünï'] }))
    expect(ours.records).toContainEqual(expect.objectContaining({ tag: 'index names', keys: ['0', '1', 'we ird'] }))
    expect(ours.records).toContainEqual(expect.objectContaining({ tag: 'under a plain router', keys: ['y', 'z'] }))
    expect((ours.answers as unknown[][]).some(([status]) => status === 400)).toBe(true)
  })

  it("copies what a layer's replaced match added to the parent's params, and runs a trigger it added", async () => {
    // A tool's `match` is anyone's code: the router must not copy the
    // parent's params by the keys it knew before it ran, nor take the
    // param triggers it saw before it for all there are.
    const r = await recorded((app, lib, record) => {
      let current: any
      app.use((req: any, res: any, next: any) => { current = req; next() })
      const child = lib.Router({ mergeParams: true })
      child.get('/none', look(record, 'never'))
      child.get('/:leaf', look(record, 'after a replaced match'))
      const replaced = child.stack[0]
      let added = false
      replaced.match = function () {
        current.params.added = 'by the match'
        if (!added) {
          added = true
          child.param('leaf', (req: any, res: any, next: any, value: string) => { record({ trigger: value }); next() })
        }
        return false
      }
      app.use('/r/:x', child)
    }, { path: '/r/1/leaf' })
    expect(r.switchyard).toEqual(r.express)
    expect(r.switchyard.records).toEqual([{ trigger: 'leaf' }, expect.objectContaining({ keys: ['x', 'added', 'leaf'] })])
  })

  it('sets a key through a setter on Object.prototype as Object.assign does', async () => {
    // Object.assign sets each key on the new object, so a setter that
    // Object.prototype has for that name runs and no own key is made; the
    // fill's stores are sets too
    const calls: unknown[] = []
    Object.defineProperty(Object.prototype, 'zzSetter', { configurable: true, get() { return undefined }, set(v) { calls.push(v) } })
    try {
      const r = await recorded((app, lib, record) => {
        const child = lib.Router({ mergeParams: true })
        child.get('/:leaf', look(record, 'below a setter'))
        app.use('/s/:zzSetter', child)
      }, { path: '/s/value/leaf' })
      expect(r.switchyard).toEqual(r.express)
      expect(r.switchyard.records).toEqual([expect.objectContaining({ keys: ['leaf'] })])
      expect(calls).toEqual(['value', 'value'])
    } finally {
      delete (Object.prototype as any).zzSetter
    }
  })
})

// router@2.3 keeps param callbacks in a plain object: a name that
// Object.prototype holds finds a function there, and pushing to it fails.
describe('param callbacks on a name Object.prototype holds', () => {
  for (const name of ['toString', '__proto__', 'constructor', 'hasOwnProperty', 'valueOf']) {
    it(`router.param('${name}') and app.param('${name}') throw router@2.3's TypeError`, () => {
      const thrown = (register: () => unknown) => {
        try {
          register()
          return 'no error'
        } catch (err: any) {
          return `${err.constructor.name}: ${err.message}`
        }
      }
      const ours = [thrown(() => fw.Router().param(name, () => {})), thrown(() => fw().param(name, () => {}))]
      const theirs = [thrown(() => express.Router().param(name, () => {})), thrown(() => express().param(name, () => {}))]
      expect(ours).toEqual(theirs)
      expect(theirs[0]).toBe('TypeError: params.push is not a function')
    })
  }

  it('a falsy entry put in router.params is replaced, as router@2.3 replaces it', () => {
    const ours = fw.Router() as any
    const theirs = express.Router() as any
    ours.params.id = 0
    theirs.params.id = 0
    ours.param('id', () => {})
    theirs.param('id', () => {})
    expect(ours.params.id.length).toBe(theirs.params.id.length)
  })
})

// router@2.3 marks a param it cannot decode with `err.status = err.statusCode
// = 400`: statusCode becomes an own key first. An error handler that
// serialises the error (res.json(err), Object.keys) shows the order.
describe('the error for a param that cannot be decoded', () => {
  for (const path of ['/u/%ZZ', '/w/a/%ZZ', '/r/%E0%A4%A', '/m/%ZZ/x']) {
    it(`${path}: the same own keys, in order`, async () => {
      const seen: Record<string, unknown> = {}
      for (const [name, lib] of [['switchyard', fw], ['express', express]] as const) {
        const app = (lib as Lib)()
        app.get('/u/:id', (req: any, res: any) => res.send('ok'))
        app.get('/w/*rest', (req: any, res: any) => res.send('ok'))
        app.get(/^\/r\/(.+)$/, (req: any, res: any) => res.send('ok'))
        app.use('/m/:id', (req: any, res: any) => res.send('ok'))
        app.use((err: any, req: any, res: any, next: any) => res.status(err.status).json({ keys: Object.keys(err), err, message: err.message }))
        const server = await listen(app)
        try {
          const { status, body } = await request(server.port, { path })
          seen[name] = { status, body }
        } finally {
          await server.close()
        }
      }
      expect(seen.switchyard).toEqual(seen.express)
      expect((seen.express as any).body).toContain('"keys":["statusCode","status"]')
    })
  }
})
