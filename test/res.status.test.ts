import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { appWith } from './support/res'

describe('res.status(code)', () => {
  it('sets the status and is chainable', async () => {
    const res = await request(appWith((req, res) => res.status(201).send('created'))).get('/')
    expect(res.status).toBe(201)
    expect(res.text).toBe('created')
  })

  it('accepts the whole 100-999 range', async () => {
    const res = await request(appWith((req, res) => res.status(999).end())).get('/')
    expect(res.status).toBe(999)
  })

  it.each([
    [1.5, 'TypeError: Invalid status code: 1.5. Status code must be an integer.'],
    ['200', 'TypeError: Invalid status code: "200". Status code must be an integer.'],
    [undefined, 'TypeError: Invalid status code: undefined. Status code must be an integer.'],
    [Number.NaN, 'TypeError: Invalid status code: null. Status code must be an integer.'],
    [99, 'RangeError: Invalid status code: 99. Status code must be greater than 99 and less than 1000.'],
    [1000, 'RangeError: Invalid status code: 1000. Status code must be greater than 99 and less than 1000.'],
    [-200, 'RangeError: Invalid status code: -200. Status code must be greater than 99 and less than 1000.']
  ])('throws for %s', async (code, message) => {
    const res = await request(appWith((req, res) => res.status(code))).get('/')
    expect(res.status).toBe(500)
    expect(res.text).toBe(message)
  })
})

describe('res.sendStatus(code)', () => {
  it('sends the registered message as text/plain', async () => {
    const res = await request(appWith((req, res) => res.sendStatus(404))).get('/')
    expect(res.status).toBe(404)
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(res.text).toBe('Not Found')
  })

  it('sends the number for an unregistered code', async () => {
    const res = await request(appWith((req, res) => res.sendStatus(599))).get('/')
    expect(res.status).toBe(599)
    expect(res.text).toBe('599')
  })

  it('sends no body for 204 but keeps the ETag', async () => {
    const res = await request(appWith((req, res) => res.sendStatus(204))).get('/')
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect(res.headers['content-type']).toBeUndefined()
    expect(res.headers.etag).toMatch(/^W\//)
  })

  it('throws for an invalid code before touching the response', async () => {
    const res = await request(appWith((req, res) => res.sendStatus(1000))).get('/')
    expect(res.status).toBe(500)
    expect(res.text).toMatch(/^RangeError/)
  })
})
