// Bounded body-parser fuzzing in `npm test`: 1,000 random bodies (seed 1) in
// random charsets, content types and content encodings (some corrupt),
// through json, urlencoded, text and raw parsers made with random options;
// req.body, or the error passed on, must be the same from
// switchyard/body-parser and body-parser@2.
// Any size or seed: `npm run fuzz:body -- --seed N --cases M` (docs/reliability.md).
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM module without types, shared with the CLI
import { runBodyFuzz } from './body-state.mjs'

describe('body-parser fuzz: seed 1, 1,000 cases, switchyard/body-parser vs body-parser@2', () => {
  let report: any
  it('parses to the same req.body, or fails with the same error, for every body', async () => {
    report = await runBodyFuzz({ seed: 1, cases: 1000 })
    expect(report.differences).toEqual([])
  }, 60000)

  it('is not vacuous: bodies were parsed, and refused for each main reason', () => {
    expect(report.outcomes.parsed).toBeGreaterThan(400)
    for (const type of ['encoding.unsupported', 'charset.unsupported', 'entity.parse.failed']) expect(report.outcomes[type]).toBeGreaterThan(5)
  })
})
