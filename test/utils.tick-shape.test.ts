// The first router made (an app's, at its first route, middleware or
// request, or one made alone) holds one of Node's process.nextTick tick
// objects for the life of the process (src/utils/tick-shape.ts, docs/design.md, Speed,
// item 58). Without it, a full garbage collection while no tick object is
// alive frees the maps V8 built tick objects with, and the stores that build
// every later tick object turn megamorphic for good: about one server in four
// of the 1,000-routes bench ran at ~35% more CPU per request. These tests pin
// that what is held is a tick object, that it is taken once, that the maps
// stay, and that nothing else changes without the API it is taken with.
import { execFileSync } from 'node:child_process'
import { executionAsyncResource } from 'node:async_hooks'
import { fileURLToPath } from 'node:url'
import { describe, expect, it, vi } from 'vitest'
import request from 'supertest'
import fw from '../src/index'
import { heldTickShape } from '../src/utils/tick-shape'

const repoRoot = fileURLToPath(new URL('..', import.meta.url))
const nextTick = () => new Promise<void>((resolve) => process.nextTick(resolve))
/** The async resource of a process.nextTick callback: the tick object Node made for it. */
const tickObject = () => new Promise<object>((resolve) => process.nextTick(() => resolve(executionAsyncResource())))

describe('the tick object the first router holds', () => {
  it('is one of Node\'s tick objects, with their keys in their order, taken once', async () => {
    const app = fw()
    await nextTick()
    expect(heldTickShape()).toBeUndefined()
    app.get('/', (req: any, res: any) => { res.end() })
    await nextTick()
    const held = heldTickShape()
    expect(held).toBeTypeOf('object')
    const keys = (o: object) => Reflect.ownKeys(o).map((k) => (typeof k === 'symbol' ? k.description : k))
    // (Node 24 adds a fifth, its AsyncContextFrame's)
    expect(keys(held!).slice(0, 4)).toEqual(['callback', 'args', 'async_id_symbol', 'trigger_async_id_symbol'])
    expect(Reflect.ownKeys(held!)).toEqual(Reflect.ownKeys(await tickObject()))
    fw()
    fw.Router()
    await nextTick()
    expect(heldTickShape()).toBe(held)
  })

  it('is taken by a router made without an app', async () => {
    vi.resetModules()
    try {
      const { Router } = await import('../src/router/index')
      const { heldTickShape: heldByRouter } = await import('../src/utils/tick-shape')
      expect(heldByRouter()).toBeUndefined()
      Router()
      await nextTick()
      expect(Reflect.ownKeys(heldByRouter()!)).toEqual(Reflect.ownKeys(await tickObject()))
    } finally {
      vi.resetModules()
    }
  })

  it('keeps the stores that build tick objects monomorphic through full collections while none is alive', async () => {
    // V8's own view of process.nextTick's feedback (%DebugPrint): one store
    // a key of the tick object (four on Node 20, five on Node 24). Without
    // an app, every store after the first turns megamorphic once the
    // collections have freed the maps; with one, none does
    const megamorphic = (makeApp: boolean) => {
      const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--expose-gc', '-e', `
        if (${makeApp}) require('switchyardjs')().get('/', (req, res) => res.end())
        for (let i = 0; i < 50; i++) process.nextTick(() => {})
        setTimeout(() => {
          for (let i = 0; i < 6; i++) gc()
          setTimeout(() => {
            for (let i = 0; i < 50; i++) process.nextTick(() => {})
            setTimeout(() => { %DebugPrint(process.nextTick) }, 5)
          }, 5)
        }, 20)`], { cwd: repoRoot, encoding: 'utf8' })
      const stores = out.match(/DefineKeyedOwnPropertyInLiteral [A-Z_]+/g) ?? []
      expect(stores.length).toBe(keysOfTick)
      return stores.filter((s) => s.endsWith('MEGAMORPHIC')).length
    }
    const keysOfTick = Reflect.ownKeys(await tickObject()).length
    expect(keysOfTick).toBeGreaterThanOrEqual(4)
    // (if this first count is 0, V8 no longer frees the maps, and item 58 may be obsolete)
    expect(megamorphic(false)).toBe(keysOfTick - 1)
    expect(megamorphic(true)).toBe(0)
  })

  it('is not taken when the callback runs in some other resource (a fake nextTick)', async () => {
    vi.resetModules()
    vi.doMock('node:async_hooks', async (original) => {
      const real: any = await original()
      const other = () => ({ callback: () => {}, args: undefined })
      return { ...real, default: { ...real.default, executionAsyncResource: other }, executionAsyncResource: other }
    })
    try {
      const { default: make } = await import('../src/index')
      const { heldTickShape: heldOther } = await import('../src/utils/tick-shape')
      make().get('/', (req: any, res: any) => { res.end() })
      await nextTick()
      expect(heldOther()).toBeUndefined()
    } finally {
      vi.doUnmock('node:async_hooks')
      vi.resetModules()
    }
  })

  it('is not taken, and nothing else changes, without async_hooks.executionAsyncResource', async () => {
    vi.resetModules()
    vi.doMock('node:async_hooks', async (original) => {
      const real: any = await original()
      return { ...real, default: { ...real.default, executionAsyncResource: undefined }, executionAsyncResource: undefined }
    })
    try {
      const { default: make } = await import('../src/index')
      const { heldTickShape: heldWithout } = await import('../src/utils/tick-shape')
      const app = make()
      app.get('/', (req: any, res: any) => { res.send('hello') })
      await nextTick()
      expect(heldWithout()).toBeUndefined()
      const res = await request(app).get('/')
      expect(res.status).toBe(200)
      expect(res.text).toBe('hello')
      expect(res.headers.etag).toBe('W/"5-qvTGHdzF6KLavt4PO0gs2a6pQ00"')
    } finally {
      vi.doUnmock('node:async_hooks')
      vi.resetModules()
    }
  })
})
