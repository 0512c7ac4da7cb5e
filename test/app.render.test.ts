import { describe, expect, it, vi } from 'vitest'
import { join } from 'node:path'
import { readFileSync } from 'node:fs'
import fw from '../src/index'

const views = join(__dirname, 'fixtures/views')
const views2 = join(__dirname, 'fixtures/views2')

/** A tiny engine: replaces {{name}} with options.name. */
function tmpl(path: string, options: any, cb: (err: Error | null, html?: string) => void) {
  try {
    cb(null, readFileSync(path, 'utf8').replace(/\{\{(\w+)\}\}/g, (_, k) => String(options[k])))
  } catch (err) {
    cb(err as Error)
  }
}

function render(app: any, name: string, locals?: any): Promise<string> {
  return new Promise((resolve, reject) => {
    const cb = (err: any, html?: string) => (err ? reject(err) : resolve(html!))
    if (locals === undefined) app.render(name, cb)
    else app.render(name, locals, cb)
  })
}

describe('app.engine(ext, fn)', () => {
  it('registers an engine with or without the leading dot', () => {
    const app = fw()
    expect(app.engine('tmpl', tmpl)).toBe(app)
    expect(app.engines['.tmpl']).toBe(tmpl)
    app.engine('.other', tmpl)
    expect(app.engines['.other']).toBe(tmpl)
  })

  it('requires a function', () => {
    expect(() => fw().engine('x', 'nope' as any)).toThrow('callback function required')
  })
})

describe('app.render(view, [locals], callback)', () => {
  it('renders with app.locals merged under the given locals', async () => {
    const app = fw()
    app.set('views', views)
    app.engine('tmpl', tmpl)
    app.locals.name = 'app'
    expect(await render(app, 'hello.tmpl')).toBe('Hello app!\n')
    expect(await render(app, 'hello.tmpl', { name: 'local' })).toBe('Hello local!\n')
  })

  it('adds the view engine extension and tries name/index.ext', async () => {
    const app = fw()
    app.set('views', views)
    app.set('view engine', 'tmpl')
    app.engine('tmpl', tmpl)
    expect(await render(app, 'hello', { name: 'ext' })).toBe('Hello ext!\n')
    expect(await render(app, 'users', { name: 'dir' })).toBe('Users index for dir\n')
  })

  it('searches an array of views directories in order', async () => {
    const app = fw()
    app.set('views', [views, views2])
    app.set('view engine', '.tmpl')
    app.engine('tmpl', tmpl)
    expect(await render(app, 'other', { name: 'second' })).toBe('Other second\n')
  })

  it('reports a view that cannot be found, naming the directories', async () => {
    const app = fw()
    app.set('views', views)
    app.engine('tmpl', tmpl)
    await expect(render(app, 'missing.tmpl')).rejects.toThrow(`Failed to lookup view "missing.tmpl" in views directory "${views}"`)
    app.set('views', [views, views2])
    await expect(render(app, 'missing.tmpl')).rejects.toThrow(`Failed to lookup view "missing.tmpl" in views directories "${views}" or "${views2}"`)
  })

  it('throws without an extension or a view engine', () => {
    expect(() => fw().render('hello', () => {})).toThrow('No default engine was specified and no extension was provided.')
  })

  it("loads an engine module by extension through its __express export", async () => {
    const app = fw()
    app.set('views', views)
    expect(await render(app, 'page.ejs', { title: 'From ejs' })).toBe('<p>From ejs</p>\n')
  })

  it('reports a module that is not a view engine', () => {
    const app = fw()
    app.set('views', views)
    expect(() => app.render('x.qs', () => {})).toThrow('Module "qs" does not provide a view engine.')
  })

  it('caches views when view cache is on, or when locals.cache is set', async () => {
    const app = fw()
    app.set('views', views)
    app.engine('tmpl', tmpl)
    const View = app.get('view')
    const created = vi.fn()
    app.set('view', class extends View { constructor(name: string, opts: any) { super(name, opts); created(name) } })
    await render(app, 'hello.tmpl', { name: 'a' })
    await render(app, 'hello.tmpl', { name: 'b' })
    expect(created).toHaveBeenCalledTimes(2)
    app.enable('view cache')
    await render(app, 'hello.tmpl', { name: 'c' })
    expect(await render(app, 'hello.tmpl', { name: 'd' })).toBe('Hello d!\n')
    expect(created).toHaveBeenCalledTimes(3)
    app.disable('view cache')
    await render(app, 'users/index.tmpl', { name: 'e', cache: true })
    await render(app, 'users/index.tmpl', { name: 'f', cache: true })
    expect(created).toHaveBeenCalledTimes(4)
  })

  it('passes engine errors to the callback, and always calls back asynchronously', async () => {
    const app = fw()
    app.set('views', views)
    app.engine('tmpl', (p: string, o: any, cb: any) => cb(new Error('engine failed')))
    let sync = true
    const done = new Promise((resolve) => app.render('hello.tmpl', (err: any) => resolve([err.message, sync])))
    sync = false
    expect(await done).toEqual(['engine failed', false])
  })

  it('passes a throwing engine\'s error to the callback', async () => {
    const app = fw()
    app.set('views', views)
    app.engine('tmpl', () => { throw new Error('thrown in engine') })
    await expect(render(app, 'hello.tmpl')).rejects.toThrow('thrown in engine')
  })
})
