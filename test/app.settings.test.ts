import { describe, expect, it } from 'vitest'
import request from 'supertest'
import { resolve } from 'node:path'
import fw from '../src/index'
import { reply } from './support/app'

describe('app.set(name, value) / app.get(name)', () => {
  it('stores any name and returns the app for chaining', () => {
    const app = fw()
    expect(app.set('anything', { a: 1 })).toBe(app)
    expect(app.get('anything')).toEqual({ a: 1 })
    expect(app.set('anything')).toEqual({ a: 1 })
    expect(app.get('missing')).toBeUndefined()
  })

  it('has the documented defaults', () => {
    const app = fw()
    expect(app.get('x-powered-by')).toBe(true)
    expect(app.get('etag')).toBe('weak')
    expect(app.get('env')).toBe(process.env.NODE_ENV || 'development')
    expect(app.get('query parser')).toBe('simple')
    expect(app.get('subdomain offset')).toBe(2)
    expect(app.get('trust proxy')).toBe(false)
    expect(app.get('views')).toBe(resolve('views'))
    expect(app.get('jsonp callback name')).toBe('callback')
    expect(app.get('case sensitive routing')).toBeUndefined()
    expect(app.get('strict routing')).toBeUndefined()
    expect(app.get('view engine')).toBeUndefined()
    expect(typeof app.get('view')).toBe('function')
  })

  it('env comes from NODE_ENV, default development; view cache is on in production', () => {
    const saved = process.env.NODE_ENV
    try {
      delete process.env.NODE_ENV
      expect(fw().get('env')).toBe('development')
      expect(fw().get('view cache')).toBeUndefined()
      process.env.NODE_ENV = 'production'
      expect(fw().get('env')).toBe('production')
      expect(fw().get('view cache')).toBe(true)
    } finally {
      process.env.NODE_ENV = saved
    }
  })

  it('enable/disable/enabled/disabled', () => {
    const app = fw()
    expect(app.enable('feature')).toBe(app)
    expect(app.get('feature')).toBe(true)
    expect(app.enabled('feature')).toBe(true)
    app.disable('feature')
    expect(app.get('feature')).toBe(false)
    expect(app.disabled('feature')).toBe(true)
    expect(app.enabled('never-set')).toBe(false)
    expect(app.disabled('never-set')).toBe(true)
  })
})

