import { describe, expect, it } from 'vitest'
import request from 'supertest'
import { probe } from './support/req-app'

describe('req.xhr', () => {
  const app = probe((req) => req.xhr)

  it('is true for X-Requested-With: XMLHttpRequest, in any case', async () => {
    expect((await request(app).get('/').set('X-Requested-With', 'XMLHttpRequest')).body.v).toBe(true)
    expect((await request(app).get('/').set('X-Requested-With', 'xmlhttprequest')).body.v).toBe(true)
  })

  it('is false for another value or without the header', async () => {
    expect((await request(app).get('/').set('X-Requested-With', 'fetch')).body.v).toBe(false)
    expect((await request(app).get('/')).body.v).toBe(false)
  })
})
