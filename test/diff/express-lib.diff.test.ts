// express@5's own files under lib/ (express/lib/utils, lib/view...), which code
// reaches by path under the npm alias: Switchyard's dist/lib files must export
// what express@5.3's export, with the same behaviour. (That the alias layout
// resolves those paths is in test/migration.alias.test.ts.)
import { createRequire } from 'node:module'
import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'

const require = createRequire(import.meta.url)
const fw = require('../../dist/index.cjs')
const ours = {
  utils: require('../../dist/lib/utils.cjs'),
  view: require('../../dist/lib/view.cjs'),
  request: require('../../dist/lib/request.cjs'),
  response: require('../../dist/lib/response.cjs'),
  application: require('../../dist/lib/application.cjs')
}
const express = require('express')
const theirs = {
  utils: require('express/lib/utils'),
  view: require('express/lib/view'),
  request: require('express/lib/request'),
  response: require('express/lib/response'),
  application: require('express/lib/application')
}

/** What a call gives, or what it throws, in a form toEqual compares (functions by name and arity). */
function outcome(fn: () => unknown): unknown {
  try {
    const value = fn()
    if (typeof value === 'function') return { fn: value.name, length: value.length }
    return { value: inspect(value, { depth: 4 }) }
  } catch (e: any) {
    return { threw: e.constructor.name, message: e.message }
  }
}

describe('express/lib/utils', () => {
  it('has the same keys, in order, with the same names and arities', () => {
    const shape = (u: any) => Object.keys(u).map((k) => [k, typeof u[k], u[k].name, u[k].length])
    expect(shape(ours.utils)).toEqual(shape(theirs.utils))
    expect(ours.utils.methods).toEqual(theirs.utils.methods)
  })

  it('etag and wetag tag bodies the same, and are the generators the etag setting compiles to', () => {
    for (const [body, encoding] of [['hello'], [''], [Buffer.from('hello')], ['héllo', 'latin1'], ['héllo'], ['x'.repeat(5000)]] as const) {
      expect(ours.utils.etag(body, encoding)).toBe(theirs.utils.etag(body, encoding))
      expect(ours.utils.wetag(body, encoding)).toBe(theirs.utils.wetag(body, encoding))
    }
    expect(ours.utils.compileETag('strong')).toBe(ours.utils.etag)
    expect(ours.utils.compileETag(true)).toBe(ours.utils.wetag)
    expect(fw().set('etag', 'strong').get('etag fn')).toBe(ours.utils.etag)
  })

  it('normalizeType and normalizeTypes split types and look up extensions as there', () => {
    const types = [
      'html', 'json', 'HTML', '.html', 'text', '', ' html', 'nosuch', 'json; q=0.5', ';q=0.5',
      'text/html', 'text/html; q=0.5', 'text/html;q=0.5;level=1', 'text/html;level=1;q=0.5;x=y',
      ' text/html ;  a b = 1 ;c= 2', 'text/html;q=abc', 'text/html;q=', 'text/html;q= ', 'text/html;q=0',
      'text/html;q=1e-1', 'text/html;q=-1', 'a/b;q=Infinity', 'text/html; q=0.5abc', 'text/html;q=1;q=0.2',
      'text/html;charset="utf-8"', 'text/html;;', 'text/html;Q=0.5', 'text/html;=x', 'text/html;a',
      'text/html;a=1=2', 'text/html;a=1;a=2', 'text/html;__proto__=x', '/', 'a/', 'text/*;q=.2',
      'text/html,application/json'
    ]
    for (const t of types) expect(outcome(() => ours.utils.normalizeType(t)), t).toEqual(outcome(() => theirs.utils.normalizeType(t)))
    for (const bad of [undefined, null, 5, {}]) expect(outcome(() => ours.utils.normalizeType(bad))).toEqual(outcome(() => theirs.utils.normalizeType(bad)))
    for (const list of [[], ['html', 'text/plain;q=0.1'], 'html', { length: 1, 0: 'html' }]) {
      expect(outcome(() => ours.utils.normalizeTypes(list))).toEqual(outcome(() => theirs.utils.normalizeTypes(list)))
    }
  })

  it('compileETag, compileQueryParser and compileTrust compile (and refuse) the same values', () => {
    const values = [true, false, 'weak', 'strong', 'simple', 'extended', undefined, null, 0, 1, 2, 'x', 'loopback', '10.0.0.1, 10.0.0.2', ['loopback'], function custom() {}]
    for (const v of values) {
      expect(outcome(() => ours.utils.compileETag(v)), String(v)).toEqual(outcome(() => theirs.utils.compileETag(v)))
      expect(outcome(() => ours.utils.compileQueryParser(v)), String(v)).toEqual(outcome(() => theirs.utils.compileQueryParser(v)))
      expect(outcome(() => ours.utils.compileTrust(v)), String(v)).toEqual(outcome(() => theirs.utils.compileTrust(v)))
      const a = outcome(() => ours.utils.compileQueryParser(v)?.('a[b]=1&c=2&c=3'))
      expect(a, String(v)).toEqual(outcome(() => theirs.utils.compileQueryParser(v)?.('a[b]=1&c=2&c=3')))
      for (const [addr, i] of [['127.0.0.1', 0], ['8.8.8.8', 1], ['10.0.0.2', 3]] as const) {
        expect(outcome(() => ours.utils.compileTrust(v)(addr, i))).toEqual(outcome(() => theirs.utils.compileTrust(v)(addr, i)))
      }
    }
  })

  it('setCharset sets, replaces and leaves charsets as there', () => {
    const cases = [
      ['text/html', 'utf-8'], ['text/html; charset=latin1', 'utf-8'], [undefined, 'utf-8'], ['text/html', undefined],
      ['bad type', 'utf-8'], ['', ''], ['text/html;foo=bar', 'UTF-8'], [5, 'x'], [null, 'x'], ['text/html', ''],
      ['text/html', 5], ['text/html; charset=a; charset=b', 'c'], ['TEXT/HTML', 'x']
    ]
    for (const [type, charset] of cases) {
      expect(outcome(() => ours.utils.setCharset(type, charset)), String(type)).toEqual(outcome(() => theirs.utils.setCharset(type, charset)))
    }
  })
})

describe('express/lib/view, request, response, application', () => {
  it('lib/view is the View constructor the view setting holds', () => {
    expect(ours.view).toBe(fw().get('view'))
    expect(inspect(ours.view)).toBe(inspect(theirs.view))
    expect(Object.keys(ours.view.prototype)).toEqual(Object.keys(theirs.view.prototype))
  })

  it('lib/request, lib/response and lib/application are the prototypes the module exports', () => {
    expect(ours.request).toBe(fw.request)
    expect(ours.response).toBe(fw.response)
    expect(ours.application).toBe(fw.application)
    expect(theirs.request).toBe(express.request)
  })

  it('the module keeps its own keys: the lib/ modules ride on a non-enumerable symbol', () => {
    expect(Object.keys(fw)).toEqual(Object.keys(express))
    expect(inspect(fw)).not.toContain('switchyard.express-lib')
  })
})
