import { join } from 'node:path'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import fw from '../src/index'

const VIEWS = join(__dirname, 'fixtures', 'res', 'views')

function viewApp(handler: (req: any, res: any, next: any) => unknown): any {
  const app: any = fw()
  app.set('views', VIEWS)
  app.set('view engine', 'ejs')
  app.locals.site = 'from app'
  app.get('/', handler)
  app.use((err: any, req: any, res: any, next: any) => res.status(500).type('txt').send('error: ' + err.message.split('\n')[0]))
  return app
}

describe('res.render(view [, locals])', () => {
  it('renders and sends the HTML', async () => {
    const res = await request(viewApp((req, res) => res.render('user', { name: 'tobi' }))).get('/')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.text).toBe('<p>tobi (from app)</p>')
  })

  it('merges res.locals over app.locals, and render locals over both', async () => {
    const app = viewApp((req, res) => {
      res.locals.site = 'from res'
      res.locals.name = 'res name'
      res.render(req.query.own ? 'user' : 'user.ejs', req.query.own ? { name: 'own' } : undefined)
    })
    expect((await request(app).get('/')).text).toBe('<p>res name (from res)</p>')
    expect((await request(app).get('/?own=1')).text).toBe('<p>own (from res)</p>')
  })

  it('passes a missing view to next(err)', async () => {
    const res = await request(viewApp((req, res) => res.render('nope'))).get('/')
    expect(res.status).toBe(500)
    expect(res.text).toMatch(/^error: Failed to lookup view "nope"/)
  })

  it('passes a template error to next(err)', async () => {
    const res = await request(viewApp((req, res) => res.render('broken'))).get('/')
    expect(res.status).toBe(500)
    expect(res.text).toMatch(/^error: /)
  })
})

describe('res.render(view, callback)', () => {
  it('hands the HTML to the callback without sending', async () => {
    const app = viewApp((req, res) => {
      res.locals.name = 'cb'
      res.render('user', (err: any, html: string) => res.type('txt').send(`[${err}] ${html}`))
    })
    const res = await request(app).get('/')
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(res.text).toBe('[null] <p>cb (from app)</p>')
  })

  it('hands errors to the callback, not to next', async () => {
    const res = await request(viewApp((req, res) => res.render('nope', {}, (err: any) => res.send('callback got ' + err.name)))).get('/')
    expect(res.status).toBe(200)
    expect(res.text).toBe('callback got Error')
  })
})
