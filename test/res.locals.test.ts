import request from 'supertest'
import { describe, expect, it } from 'vitest'
import fw from '../src/index'
import { response } from '../src/response'
import { appWith } from './support/res'

describe('res.locals', () => {
  it('is a fresh object for every request', async () => {
    const app = appWith((req, res) => {
      const seen = res.locals.count ?? 0
      res.locals.count = seen + 1
      res.json(res.locals)
    })
    expect((await request(app).get('/')).body).toEqual({ count: 1 })
    expect((await request(app).get('/')).body).toEqual({ count: 1 })
  })
})

describe('res.headersSent', () => {
  it('is false before and true after the headers go out', async () => {
    const app = appWith((req, res) => {
      const before = res.headersSent
      res.write('x')
      res.end(` ${before} ${res.headersSent}`)
    })
    expect((await request(app).get('/')).text).toBe('x false true')
  })
})

describe('res.app and res.req', () => {
  it('link the response to its app and request', async () => {
    let app: any
    app = appWith((req, res) => res.json([res.app === app, res.req === req, req.res === res]))
    expect((await request(app).get('/')).body).toEqual([true, true, true])
  })
})

describe('fw.response', () => {
  it('is the prototype of every response and can be extended per app', async () => {
    const app = appWith((req, res) => res.shout('hi'))
    app.response.shout = function (this: any, text: string) { return this.send(text.toUpperCase()) }
    expect(fw.response).toBe(response)
    expect(Object.getPrototypeOf(app.response)).toBe(response)
    expect((await request(app).get('/')).text).toBe('HI')
    expect((response as any).shout).toBeUndefined()
  })
})

describe('res.end([data])', () => {
  it('ends the response as Node does', async () => {
    expect((await request(appWith((req, res) => res.end('raw'))).get('/')).text).toBe('raw')
  })
})
