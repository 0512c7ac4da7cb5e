import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { appWith } from './support/res'

describe('res.links(links)', () => {
  it('sets a comma-joined Link header', async () => {
    const res = await request(appWith((req, res) => res.links({ next: '/p/3', last: '/p/9' }).end())).get('/')
    expect(res.headers.link).toBe('</p/3>; rel="next", </p/9>; rel="last"')
  })

  it('appends to an existing Link header', async () => {
    const res = await request(appWith((req, res) => res.links({ next: '/n' }).links({ prev: '/p' }).end())).get('/')
    expect(res.headers.link).toBe('</n>; rel="next", </p>; rel="prev"')
  })

  it('gives several links of one rel for an array', async () => {
    const res = await request(appWith((req, res) => res.links({ alternate: ['/en', '/fr'] }).end())).get('/')
    expect(res.headers.link).toBe('</en>; rel="alternate", </fr>; rel="alternate"')
  })
})
