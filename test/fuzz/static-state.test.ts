// Bounded static-files fuzzing in `npm test`: 600 random cases (seed 1) of
// fw.static / express.static options, mounts, paths, methods, conditional
// and Range headers; the whole response (but Date and X-Powered-By) must be
// the same, bytes included.
// Any size or seed: `npm run fuzz:static -- --seed N --cases M` (docs/reliability.md).
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM module without types, shared with the CLI
import { runStaticFuzz } from './static-state.mjs'

describe('static fuzz: seed 1, 600 cases, fw.static vs express.static', () => {
  let report: any
  it('answers every request as serve-static 2 does, byte for byte', async () => {
    report = await runStaticFuzz({ seed: 1, cases: 600 })
    expect(report.differences).toEqual([])
  }, 60000)

  it('is not vacuous: files, ranges, redirects, 304s, refusals and fall-throughs all happened', () => {
    for (const status of ['200', '206', '301', '304', '400', '403', '404', '405']) expect(report.statuses[status]).toBeGreaterThan(3)
  })
})
