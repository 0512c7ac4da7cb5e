import cookieParser from 'cookie-parser'
import signature from 'cookie-signature'
import request from 'supertest'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { appWith } from './support/res'

const NOW = Date.UTC(2030, 0, 1, 0, 0, 0)
const cookiesOf = async (handler: (req: any, res: any) => unknown, setup?: (app: any) => void): Promise<string[]> =>
  (await request(appWith(handler, '/', setup)).get('/')).headers['set-cookie'] as unknown as string[]

describe('res.cookie(name, value)', () => {
  it('sets a cookie with Path=/ and is chainable', async () => {
    expect(await cookiesOf((req, res) => res.cookie('a', 'b').cookie('c', 'd').end())).toEqual(['a=b; Path=/', 'c=d; Path=/'])
  })

  it('URI-encodes the value', async () => {
    expect(await cookiesOf((req, res) => res.cookie('v', 'a b;c').end())).toEqual(['v=a%20b%3Bc; Path=/'])
  })

  it('stores objects and null as j: + JSON, other values as strings', async () => {
    expect(await cookiesOf((req, res) => res.cookie('o', { x: [1] }).cookie('n', null).cookie('u', undefined).cookie('d', 5).end()))
      .toEqual(['o=j%3A%7B%22x%22%3A%5B1%5D%7D; Path=/', 'n=j%3Anull; Path=/', 'u=undefined; Path=/', 'd=5; Path=/'])
  })

  it('keeps other Set-Cookie headers', async () => {
    expect(await cookiesOf((req, res) => res.append('Set-Cookie', 'x=1').cookie('y', '2').end())).toEqual(['x=1', 'y=2; Path=/'])
  })

  it('rejects an invalid name', async () => {
    const res = await request(appWith((req, res) => res.cookie('a b', 'v').end())).get('/')
    expect(res.status).toBe(500)
    expect(res.headers['set-cookie']).toBeUndefined()
  })
})

describe('res.cookie(name, value, options)', () => {
  beforeEach(() => { vi.spyOn(Date, 'now').mockReturnValue(NOW) })
  afterEach(() => { vi.restoreAllMocks() })

  it('maxAge sets Max-Age in seconds and Expires', async () => {
    expect(await cookiesOf((req, res) => res.cookie('m', 'v', { maxAge: 90_500 }).end()))
      .toEqual(['m=v; Max-Age=90; Path=/; Expires=Tue, 01 Jan 2030 00:01:30 GMT'])
  })

  it('maxAge wins over expires and accepts numeric strings', async () => {
    expect(await cookiesOf((req, res) => res.cookie('m', 'v', { maxAge: '2000', expires: new Date(0) }).end()))
      .toEqual(['m=v; Max-Age=2; Path=/; Expires=Tue, 01 Jan 2030 00:00:02 GMT'])
  })

  it('a non-numeric maxAge is an error', async () => {
    const res = await request(appWith((req, res) => res.cookie('m', 'v', { maxAge: 'soon' }).end())).get('/')
    expect(res.status).toBe(500)
    expect(res.text).toBe('TypeError: option maxAge is invalid')
  })

  it('expires alone', async () => {
    expect(await cookiesOf((req, res) => res.cookie('e', 'v', { expires: new Date(Date.UTC(2031, 5, 1)) }).end()))
      .toEqual(['e=v; Path=/; Expires=Sun, 01 Jun 2031 00:00:00 GMT'])
  })

  it('domain, path, httpOnly, secure, partitioned, priority, sameSite', async () => {
    const options = { domain: 'example.com', path: '/admin', httpOnly: true, secure: true, partitioned: true, priority: 'high', sameSite: 'strict' }
    expect(await cookiesOf((req, res) => res.cookie('all', 'v', options).end()))
      .toEqual(['all=v; Domain=example.com; Path=/admin; HttpOnly; Secure; Partitioned; Priority=High; SameSite=Strict'])
  })

  it('sameSite true, lax and none; priority low and medium', async () => {
    expect(await cookiesOf((req, res) => res
      .cookie('a', '1', { sameSite: true }).cookie('b', '2', { sameSite: 'lax' }).cookie('c', '3', { sameSite: 'none' })
      .cookie('d', '4', { priority: 'low' }).cookie('e', '5', { priority: 'medium' }).end()))
      .toEqual(['a=1; Path=/; SameSite=Strict', 'b=2; Path=/; SameSite=Lax', 'c=3; Path=/; SameSite=None', 'd=4; Path=/; Priority=Low', 'e=5; Path=/; Priority=Medium'])
  })

  it('a custom encode function', async () => {
    expect(await cookiesOf((req, res) => res.cookie('a', 'x y', { encode: (v: string) => v.replace(' ', '+') }).end())).toEqual(['a=x+y; Path=/'])
  })

  it('refuses a domain with CR/LF instead of injecting a header', async () => {
    const res = await request(appWith((req, res) => res.cookie('a', 'b', { domain: 'x.com\r\nX-Evil: 1' }).end())).get('/')
    expect(res.status).toBe(500)
    expect(res.headers['x-evil']).toBeUndefined()
    expect(res.headers['set-cookie']).toBeUndefined()
  })
})

describe('res.cookie(name, value, { signed: true })', () => {
  it('signs with the cookie-parser secret', async () => {
    const cookies = await cookiesOf((req, res) => res.cookie('s', 'v', { signed: true }).cookie('o', { a: 1 }, { signed: true }).end(), (app) => app.use(cookieParser('keyboard cat')))
    expect(cookies[0]).toBe('s=' + encodeURIComponent('s:' + signature.sign('v', 'keyboard cat')) + '; Path=/')
    expect(cookies[1]).toBe('o=' + encodeURIComponent('s:' + signature.sign('j:{"a":1}', 'keyboard cat')) + '; Path=/')
  })

  it('round-trips through req.signedCookies', async () => {
    const app = appWith((req, res) => {
      if (req.query.read) return res.json(req.signedCookies)
      res.cookie('user', { id: 7 }, { signed: true }).end()
    }, '/', (app) => app.use(cookieParser('secret')))
    const first = await request(app).get('/')
    const cookie = first.headers['set-cookie'][0].split(';')[0]
    const second = await request(app).get('/?read=1').set('Cookie', cookie)
    expect(second.body).toEqual({ user: { id: 7 } })
  })

  it('throws without a secret', async () => {
    const res = await request(appWith((req, res) => res.cookie('s', 'v', { signed: true }).end())).get('/')
    expect(res.status).toBe(500)
    expect(res.text).toBe('Error: cookieParser("secret") required for signed cookies')
  })
})

describe('res.clearCookie(name [, options])', () => {
  it('expires the cookie at the epoch with Path=/', async () => {
    expect(await cookiesOf((req, res) => res.clearCookie('sid').end())).toEqual(['sid=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT'])
  })

  it('keeps the identifying options and ignores maxAge and expires', async () => {
    const options = { path: '/admin', domain: 'example.com', secure: true, maxAge: 1000, expires: new Date(Date.UTC(2040, 0, 1)) }
    expect(await cookiesOf((req, res) => res.clearCookie('sid', options).end()))
      .toEqual(['sid=; Domain=example.com; Path=/admin; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Secure'])
  })

  it('does not modify the caller options', async () => {
    const options = { maxAge: 1000 }
    const res = await request(appWith((req, res) => { res.clearCookie('sid', options); res.json(options) })).get('/')
    expect(res.body).toEqual({ maxAge: 1000 })
  })
})