describe('compiled settings', () => {
  it('etag compiles to a function once, when set', () => {
    const app = fw()
    const weak = app.get('etag fn')
    expect(weak('hello')).toMatch(/^W\/"/)
    app.set('etag', 'strong')
    expect(app.get('etag fn')('hello')).toMatch(/^"/)
    app.set('etag', true)
    expect(app.get('etag fn')).toBe(weak)
    app.set('etag', false)
    expect(app.get('etag fn')).toBeUndefined()
    const custom = () => '"x"'
    app.set('etag', custom)
    expect(app.get('etag fn')).toBe(custom)
    expect(() => app.set('etag', 'bogus')).toThrow(new TypeError('unknown value for etag function: bogus'))
  })

  it('query parser compiles to a function once, when set', () => {
    const app = fw()
    expect(app.get('query parser fn')('a[b]=1&a[b]=2')).toEqual({ 'a[b]': ['1', '2'] })
    app.set('query parser', 'extended')
    expect(app.get('query parser fn')('a[b]=1')).toEqual({ a: { b: '1' } })
    app.set('query parser', false)
    expect(app.get('query parser fn')).toBeUndefined()
    const custom = (s: string) => ({ raw: s })
    app.set('query parser', custom)
    expect(app.get('query parser fn')).toBe(custom)
    expect(() => app.set('query parser', 'bogus')).toThrow(new TypeError('unknown value for query parser function: bogus'))
  })

  it('trust proxy compiles every form to a function once, when set', () => {
    const app = fw()
    expect(app.get('trust proxy fn')('1.2.3.4', 0)).toBe(false)
    app.set('trust proxy', true)
    expect(app.get('trust proxy fn')('1.2.3.4', 5)).toBe(true)
    app.set('trust proxy', 2)
    expect(app.get('trust proxy fn')('1.2.3.4', 1)).toBe(true)
    expect(app.get('trust proxy fn')('1.2.3.4', 2)).toBe(false)
    app.set('trust proxy', 'loopback, 10.0.0.0/8')
    expect(app.get('trust proxy fn')('127.0.0.1', 0)).toBe(true)
    expect(app.get('trust proxy fn')('10.1.2.3', 0)).toBe(true)
    expect(app.get('trust proxy fn')('11.1.2.3', 0)).toBe(false)
    app.set('trust proxy', ['uniquelocal'])
    expect(app.get('trust proxy fn')('192.168.1.1', 0)).toBe(true)
    const custom = (ip: string) => ip === '1.1.1.1'
    app.set('trust proxy', custom)
    expect(app.get('trust proxy fn')).toBe(custom)
  })
})

describe('x-powered-by', () => {
  it('sends X-Powered-By: Switchyard by default, nothing when disabled', async () => {
    const app = fw()
    app.get('/', reply('ok'))
    const on = await request(app).get('/')
    expect(on.headers['x-powered-by']).toBe('Switchyard')
    app.disable('x-powered-by')
    const off = await request(app).get('/')
    expect(off.headers['x-powered-by']).toBeUndefined()
  })
})

describe('settings inheritance (sub-apps)', () => {
  function mounted(configure: (parent: any) => void) {
    const parent = fw()
    configure(parent)
    const child = fw()
    parent.use('/child', child)
    return { parent, child }
  }

  it('inherits settings that have no default', () => {
    const { child } = mounted((p) => {
      p.set('view engine', 'ejs')
      p.set('json spaces', 2)
      p.set('json replacer', 'r')
      p.set('json escape', true)
      p.enable('case sensitive routing')
      p.enable('strict routing')
      p.set('custom', 'x')
    })
    expect(child.get('view engine')).toBe('ejs')
    expect(child.get('json spaces')).toBe(2)
    expect(child.get('json replacer')).toBe('r')
    expect(child.get('json escape')).toBe(true)
    expect(child.get('case sensitive routing')).toBe(true)
    expect(child.get('strict routing')).toBe(true)
    expect(child.get('custom')).toBe('x')
  })

  it('does not inherit settings that have a default', () => {
    const { child } = mounted((p) => {
      p.set('etag', 'strong')
      p.set('query parser', 'extended')
      p.set('subdomain offset', 3)
      p.set('jsonp callback name', 'cb')
      p.disable('x-powered-by')
      p.set('env', 'staging')
      p.set('views', '/elsewhere')
    })
    expect(child.get('etag')).toBe('weak')
    expect(child.get('query parser')).toBe('simple')
    expect(child.get('subdomain offset')).toBe(2)
    expect(child.get('jsonp callback name')).toBe('callback')
    expect(child.get('x-powered-by')).toBe(true)
    expect(child.get('env')).not.toBe('staging')
    expect(child.get('views')).toBe(resolve('views'))
  })

  it('inherits trust proxy unless the child set its own', () => {
    const trust = (ip: string) => ip === '1.1.1.1'
    const { child } = mounted((p) => p.set('trust proxy', trust))
    expect(child.get('trust proxy fn')).toBe(trust)

    const parent = fw()
    parent.set('trust proxy', true)
    const own = fw()
    own.set('trust proxy', 1)
    parent.use(own)
    expect(own.get('trust proxy')).toBe(1)
  })

  it('does not inherit view cache in production', () => {
    const saved = process.env.NODE_ENV
    try {
      process.env.NODE_ENV = 'production'
      const parent = fw()
      const child = fw()
      child.disable('view cache')
      parent.use(child)
      expect(parent.get('view cache')).toBe(true)
      expect(child.get('view cache')).toBe(false)
    } finally {
      process.env.NODE_ENV = saved
    }
  })

  it('a sub-app sees its parent\'s engines and extends its request/response prototypes', async () => {
    const parent = fw()
    const engine = (p: string, o: any, cb: any) => cb(null, 'x')
    parent.engine('tmpl', engine)
    ;(parent.request as any).fromParent = 'yes'
    const child = fw()
    parent.use('/c', child)
    expect(child.engines['.tmpl']).toBe(engine)
    child.get('/', reply((req) => req.fromParent))
    await request(parent).get('/c').expect(200, 'yes')
  })
})

describe('app.locals', () => {
  it('is an object with the settings, reachable as req.app.locals', async () => {
    const app = fw()
    app.locals.title = 'My App'
    expect(app.locals.settings).toBe(app.settings)
    app.get('/', reply((req) => req.app.locals.title))
    await request(app).get('/').expect(200, 'My App')
  })
})
