// Bounded request-property fuzzing in `npm test`: 400 random requests (seed 1)
// with odd Host, X-Forwarded-*, Accept-*, Content-Type, Range and conditional
// headers, query strings and app settings (trust proxy, subdomain offset,
// query parser, routing options); every value req computes must be the
// same on switchyard and express@5.
// Any size or seed: `npm run fuzz:request -- --seed N --cases M` (docs/reliability.md).
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM module without types, shared with the CLI
import { runRequestFuzz } from './request-state.mjs'

describe('request-property fuzz: seed 1, 400 cases, switchyard vs express@5', () => {
  let report: any
  it('computes the same protocol, ip, host, subdomains, query, accepts, is, range, fresh... for every request', async () => {
    report = await runRequestFuzz({ seed: 1, cases: 400 })
    expect(report.differences).toEqual([])
  }, 60000)

  it('is not vacuous: routes answered, fresh requests got 304 and others fell through', () => {
    for (const status of ['200', '304', '404']) expect(report.statuses[status]).toBeGreaterThan(10)
  })
})
