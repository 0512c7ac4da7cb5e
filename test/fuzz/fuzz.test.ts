// Bounded fuzzing in `npm test`: a fixed-seed batch of 20,000 generated requests
// (random and malformed request lines, URLs, headers and bodies, pipelined over
// raw sockets) sent to switchyard and to express@5 serving the same app.
// Any size or seed: `npm run fuzz -- --seed N --count M` (see docs/reliability.md).
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM module without types, shared with the CLI
import { runFuzz } from './run.mjs'
// @ts-expect-error plain ESM module without types
import { ALLOWED } from './allow-list.mjs'

describe('fuzz: seed 1, 20,000 requests, switchyard vs express@5', () => {
  let report: any
  it('runs to the end without a hang over 5 s', async () => {
    report = await runFuzz({ seed: 1, count: 20000 })
    expect(report.count).toBeGreaterThanOrEqual(20000)
    expect(report.hangs).toEqual([])
  }, 90000)

  it('raises no uncaught exception in either server', () => {
    expect(report.uncaught).toEqual([])
  })

  it('never answers a pipelined request with the response of another', () => {
    expect(report.desyncs).toEqual([])
    expect(report.junk).toEqual([])
  })

  it('gives the status express gives, except for the documented allow-list', () => {
    expect(report.unexplained).toEqual([])
    for (const reason of Object.keys(report.explained)) expect(ALLOWED.map((a: any) => a.reason)).toContain(reason)
  })

  it('exercised every kind of answer (the run is not vacuous)', () => {
    for (const status of ['200', '301', '400', '403', '404', '405', '413', '415', '431', '500']) expect(report.statuses[status]).toBeGreaterThan(0)
  })
})
