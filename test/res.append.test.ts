import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { appWith } from './support/res'

describe('res.append(field, value)', () => {
  it('creates the header when absent', async () => {
    const res = await request(appWith((req, res) => res.append('Link', '</a>').end())).get('/')
    expect(res.headers.link).toBe('</a>')
  })

  it('appends strings and arrays to existing values', async () => {
    const app = appWith((req, res) => res.append('X-A', '1').append('X-A', ['2', '3']).append('X-A', '4').json(res.get('X-A')))
    const res = await request(app).get('/')
    expect(res.body).toEqual(['1', '2', '3', '4'])
  })

  it('keeps several Set-Cookie headers apart', async () => {
    const res = await request(appWith((req, res) => res.append('Set-Cookie', 'a=1').append('Set-Cookie', ['b=2', 'c=3']).end())).get('/')
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2', 'c=3'])
  })

  it('is reset by a later res.set', async () => {
    const res = await request(appWith((req, res) => res.append('X-A', '1').append('X-A', '2').set('X-A', '3').end())).get('/')
    expect(res.headers['x-a']).toBe('3')
  })

  it('refuses CR/LF', async () => {
    const res = await request(appWith((req, res) => res.append('X-A', ['ok', 'bad\nX-Evil: 1']).end())).get('/')
    expect(res.status).toBe(500)
    expect(res.headers['x-evil']).toBeUndefined()
  })
})
