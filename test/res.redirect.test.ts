import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { appWith } from './support/res'

describe('res.redirect(url)', () => {
  it('redirects with 302 and a text body by default', async () => {
    const res = await request(appWith((req, res) => res.redirect('/login'))).get('/')
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe('/login')
    expect(res.headers.vary).toBe('Accept')
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(res.text).toBe('Found. Redirecting to /login')
  })

  it('sends a small HTML page to HTML clients', async () => {
    const res = await request(appWith((req, res) => res.redirect('/next'))).get('/').set('Accept', 'text/html')
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.text).toBe('<!DOCTYPE html><head><title>Found</title></head><body><p>Found. Redirecting to /next</p></body>')
  })

  it('sends an empty body when neither text nor HTML is accepted', async () => {
    const res = await request(appWith((req, res) => res.redirect('/x'))).get('/').set('Accept', 'image/png')
    expect(res.headers['content-type']).toBeUndefined()
    expect(res.headers['content-length']).toBe('0')
    expect(res.text).toBe('')
  })

  it('sends no body for HEAD', async () => {
    const res = await request(appWith((req, res) => res.redirect('/x'))).head('/').set('Accept', 'text/html')
    expect(res.status).toBe(302)
    expect(res.headers['content-length']).toBe('92')
    expect(res.text).toBeUndefined()
  })

  it('never leaves <, " or a space raw in Location or the HTML body', async () => {
    const res = await request(appWith((req, res) => res.redirect('/a<b>"c d'))).get('/').set('Accept', 'text/html')
    expect(res.headers.location).toBe('/a%3Cb%3E%22c%20d')
    expect(res.text).toContain('Redirecting to /a%3Cb%3E%22c%20d</p>')
    expect(res.text.replace(/<\/?(p|head|title|body)>|<!DOCTYPE html>/g, '')).not.toMatch(/[<"]/)
  })

  it('escapes HTML in addresses that survive URL encoding', async () => {
    const res = await request(appWith((req, res) => res.redirect("/x?a=1&b='2'"))).get('/').set('Accept', 'text/html')
    expect(res.text).toContain('Redirecting to /x?a=1&amp;b=&#39;2&#39;</p>')
  })

  it("does not treat 'back' specially", async () => {
    const res = await request(appWith((req, res) => res.redirect('back'))).get('/').set('Referer', '/from')
    expect(res.headers.location).toBe('back')
  })
})

describe('res.redirect(status, url)', () => {
  it('uses the given status and its message', async () => {
    const res = await request(appWith((req, res) => res.redirect(301, 'https://example.com/'))).get('/')
    expect(res.status).toBe(301)
    expect(res.text).toBe('Moved Permanently. Redirecting to https://example.com/')
  })

  it('passes an invalid status to the error handler', async () => {
    const res = await request(appWith((req, res) => res.redirect(1000, '/x'))).get('/')
    expect(res.status).toBe(500)
    expect(res.text).toMatch(/^RangeError/)
  })
})
