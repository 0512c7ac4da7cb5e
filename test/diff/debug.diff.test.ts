// The `debug` namespaces express@5.3 and router@2.3 print to (DEBUG=...):
// the same app (test/fixtures/debug/app.cjs) run on the built library and
// on express@5.3, in child processes, must print the same lines. Only the
// time stamp that starts each line (when stderr is not a terminal) and the
// frames of stack traces (file paths) are left out.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const repo = fileURLToPath(new URL('../..', import.meta.url))
const script = join(repo, 'test/fixtures/debug/app.cjs')

function run(lib: string, namespaces: string): { out: string; lines: string[] } {
  const r = spawnSync(process.execPath, [script, lib], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, DEBUG: namespaces, DEBUG_COLORS: '0', NODE_ENV: '' }
  })
  const lines = r.stderr.split('\n')
    .filter((l) => !/^\s+at /.test(l))
    .map((l) => l.replace(/^\d{4}-\d\d-\d\dT[\d:.]+Z /, ''))
  return { out: r.stdout, lines }
}

const ours = join(repo, 'dist/index.cjs')
const theirs = join(repo, 'node_modules/express')

describe('DEBUG output, against express@5.3', () => {
  for (const namespaces of ['express:*', 'express:application', 'express:view', 'router', 'router:layer', 'router:route', 'router*', 'finalhandler', 'body-parser:json', 'body-parser:*', 'express:*,router*,finalhandler,body-parser*', '*']) {
    it(`DEBUG=${namespaces}: the same lines`, () => {
      const a = run(ours, namespaces)
      const b = run(theirs, namespaces)
      expect(a.out).toBe(b.out)
      expect(a.lines).toEqual(b.lines)
      expect(b.lines.filter((l) => !l.startsWith('---') && l !== '').length).toBeGreaterThan(5)
    })
  }
  it('without DEBUG: only the errors the final handler logs, as express@5.3 logs them', () => {
    const a = run(ours, '')
    const b = run(theirs, '')
    expect(a.lines).toEqual(b.lines)
    expect(a.lines.some((l) => /^(body-parser|router|express|finalhandler)/.test(l))).toBe(false)
  })
})
