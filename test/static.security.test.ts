import fs from 'node:fs'
import path from 'node:path'
import { describe, it, expect, vi, afterEach } from 'vitest'
import { serveStatic, type ServeStaticOptions } from '../src/static'
import { ROOT, SECRET, host, raw } from './support/static'

function app(options?: ServeStaticOptions, mount = '') {
  return host(serveStatic(ROOT, options), mount)
}

// Paths are sent byte for byte (no client normalisation), so '..' and '\' reach the server.
const TRAVERSALS: Array<[string, number]> = [
  ['/../secret.txt', 403],
  ['/../../secret.txt', 403],
  ['/nested/../../secret.txt', 403],
  ['/%2e%2e/secret.txt', 403],
  ['/%2E%2E/secret.txt', 403],
  ['/..%2fsecret.txt', 403],
  ['/..%2Fsecret.txt', 403],
  ['/%2e%2e%2fsecret.txt', 403],
  ['/nested/..%2f..%2fsecret.txt', 403],
  ['/sub/%2e%2e/%2e%2e/secret.txt', 403],
  ['/..\\secret.txt', 403],
  ['/nested\\..\\..\\secret.txt', 403],
  ['/..%5csecret.txt', 403],
  ['/..%5Csecret.txt', 403],
  ['/%2e%2e%5csecret.txt', 403],
  ['/..', 403],
  ['/%2e%2e', 403],
  ['/todo.txt%00', 400],
  ['/%00', 400],
  ['/%00../secret.txt', 400],
  ['/..%00/secret.txt', 400],
  ['/%E0%A4%A', 400],
  ['/%', 400],
  ['/%zz', 400],
  ['/100%-sure.txt', 400]
]

describe('fw.static(root): paths escaping root', () => {
  afterEach(() => { vi.restoreAllMocks() })

  it('the secret file exists just outside root', () => {
    expect(fs.readFileSync(path.join(ROOT, '..', 'secret.txt'), 'utf8')).toBe(SECRET + '\n')
  })

  for (const [p, status] of TRAVERSALS) {
    it(`refuses ${JSON.stringify(p)} with ${status} (fallthrough: false)`, async () => {
      const res = await raw(app({ fallthrough: false, dotfiles: 'allow' }), 'GET', p)
      expect(res.status).toBe(status)
      expect(res.body).toBe(`error ${status}`)
      expect(res.body).not.toContain(SECRET)
    })

    it(`sends ${JSON.stringify(p)} to next() (fallthrough: true)`, async () => {
      const res = await raw(app({ dotfiles: 'allow' }), 'GET', p)
      expect(res.status).toBe(404)
      expect(res.body).toBe(`fell through: GET ${p}`)
    })
  }

  it('never touches the file system for a refused path', async () => {
    const stat = vi.spyOn(fs, 'stat')
    const open = vi.spyOn(fs, 'createReadStream')
    for (const [p] of TRAVERSALS) await raw(app({ fallthrough: false, dotfiles: 'allow' }), 'GET', p)
    expect(stat).not.toHaveBeenCalled()
    expect(open).not.toHaveBeenCalled()
    // the spies do see ordinary requests
    await raw(app(), 'GET', '/todo.txt')
    expect(stat).toHaveBeenCalledWith(path.join(ROOT, 'todo.txt'), expect.any(Function))
    expect(open).toHaveBeenCalledTimes(1)
  })

  it('refuses traversal below a mount path too', async () => {
    const res = await raw(app({ fallthrough: false }, '/static'), 'GET', '/static/..%2fsecret.txt')
    expect(res.status).toBe(403)
    expect(res.body).not.toContain(SECRET)
  })

  it('refuses HEAD traversal without reading', async () => {
    const res = await raw(app({ fallthrough: false }), 'HEAD', '/%2e%2e/secret.txt')
    expect(res.status).toBe(403)
  })

  it('refuses traversal whatever setHeaders does, and never calls it', async () => {
    let called = false
    const res = await raw(app({ fallthrough: false, setHeaders: () => { called = true } }), 'GET', '/../secret.txt')
    expect(res.status).toBe(403)
    expect(called).toBe(false)
  })

  it('serves a path whose ".." segments stay inside root once normalised', async () => {
    const res = await raw(app({ fallthrough: false }), 'GET', '/nested/%2e%2e/todo.txt')
    expect(res.status).toBe(200)
    expect(res.body).toBe('- groceries\n')
  })

  it('a backslash that is not part of ".." is an ordinary file name character', async () => {
    const res = await raw(app({ fallthrough: false }), 'GET', '/a\\b')
    expect(res.status).toBe(404)
  })

  it('an encoded slash inside a name is decoded, then looked up below root', async () => {
    const res = await raw(app(), 'GET', '/users%2ftobi.txt')
    expect(res.status).toBe(200)
    expect(res.body).toBe('tobi\n')
  })
})
