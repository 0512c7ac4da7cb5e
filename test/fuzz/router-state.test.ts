// Bounded router-state fuzzing in `npm test`: 60 random app trees (routers,
// sub-apps, middleware, routes, error handlers, param triggers; seed 1) on
// switchyard and express@5, every path with GET, POST, HEAD and OPTIONS. Each layer
// records what it sees on req; the answers must be identical. Every other
// pair of apps leaves unanswered requests to the built-in final handler, and
// what req holds once each response is done must be identical too.
// Any size or seed: `npm run fuzz:router -- --seed N --apps M` (docs/reliability.md).
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM module without types, shared with the CLI
import { runRouterFuzz } from './router-state.mjs'

describe('router-state fuzz: seed 1, 60 apps, switchyard vs express@5', () => {
  let report: any
  it('every layer sees the same request state, and every answer is the same', async () => {
    report = await runRouterFuzz({ seed: 1, apps: 60 })
    expect(report.differences).toEqual([])
  }, 60000)

  it('is not vacuous: layers ran, and requests were answered by routes, fell through and failed', () => {
    expect(report.requests).toBe(60 * 19 * 4)
    expect(report.records).toBeGreaterThan(1000)
    expect(report.finals).toBe(30 * 19 * 4)
    for (const status of ['200', '404', '500']) expect(report.statuses[status]).toBeGreaterThan(50)
  })
})

describe("router-state fuzz with router@2.3's express.router.request subscribed: seed 2, 40 apps", () => {
  let report: any
  it('every request publishes the same events, with the same contexts, as express@5.3 does', async () => {
    report = await runRouterFuzz({ seed: 2, apps: 40, traced: true })
    expect(report.differences).toEqual([])
  }, 60000)

  it('is not vacuous: thousands of events, from answered, fallen-through and failed requests', () => {
    expect(report.events).toBeGreaterThan(5000)
    for (const status of ['200', '404', '500']) expect(report.statuses[status]).toBeGreaterThan(20)
  })
})
