import request from 'supertest'
import { describe, expect, it } from 'vitest'
import fw from '../src/index'
import { appWith } from './support/res'

const negotiating = (): any => appWith((req, res) => res.format({
  text: () => res.send('text'),
  html: () => res.send('<p>html</p>'),
  'application/json': () => res.json({ kind: 'json' })
}))

describe('res.format(object)', () => {
  it('runs the handler the client prefers and sets its Content-Type and Vary', async () => {
    const res = await request(negotiating()).get('/').set('Accept', 'text/html')
    expect(res.text).toBe('<p>html</p>')
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers.vary).toBe('Accept')
  })

  it('takes quality values into account', async () => {
    const res = await request(negotiating()).get('/').set('Accept', 'text/html;q=0.2, application/json')
    expect(res.body).toEqual({ kind: 'json' })
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
  })

  it('runs the first handler without an Accept header', async () => {
    const app = negotiating()
    const res = await request(app).get('/').unset('Accept')
    expect(res.text).toBe('text')
  })

  it('runs default when nothing matches', async () => {
    const app = appWith((req, res) => res.format({ json: () => res.send('j'), default: () => res.send('fallback') }))
    const res = await request(app).get('/').set('Accept', 'image/png')
    expect(res.text).toBe('fallback')
  })

  it('passes a 406 error listing the normalised types when nothing matches and there is no default', async () => {
    let error: any
    const app = fw()
    app.get('/', (req: any, res: any) => res.format({ json: () => res.send('j'), 'text/html; level=1': () => res.send('h'), nope: () => res.send('n') }))
    app.use((err: any, req: any, res: any, next: any) => { error = err; res.status(err.status).send(err.message) })
    const res = await request(app).get('/').set('Accept', 'image/png')
    expect(res.status).toBe(406)
    expect(res.text).toBe('Not Acceptable')
    expect(res.headers.vary).toBe('Accept')
    expect(error.types).toEqual(['application/json', 'text/html', 'application/octet-stream'])
  })

  it('answers 406 through the default error handler', async () => {
    const app = fw()
    app.get('/', (req: any, res: any) => res.format({ json: () => res.send('j') }))
    const res = await request(app).get('/').set('Accept', 'text/html')
    expect(res.status).toBe(406)
  })

  it('hands req, res and next to the handler', async () => {
    const app = appWith((req, res) => res.format({ text: (rq: any, rs: any, next: any) => rs.send(String(rq === req && rs === res && typeof next === 'function')) }))
    const res = await request(app).get('/')
    expect(res.text).toBe('true')
  })
})
