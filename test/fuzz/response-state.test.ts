// Bounded response fuzzing in `npm test`: 600 random sequences of response
// methods ending in a random answer (seed 1), on switchyard and express@5,
// for GET and HEAD with random conditional, Range, Accept and Referer headers. The
// status, the headers in order (but Date and X-Powered-By) and the body
// bytes must be the same, and so must the calls a spy wrapping some of the
// response's methods sees.
// Any size or seed: `npm run fuzz:response -- --seed N --cases M` (docs/reliability.md).
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM module without types, shared with the CLI
import { runResponseFuzz } from './response-state.mjs'

describe('response fuzz: seed 1, 600 cases, switchyard vs express@5', () => {
  let report: any
  it('gives the same status, headers and body for every case', async () => {
    report = await runResponseFuzz({ seed: 1, cases: 600 })
    expect(report.differences).toEqual([])
    expect(report.uncaught).toEqual([])
  }, 60000)

  it('is not vacuous: every way of answering ran, with successes, redirects, 304s and errors', () => {
    for (const end of ['send', 'json', 'jsonp', 'sendStatus', 'redirect', 'end', 'format', 'sendFile']) expect(report.ends[end]).toBeGreaterThan(10)
    expect(report.ends.download).toBeGreaterThan(5)
    expect(report.ends.render).toBeGreaterThan(5)
    for (const status of ['200', '302', '304', '599']) expect(report.statuses[status]).toBeGreaterThan(5)
    // the spies, wrapping methods in a third of the cases, saw calls to compare
    expect(report.spied).toBeGreaterThan(100)
  })
})
