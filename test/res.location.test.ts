import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { appWith } from './support/res'

const locationOf = async (url: string, headers: Record<string, string> = {}): Promise<string> =>
  (await request(appWith((req, res) => res.location(url).end())).get('/').set(headers)).headers.location

describe('res.location(url)', () => {
  it('sets Location', async () => {
    expect(await locationOf('/login')).toBe('/login')
    expect(await locationOf('https://example.com/a?b=c#d')).toBe('https://example.com/a?b=c#d')
  })

  it('percent-encodes what a URL may not hold, keeping existing escapes', async () => {
    expect(await locationOf('/a b/ü?q=%20&r=%zz')).toBe('/a%20b/%C3%BC?q=%20&r=%25zz')
  })

  it('never leaves <, " or a space raw', async () => {
    const loc = await locationOf('/x<script>"y z')
    expect(loc).toBe('/x%3Cscript%3E%22y%20z')
    expect(loc).not.toMatch(/[<" ]/)
  })

  it('encodes CR/LF instead of injecting a header', async () => {
    const res = await request(appWith((req, res) => res.location('/a\r\nSet-Cookie: x=1').end())).get('/')
    expect(res.headers.location).toBe('/a%0D%0ASet-Cookie:%20x=1')
    expect(res.headers['set-cookie']).toBeUndefined()
  })

  it("does not treat 'back' specially", async () => {
    expect(await locationOf('back', { Referer: '/previous' })).toBe('back')
  })
})
